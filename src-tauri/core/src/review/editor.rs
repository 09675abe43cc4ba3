//! What an editor tells Redline (open files, active file, cursor, selection, mentions), parsed
//! from one JSON line and bounded before anything else sees it. The wire format is docs/editors.md.

use crate::error::{BadEditorMessage, Error, Result};
use crate::review::selection::{Region, Selection, Span};
use crate::workspace::WorkspaceError;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The longest line an editor may send; longer ones are refused (the channel stays up).
pub const MAX_LINE: usize = 256 * 1024;
/// The CLIs keep ten files; more only cost bytes.
pub const MAX_FILES: usize = 10;
/// The CLIs cut `selectedText` here (the Gemini companion spec's 16 KiB), in characters.
pub const MAX_SELECTION_CHARS: usize = 16 * 1024;
/// The most ranges one selection keeps (a block over more lines is cut, not grown); their
/// texts together are cut at `MAX_SELECTION_CHARS`, as one selection's is.
pub const MAX_RANGES: usize = 64;

/// A position as editors show it: 1-based line and 1-based column in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub line: u32,
    pub col: u32,
}

/// A selection: `end` is the position just past the last selected character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    pub start: Position,
    pub end: Position,
    #[serde(default)]
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenFile {
    pub path: PathBuf,
    #[serde(default)]
    pub active: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<Position>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<Range>,
    /// Several ranges selected at once (a block's lines, several cursors), in the editor's
    /// order; `selection` is still the one a CLI reading one range is told (the first range
    /// when the editor sent none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<Range>,
}

