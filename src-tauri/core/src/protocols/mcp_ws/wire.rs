//! Claude Code's messages built from domain values: `selection_changed`, `at_mentioned` and the
//! answer to `getCurrentSelection`.

use crate::protocols::selection_changed::{self, to_value};
use crate::review::selection::{Mention, Span};
use serde::Serialize;
use serde_json::Value;

/// The `selection_changed` params.
pub fn selection_changed(span: &Span) -> Value {
    selection_changed::params(span)
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

/// `getCurrentSelection`'s answer.
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
            at_mentioned(&m),
            json!({"filePath": "/ws/a.txt", "lineStart": 2, "lineEnd": 4})
        );
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
