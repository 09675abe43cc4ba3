//! Copilot CLI's messages built from domain values: `selection_changed`, `add_selection` and the
//! answer to `get_selection` (specs/copilot-cli-ide-protocol.md, section 4).

use crate::protocols::selection_changed::{self, to_value, Point};
use crate::review::selection::{Mention, Span};
use serde::Serialize;
use serde_json::Value;

/// The `selection_changed` params: Claude Code's shape, which Copilot CLI reads as it is.
pub fn selection_changed(span: &Span) -> Value {
    selection_changed::params(span)
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

/// `get_selection`'s answer.
pub fn get_selection(span: Option<&Span>) -> Value {
    selection_changed::answer(span, "Nothing is selected in Redline")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn add_selection_names_whole_lines_and_get_selection_says_when_there_is_none() {
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
        assert_eq!(
            get_selection(None),
            json!({"success": false, "message": "Nothing is selected in Redline"})
        );
    }
}
