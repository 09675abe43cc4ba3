//! What the user selected or pointed at, in the review window or in their editor: a selection,
//! a span (a selection with its file and text) and a mention, as each adapter's wire shapes them.

use crate::review::pending::Review;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;
use ts_rs::TS;

/// Selection changes closer together than this go out once, the latest.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// A range of a text: 0-based lines and characters (characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
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

    /// Whether it is a cursor, selecting nothing.
    pub fn is_empty(&self) -> bool {
        (self.start_line, self.start_character) == (self.end_line, self.end_character)
    }

    /// This selection of review `review`'s current text, in order, with its text; its path is
    /// the file's exactly as the CLI sent it, which notifications must echo.
    pub fn of_review(self, review: &Review) -> Span {
        let selection = self.ordered();
        Span {
            path: PathBuf::from(&review.file_path),
            text: selection.text(&review.current),
            selection,
            ranges: Vec::new(),
        }
    }
}

/// A selection in a file (0-based lines and characters), with its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub path: PathBuf,
    /// The primary selection: the one range a CLI that reads one is told.
    pub selection: Selection,
    pub text: String,
    /// Every range, in the editor's order, when the editor selected several at once (a
    /// block's lines, several cursors); empty when it selected one, the primary.
    pub ranges: Vec<Region>,
}

/// One of several ranges selected at once in a span's file, with its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub selection: Selection,
    pub text: String,
}

impl Span {
    /// Every range selected, at least one: the editor's several, or the primary alone.
    pub fn regions(&self) -> Vec<Region> {
        if self.ranges.is_empty() {
            vec![Region {
                selection: self.selection,
                text: self.text.clone(),
            }]
        } else {
            self.ranges.clone()
        }
    }
}

/// Lines `start..=end` (0-based) of a file the user pointed at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub path: PathBuf,
    pub start: u32,
    pub end: u32,
}

impl Mention {
    /// Lines `a..=b` (0-based, either order) of review `review`, its path as the CLI sent it.
    pub fn of_review(review: &Review, a: u32, b: u32) -> Mention {
        Mention {
            path: PathBuf::from(&review.file_path),
            start: a.min(b),
            end: a.max(b),
        }
    }
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
        assert!(!one.is_empty());
    }
}