/// One line from an editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Message {
    /// The editor's whole state now: open files, most recently used first.
    Context {
        files: Vec<OpenFile>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// The user points the CLIs at lines `start..=end` (1-based) of `path`.
    Mention {
        path: PathBuf,
        start: u32,
        end: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Show the pending reviews.
    Review {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Reject the pending review of `path`, telling its CLI `reason` where it can hear one.
    Reject {
        path: PathBuf,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
}

impl Message {
    pub fn id(&self) -> Option<u64> {
        match self {
            Message::Context { id, .. }
            | Message::Mention { id, .. }
            | Message::Review { id }
            | Message::Reject { id, .. } => *id,
        }
    }

    /// Parses one line, refusing what no editor sends and bounding what one may.
    pub fn parse(line: &str) -> Result<Message> {
        let mut m: Message = serde_json::from_str(line)
            .map_err(|e| Error::EditorMessage(BadEditorMessage::Unreadable(e)))?;
        m.check()?;
        Ok(m)
    }

    /// Refuses what no editor sends and bounds what one may; parsing does it, and whoever
    /// received a message some other way (a control request) must.
    pub fn check(&mut self) -> Result<()> {
        match self {
            Message::Context { files, .. } => {
                if files.iter().filter(|f| f.active).count() > 1 {
                    return Err(Error::EditorMessage(BadEditorMessage::TwoActive));
                }
                // The active file is kept whatever its place; then the most recent others.
                if let Some(i) = files.iter().position(|f| f.active) {
                    let active = files.remove(i);
                    files.insert(0, active);
                }
                files.truncate(MAX_FILES);
                for f in files.iter_mut() {
                    absolute(&f.path)?;
                    if !f.active {
                        // Only the active file's cursor and selection reach a CLI.
                        f.cursor = None;
                        f.selection = None;
                        f.ranges.clear();
                    }
                    if let Some(c) = f.cursor {
                        position(c)?;
                    }
                    if let Some(s) = &mut f.selection {
                        position(s.start)?;
                        position(s.end)?;
                        cut(&mut s.text, MAX_SELECTION_CHARS);
                    }
                    bound_ranges(&mut f.ranges)?;
                    if f.selection.is_none() {
                        f.selection = f.ranges.first().cloned();
                    }
                }
                Ok(())
            }
            Message::Mention {
                path, start, end, ..
            } => {
                absolute(path)?;
                if *start == 0 || *end == 0 {
                    return Err(Error::EditorMessage(BadEditorMessage::LineZero));
                }
                if end < start {
                    std::mem::swap(start, end);
                }
                Ok(())
            }
            Message::Review { .. } => Ok(()),
            // The reason is cleaned and bounded where every rejection's is (`review::reason`).
            Message::Reject { path, .. } => absolute(path),
        }
    }
}

fn absolute(path: &std::path::Path) -> Result<()> {
    if path.is_absolute() {
        Ok(())
    } else {
        Err(WorkspaceError::RelativePath(path.to_string_lossy().into_owned()).into())
    }
}

/// Cuts `text` to its first `max` characters; returns how many it keeps.
fn cut(text: &mut String, max: usize) -> usize {
    match text.char_indices().nth(max) {
        Some((at, _)) => {
            text.truncate(at);
            max
        }
        None => text.chars().count(),
    }
}

/// Keeps the first `MAX_RANGES` ranges and, of their texts, the first `MAX_SELECTION_CHARS`
/// characters together: a range whose text no longer fits at all goes with those after it.
fn bound_ranges(ranges: &mut Vec<Range>) -> Result<()> {
    ranges.truncate(MAX_RANGES);
    let mut left = MAX_SELECTION_CHARS;
    let mut keep = ranges.len();
    for (i, r) in ranges.iter_mut().enumerate() {
        position(r.start)?;
        position(r.end)?;
        if left == 0 && !r.text.is_empty() {
            keep = i;
            break;
        }
        left -= cut(&mut r.text, left);
    }
    ranges.truncate(keep);
    Ok(())
}

fn position(p: Position) -> Result<()> {
    if p.line == 0 || p.col == 0 {
        return Err(Error::EditorMessage(BadEditorMessage::PositionZero));
    }
    Ok(())
}

/// One workspace's view of the editor: its files there, the active one first if it is there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorState {
    pub files: Vec<OpenFile>,
    /// When the editor sent it, ms since the epoch.
    pub at: u64,
}

impl EditorState {
    pub fn active(&self) -> Option<&OpenFile> {
        self.files.first().filter(|f| f.active)
    }

    /// The active file's selection, or the empty one at its cursor.
    pub fn span(&self) -> Option<Span> {
        let f = self.active()?;
        let (start, end, text) = match (&f.selection, f.cursor) {
            (Some(s), _) => (s.start, s.end, s.text.clone()),
            (None, Some(c)) => (c, c, String::new()),
            (None, None) => return None,
        };
        let ranges = match &f.selection {
            Some(_) => f.ranges.iter().map(Range::region).collect(),
            None => Vec::new(),
        };
        Some(Span {
            path: f.path.clone(),
            selection: zero_based(start, end),
            text,
            ranges,
        })
    }
}

impl Range {
    /// This range, 0-based and in order, with its text.
    fn region(&self) -> Region {
        Region {
            selection: zero_based(self.start, self.end),
            text: self.text.clone(),
        }
    }
}

/// Editor positions (1-based, checked) as a selection in order.
fn zero_based(start: Position, end: Position) -> Selection {
    Selection {
        start_line: start.line.saturating_sub(1),
        start_character: start.col.saturating_sub(1),
        end_line: end.line.saturating_sub(1),
        end_character: end.col.saturating_sub(1),
    }
    .ordered()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An absolute path on any OS.
    fn abs(name: &str) -> PathBuf {
        std::env::temp_dir().join(name)
    }

    #[test]
    fn bounds_what_an_editor_sends() {
        let big = "é".repeat(MAX_SELECTION_CHARS + 10);
        let mut files: Vec<serde_json::Value> = (0..14)
            .map(|i| serde_json::json!({"path": abs(&format!("f{i}")), "cursor": {"line": 1, "col": 1}}))
            .collect();
        files.push(serde_json::json!({"path": abs("a"), "active": true,
            "cursor": {"line": 3, "col": 2},
            "selection": {"start": {"line": 1, "col": 1}, "end": {"line": 3, "col": 2}, "text": big}}));
        let line = serde_json::json!({"type": "context", "files": files}).to_string();
        let Message::Context { files, .. } = Message::parse(&line).unwrap() else {
            panic!("not a context")
        };
        assert_eq!(files.len(), MAX_FILES);
        assert_eq!(files[0].path, abs("a"));
        assert_eq!(
            files[0].selection.as_ref().unwrap().text.chars().count(),
            MAX_SELECTION_CHARS
        );
        assert!(files[1].cursor.is_none(), "only the active file's cursor");
        let state = EditorState { files, at: 1 };
        let span = state.span().unwrap();
        assert_eq!((span.selection.start_line, span.selection.end_line), (0, 2));

        let (a, b) = (abs("a"), abs("b"));
        for bad in [
            serde_json::json!("not json"),
            serde_json::json!({"type": "context", "files": [{"path": "rel/a"}]}),
            serde_json::json!({"type": "context", "files": [
                {"path": a, "active": true}, {"path": b, "active": true}]}),
            serde_json::json!({"type": "mention", "path": a, "start": 0, "end": 2}),
            serde_json::json!({"type": "context", "files": [
                {"path": a, "active": true, "cursor": {"line": 0, "col": 1}}]}),
            serde_json::json!({"type": "launch"}),
        ] {
            let line = bad.as_str().map_or_else(|| bad.to_string(), str::to_owned);
            assert!(Message::parse(&line).is_err(), "{line}");
        }
        // Ranges: 1-based like the rest, and only the active file's.
        let range = |l: u32| serde_json::json!({"start": {"line": l, "col": 1}, "end": {"line": l, "col": 2}, "text": "x"});
        let zero = serde_json::json!({"type": "context", "files": [{"path": a, "active": true,
            "ranges": [range(1), {"start": {"line": 0, "col": 1}, "end": {"line": 1, "col": 1}}]}]});
        assert!(Message::parse(&zero.to_string()).is_err());
        let two = serde_json::json!({"type": "context", "files": [
            {"path": a, "active": true, "ranges": [range(3), range(1)]},
            {"path": b, "ranges": [range(1)]}]});
        let Message::Context { files, .. } = Message::parse(&two.to_string()).unwrap() else {
            panic!("not a context")
        };
        assert!(files[1].ranges.is_empty(), "only the active file's ranges");
        let span = EditorState { files, at: 1 }.span().unwrap();
        assert_eq!(
            span.selection.start_line, 2,
            "no selection sent: the first range leads"
        );
        let lines: Vec<u32> = span
            .regions()
            .iter()
            .map(|r| r.selection.start_line)
            .collect();
        assert_eq!(lines, [2, 0], "in the editor's order");

        let mention =
            serde_json::json!({"type": "mention", "path": a, "start": 9, "end": 2, "id": 4});
        assert_eq!(
            Message::parse(&mention.to_string()).unwrap(),
            Message::Mention {
                path: a,
                start: 2,
                end: 9,
                id: Some(4)
            }
        );
    }
}
