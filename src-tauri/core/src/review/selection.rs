//! What the user selected in the review window or in their editor, shaped as Claude Code reads a
//! selection (`selection_changed`, `getCurrentSelection`) and a mention (`at_mentioned`).

use crate::review::Review;
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;
use ts_rs::TS;

/// Selection changes closer together than this go out once, the latest.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// A range of a review's current text: 0-based lines and characters, as Claude Code counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    pub start_line: u32,
    pub start_character: u32,
    pub end_line: u32,
    pub end_character: u32,
}

impl Selection {
    /// Start before end, whichever way the user dragged.
    pub fn ordered(self) -> Selection {
        if (self.end_line, self.end_character) < (self.start_line, self.start_character) {
            Selection {
                start_line: self.end_line,
                start_character: self.end_character,
                end_line: self.start_line,
                end_character: self.start_character,
            }
        } else {
            self
        }
    }

    /// The selected text of the review's current text (characters, not bytes).
    pub fn text(&self, current: &str) -> String {
        let mut out = String::new();
        for (i, line) in current.split_inclusive('\n').enumerate() {
            let i = i as u32;
            if i < self.start_line || i > self.end_line {
                continue;
            }
            let from = if i == self.start_line {
                self.start_character as usize
            } else {
                0
            };
            let chars = line.chars().skip(from);
            if i == self.end_line {
                let take = (self.end_character as usize).saturating_sub(if i == self.start_line {
                    from
                } else {
                    0
                });
                out.extend(chars.take(take));
            } else {
                out.extend(chars);
            }
        }
        out
    }

    /// The `selection_changed` params (and `getCurrentSelection`'s answer, less `success`).
    pub fn params(&self, review: &Review) -> Value {
        let s = self.ordered();
        let empty = (s.start_line, s.start_character) == (s.end_line, s.end_character);
        json!({
            "text": s.text(&review.current),
            "filePath": review.file_path,
            "fileUrl": file_url(&review.file_path),
            "selection": {
                "start": {"line": s.start_line, "character": s.start_character},
                "end": {"line": s.end_line, "character": s.end_character},
                "isEmpty": empty,
            },
        })
    }
}

/// The `selection_changed` params for a selection in the user's editor.
pub fn of_span(span: &crate::review::editor::Span) -> Value {
    let s = span.selection;
    let path = span.path.to_string_lossy();
    json!({
        "text": span.text,
        "filePath": path,
        "fileUrl": file_url(&path),
        "selection": {
            "start": {"line": s.start_line, "character": s.start_character},
            "end": {"line": s.end_line, "character": s.end_character},
            "isEmpty": (s.start_line, s.start_character) == (s.end_line, s.end_character),
        },
    })
}

/// The `at_mentioned` params for lines the user pointed at in their editor.
pub fn of_mention(m: &crate::review::editor::Mention) -> Value {
    json!({"filePath": m.path.to_string_lossy(), "lineStart": m.start, "lineEnd": m.end})
}

/// Copilot CLI's `add_selection` params for lines the user pointed at, their text left for the
/// CLI to read. It names the range by its start and end lines (`@a.txt:2-4`), so the end is on
/// the last line, not past it.
pub fn of_mention_range(m: &crate::review::editor::Mention) -> Value {
    let path = m.path.to_string_lossy();
    json!({
        "filePath": path,
        "fileUrl": file_url(&path),
        "selection": {
            "start": {"line": m.start, "character": 0},
            "end": {"line": m.end, "character": 0},
        },
        "selectedText": null,
    })
}

/// The `at_mentioned` params for lines `a..=b` (0-based) of a review.
pub fn mention(review: &Review, a: u32, b: u32) -> Value {
    json!({"filePath": review.file_path, "lineStart": a.min(b), "lineEnd": a.max(b)})
}

pub fn file_url(path: &str) -> String {
    crate::platform::file_uri::of(std::path::Path::new(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_of_a_range_in_characters_and_either_direction() {
        let s = Selection {
            start_line: 2,
            start_character: 1,
            end_line: 0,
            end_character: 2,
        }
        .ordered();
        assert_eq!((s.start_line, s.start_character), (0, 2));
        assert_eq!(s.text("héllo\nwörld\nabc\n"), "llo\nwörld\na");
        let one = Selection {
            start_line: 1,
            start_character: 1,
            end_line: 1,
            end_character: 3,
        };
        assert_eq!(one.text("x\nwörld\n"), "ör");
        assert_eq!(file_url("/a b/c"), "file:///a%20b/c");
    }
}
