//! Claude Code's messages built from domain values: `selection_changed`, `at_mentioned` and the
//! answer to `getCurrentSelection`.

use crate::clients::Cli;
use crate::protocols::selection_changed::{self, to_value, Extent, Point, SelectionChanged};
use crate::review::selection::{Mention, Span};
use serde::Serialize;
use serde_json::Value;

/// How a connection counts the lines Redline sends it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Lines {
    /// Claude Code's own: the first line is 0.
    #[default]
    ZeroBased,
    /// A client that shows the numbers as they come, as an editor's (opencode: `#2-4`,
    /// `@a.txt#2-4`), and reads a mentioned file from that line (`ClaudeClient::one_based_lines`).
    OneBased,
}

impl Lines {
    /// The count a client uses, by the `clientInfo.name` it gave in `initialize`.
    pub fn of_client(name: &str) -> Lines {
        match Cli::on_claude_locks(name) {
            Some((_, client)) if client.one_based_lines => Lines::OneBased,
            _ => Lines::ZeroBased,
        }
    }

    /// Redline's 0-based line as this client counts it.
    fn line(self, zero_based: u32) -> u32 {
        match self {
            Lines::ZeroBased => zero_based,
            Lines::OneBased => zero_based.saturating_add(1),
        }
    }
}

/// Which `selection_changed` a connection reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Form {
    /// Claude Code's: one range (`text`, `selection`), the primary; its parser reads no more.
    #[default]
    One,
    /// A client's that reads every range too (`ClaudeClient::ranges`; opencode): the one-range
    /// fields and every range in `ranges` (`[{text, selection}]`).
    Ranges,
}

impl Form {
    /// The form a client reads, by the `clientInfo.name` it gave in `initialize`.
    pub fn of_client(name: &str) -> Form {
        match Cli::on_claude_locks(name) {
            Some((_, client)) if client.ranges => Form::Ranges,
            _ => Form::One,
        }
    }
}

/// `selection_changed` with every range: Claude Code's one-range fields (the primary) and
/// `ranges`, which opencode 1.18 reads first when it is there.
#[derive(Debug, Serialize)]
struct WithRanges {
    #[serde(flatten)]
    one: SelectionChanged,
    ranges: Vec<RangeItem>,
}

#[derive(Debug, Serialize)]
struct RangeItem {
    text: String,
    selection: Extent,
}

/// The `selection_changed` params in the form `form`, lines counted as `lines`.
pub fn selection_changed(span: &Span, lines: Lines, form: Form) -> Value {
    let one = counted(SelectionChanged::of(span), lines);
    match form {
        Form::One => to_value(one),
        Form::Ranges => {
            let ranges = span
                .regions()
                .into_iter()
                .map(|r| {
                    let s = r.selection;
                    let point = |line: u32, character| Point {
                        line: lines.line(line),
                        character,
                    };
                    RangeItem {
                        selection: Extent {
                            start: point(s.start_line, s.start_character),
                            end: point(s.end_line, s.end_character),
                            is_empty: s.is_empty(),
                        },
                        text: r.text,
                    }
                })
                .collect();
            to_value(WithRanges { one, ranges })
        }
    }
}

fn counted(mut s: SelectionChanged, lines: Lines) -> SelectionChanged {
    s.selection.start.line = lines.line(s.selection.start.line);
    s.selection.end.line = lines.line(s.selection.end.line);
    s
}

/// The `at_mentioned` params: lines counted as `lines`, both included.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AtMentioned {
    file_path: String,
    line_start: u32,
    line_end: u32,
}

pub fn at_mentioned(mention: &Mention, lines: Lines) -> Value {
    to_value(AtMentioned {
        file_path: mention.path.to_string_lossy().into_owned(),
        line_start: lines.line(mention.start),
        line_end: lines.line(mention.end),
    })
}

/// `getCurrentSelection`'s answer (asked by Claude Code, which counts from 0).
pub fn current_selection(span: Option<&Span>) -> Value {
    selection_changed::answer(span, "No active editor found")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::selection::Selection;
    use serde_json::json;

    #[test]
    fn at_mentioned_and_get_current_selection_as_claude_code_reads_them() {
        let m = Mention {
            path: "/ws/a.txt".into(),
            start: 2,
            end: 4,
        };
        assert_eq!(
            at_mentioned(&m, Lines::ZeroBased),
            json!({"filePath": "/ws/a.txt", "lineStart": 2, "lineEnd": 4})
        );
        assert_eq!(
            at_mentioned(&m, Lines::of_client("opencode")),
            json!({"filePath": "/ws/a.txt", "lineStart": 3, "lineEnd": 5})
        );
        assert_eq!(Lines::of_client("claude-code"), Lines::ZeroBased);
        assert_eq!(Form::of_client("claude-code"), Form::One);
        assert_eq!(Form::of_client("opencode"), Form::Ranges);
        assert_eq!(
            current_selection(None),
            json!({"success": false, "message": "No active editor found"})
        );
        let cursor = Selection {
            start_line: 0,
            start_character: 1,
            end_line: 0,
            end_character: 1,
        };
        let span = Span {
            path: "/ws/a.txt".into(),
            selection: cursor,
            text: String::new(),
            ranges: Vec::new(),
        };
        let answer = current_selection(Some(&span));
        assert_eq!(
            (&answer["success"], &answer["selection"]["isEmpty"]),
            (&json!(true), &json!(true))
        );
        assert_eq!(answer["fileUrl"], "file:///ws/a.txt");
    }
}
