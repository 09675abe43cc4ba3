//! Claude Code's messages built from domain values: `selection_changed`, `at_mentioned` and the
//! answer to `getCurrentSelection`.

use crate::protocols::selection_changed::{self, to_value, SelectionChanged};
use crate::review::selection::{Mention, Span};
use serde::Serialize;
use serde_json::Value;

/// How a connection counts the lines Redline sends it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Lines {
    /// Claude Code's own: the first line is 0.
    #[default]
    ZeroBased,
    /// opencode reads Claude Code's messages but shows their numbers as they come, as an
    /// editor's (`#2-4`, `@a.txt#2-4`), and reads a mentioned file from that line.
    OneBased,
}

impl Lines {
    /// The count a client uses, by the `clientInfo.name` it gave in `initialize`.
    pub fn of_client(name: &str) -> Lines {
        match name {
            "opencode" => Lines::OneBased,
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

/// The `selection_changed` params, lines counted as `lines`.
pub fn selection_changed(span: &Span, lines: Lines) -> Value {
    to_value(counted(SelectionChanged::of(span), lines))
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
        };
        let answer = current_selection(Some(&span));
        assert_eq!(
            (&answer["success"], &answer["selection"]["isEmpty"]),
            (&json!(true), &json!(true))
        );
        assert_eq!(answer["fileUrl"], "file:///ws/a.txt");
    }
}
