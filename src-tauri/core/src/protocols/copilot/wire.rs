//! Copilot CLI's messages built from domain values: `selection_changed`, `add_selection` and the
//! answer to `get_selection` (specs/copilot-cli-ide-protocol.md, section 4).

use crate::protocols::selection_changed::{Point, SelectionChanged};
use crate::review::selection::{Mention, Span};
use serde::Serialize;
use serde_json::Value;

/// The `selection_changed` params: Claude Code's shape, which Copilot CLI reads as it is.
pub fn selection_changed(span: &Span) -> Value {
    to_value(SelectionChanged::of(span))
}

/// The `add_selection` params for lines the user pointed at, their text left for the CLI to
/// read. It names the range by its start and end lines (`@a.txt:2-4`), so the end is on the last
/// line, not past it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AddSelection {
    file_path: String,
    file_url: String,
    selection: Lines,
    selected_text: Option<String>,
}

#[derive(Debug, Serialize)]
struct Lines {
    start: Point,
    end: Point,
}

pub fn add_selection(mention: &Mention) -> Value {
    let line = |line| Point { line, character: 0 };
    to_value(AddSelection {
        file_path: mention.path.to_string_lossy().into_owned(),
        file_url: crate::platform::file_uri::of(&mention.path),
        selection: Lines {
            start: line(mention.start),
            end: line(mention.end),
        },
        selected_text: None,
    })
}

/// `get_selection`'s answer: the `selection_changed` params and `success`, or why there is none.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum GetSelection {
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

pub fn get_selection(span: Option<&Span>) -> Value {
    to_value(match span {
        Some(span) => GetSelection::Some {
            success: true,
            selection: SelectionChanged::of(span),
        },
        None => GetSelection::None {
            success: false,
            message: "Nothing is selected in Redline",
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

    #[test]
    fn add_selection_names_whole_lines_and_leaves_the_text_to_the_cli() {
        let m = Mention {
            path: "/ws/a b.txt".into(),
            start: 1,
            end: 3,
        };
        assert_eq!(
            add_selection(&m),
            json!({
                "filePath": "/ws/a b.txt",
                "fileUrl": "file:///ws/a%20b.txt",
                "selection": {
                    "start": {"line": 1, "character": 0},
                    "end": {"line": 3, "character": 0},
                },
                "selectedText": null,
            })
        );
    }

    #[test]
    fn selection_changed_and_get_selection_as_copilot_cli_reads_them() {
        let span = Span {
            path: "/ws/a.txt".into(),
            selection: Selection {
                start_line: 0,
                start_character: 0,
                end_line: 1,
                end_character: 0,
            },
            text: "one\n".into(),
        };
        let params = json!({
            "text": "one\n",
            "filePath": "/ws/a.txt",
            "fileUrl": "file:///ws/a.txt",
            "selection": {
                "start": {"line": 0, "character": 0},
                "end": {"line": 1, "character": 0},
                "isEmpty": false,
            },
        });
        assert_eq!(selection_changed(&span), params);
        let mut answer = params;
        answer["success"] = json!(true);
        assert_eq!(get_selection(Some(&span)), answer);
        assert_eq!(
            get_selection(None),
            json!({"success": false, "message": "Nothing is selected in Redline"})
        );
    }
}
