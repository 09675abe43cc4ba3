//! The `selection_changed` params, which Claude Code and Copilot CLI both read (Copilot CLI's
//! companion protocol took Claude Code's shape): one shape for the two adapters that send it.

use crate::review::selection::Span;
use serde::Serialize;
use serde_json::Value;

/// A selection as the CLIs read it: 0-based lines and characters, with its text and file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectionChanged {
    pub text: String,
    /// The path exactly as the CLI sent it, for a review's selection.
    pub file_path: String,
    pub file_url: String,
    pub selection: Extent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Extent {
    pub start: Point,
    pub end: Point,
    pub is_empty: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Point {
    pub line: u32,
    pub character: u32,
}

impl SelectionChanged {
    pub fn of(span: &Span) -> SelectionChanged {
        let s = span.selection;
        SelectionChanged {
            text: span.text.clone(),
            file_path: span.path.to_string_lossy().into_owned(),
            file_url: crate::platform::file_uri::of(&span.path),
            selection: Extent {
                start: Point {
                    line: s.start_line,
                    character: s.start_character,
                },
                end: Point {
                    line: s.end_line,
                    character: s.end_character,
                },
                is_empty: s.is_empty(),
            },
        }
    }
}

/// The `selection_changed` params.
pub fn params(span: &Span) -> Value {
    to_value(SelectionChanged::of(span))
}

/// The answer to a CLI asking for the selection (Claude Code's `getCurrentSelection`, Copilot
/// CLI's `get_selection`): the `selection_changed` params and `success`, or `none` saying why
/// there is none.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Answer {
    Some {
        success: bool,
        #[serde(flatten)]
        selection: SelectionChanged,
    },
    None {
        success: bool,
        message: &'static str,
    },
}

pub fn answer(span: Option<&Span>, none: &'static str) -> Value {
    to_value(match span {
        Some(span) => Answer::Some {
            success: true,
            selection: SelectionChanged::of(span),
        },
        None => Answer::None {
            success: false,
            message: none,
        },
    })
}

/// Plain structs of strings, numbers and booleans: serializing them cannot fail.
pub fn to_value(v: impl Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::selection::Selection;
    use serde_json::json;

    #[test]
    fn a_span_as_claude_code_and_copilot_cli_read_it() {
        let span = Span {
            path: "/a b/c.txt".into(),
            selection: Selection {
                start_line: 1,
                start_character: 2,
                end_line: 3,
                end_character: 0,
            },
            text: "llo\n".into(),
            ranges: Vec::new(),
        };
        let params = json!({
                "text": "llo\n",
                "filePath": "/a b/c.txt",
                "fileUrl": "file:///a%20b/c.txt",
                "selection": {
                    "start": {"line": 1, "character": 2},
                    "end": {"line": 3, "character": 0},
                    "isEmpty": false,
                },
        });
        assert_eq!(super::params(&span), params);
        let mut with = params;
        with["success"] = json!(true);
        assert_eq!(answer(Some(&span), "none"), with);
        assert_eq!(
            answer(None, "none"),
            json!({"success": false, "message": "none"})
        );
    }
}
