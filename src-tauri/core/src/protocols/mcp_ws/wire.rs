//! Claude Code's messages built from domain values: `selection_changed`, `at_mentioned` and the
//! answer to `getCurrentSelection`.

use crate::protocols::selection_changed::SelectionChanged;
use crate::review::selection::{Mention, Span};
use serde::Serialize;
use serde_json::Value;

/// The `selection_changed` params.
pub fn selection_changed(span: &Span) -> Value {
    to_value(SelectionChanged::of(span))
}

/// The `at_mentioned` params: 0-based lines, both included.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AtMentioned {
    file_path: String,
    line_start: u32,
    line_end: u32,
}

pub fn at_mentioned(mention: &Mention) -> Value {
    to_value(AtMentioned {
        file_path: mention.path.to_string_lossy().into_owned(),
        line_start: mention.start,
        line_end: mention.end,
    })
}

/// `getCurrentSelection`'s answer: the `selection_changed` params and `success`, or why there is
/// none.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum CurrentSelection {
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

pub fn current_selection(span: Option<&Span>) -> Value {
    to_value(match span {
        Some(span) => CurrentSelection::Some {
            success: true,
            selection: SelectionChanged::of(span),
        },
        None => CurrentSelection::None {
            success: false,
            message: "No active editor found",
        },
    })
}

fn to_value(v: impl Serialize) -> Value {
    // Plain structs of strings and numbers: serializing cannot fail.
    serde_json::to_value(v).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::selection::Selection;
    use serde_json::json;

    fn span() -> Span {
        Span {
            path: "/ws/a.txt".into(),
            selection: Selection {
                start_line: 0,
                start_character: 1,
                end_line: 0,
                end_character: 1,
            },
            text: String::new(),
        }
    }

    #[test]
    fn selection_changed_and_at_mentioned_as_claude_code_reads_them() {
        assert_eq!(
            selection_changed(&span()),
            json!({
                "text": "",
                "filePath": "/ws/a.txt",
                "fileUrl": "file:///ws/a.txt",
                "selection": {
                    "start": {"line": 0, "character": 1},
                    "end": {"line": 0, "character": 1},
                    "isEmpty": true,
                },
            })
        );
        let m = Mention {
            path: "/ws/a.txt".into(),
            start: 2,
            end: 4,
        };
        assert_eq!(
            at_mentioned(&m),
            json!({"filePath": "/ws/a.txt", "lineStart": 2, "lineEnd": 4})
        );
    }

    #[test]
    fn get_current_selection_answers_the_selection_with_success_or_none() {
        let mut with = selection_changed(&span());
        with["success"] = json!(true);
        assert_eq!(current_selection(Some(&span())), with);
        assert_eq!(
            current_selection(None),
            json!({"success": false, "message": "No active editor found"})
        );
    }
}
