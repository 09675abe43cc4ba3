//! The workspace's context: the files the user is looking at, in the order and within the limits
//! the CLIs that follow a context keep, and whether the user trusts the workspace.

use crate::review::editor::{MAX_FILES, MAX_SELECTION_CHARS};
use std::path::PathBuf;
use std::time::Duration;

/// Changes closer together than this are sent once.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextFile {
    pub path: PathBuf,
    /// When the user last looked at it, ms since the epoch.
    pub timestamp: u64,
    /// 1-based line and character.
    pub cursor: Option<(u32, u32)>,
    pub selected_text: Option<String>,
    /// The file the editor shows: it leads whatever its timestamp.
    pub active: bool,
}

/// What the CLIs that follow a context are told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// Files that exist on disk, the active one first then newest first, at most ten, no path
    /// twice; only the first is active and only it has a cursor and a selection (cut at
    /// `MAX_SELECTION_CHARS`).
    pub files: Vec<ContextFile>,
    /// Only when the user set it: a CLI told it asks for a restart.
    pub trusted: Option<bool>,
}

impl Context {
    /// Orders and bounds `files`: the editor's active file, else the newest, is the active one.
    pub fn new(files: impl IntoIterator<Item = ContextFile>, trusted: Option<bool>) -> Context {
        let mut files: Vec<ContextFile> = files.into_iter().filter(|f| f.path.is_file()).collect();
        files.sort_by_key(|f| std::cmp::Reverse((f.active, f.timestamp)));
        // The CLIs treat the newest as active: the active file must be strictly the newest.
        let newest_other = files.iter().skip(1).map(|f| f.timestamp).max();
        if let Some(f) = files.first_mut().filter(|f| f.active) {
            if let Some(other) = newest_other.filter(|t| *t >= f.timestamp) {
                f.timestamp = other + 1;
            }
        }
        // The same file under review from two sessions is one open file, at its newest.
        let mut seen = std::collections::HashSet::new();
        files.retain(|f| seen.insert(f.path.clone()));
        files.truncate(MAX_FILES);
        for (i, f) in files.iter_mut().enumerate() {
            f.active = i == 0;
            if i == 0 {
                if let Some(text) = &mut f.selected_text {
                    if let Some((cut, _)) = text.char_indices().nth(MAX_SELECTION_CHARS) {
                        text.truncate(cut);
                    }
                }
            } else {
                f.cursor = None;
                f.selected_text = None;
            }
        }
        Context { files, trusted }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_ten_existing_files_only_newest_active_selection_cut() {
        let tmp = tempfile::tempdir().unwrap();
        let mut files = Vec::new();
        for i in 0..12u64 {
            let p = tmp.path().join(format!("f{i}"));
            std::fs::write(&p, "x").unwrap();
            files.push(ContextFile {
                path: p,
                timestamp: 100 + i,
                cursor: Some((1, 1)),
                selected_text: Some("s".repeat(20_000)),
                active: false,
            });
        }
        files.push(ContextFile {
            path: tmp.path().join("f3"),
            timestamp: 500,
            cursor: Some((1, 1)),
            selected_text: Some("s".repeat(20_000)),
            active: false,
        });
        files.push(ContextFile {
            path: tmp.path().join("missing"),
            timestamp: 999,
            cursor: None,
            selected_text: None,
            active: false,
        });
        let c = Context::new(files, None);
        let open = &c.files;
        assert_eq!(open.len(), 10);
        let paths: std::collections::HashSet<_> = open.iter().map(|f| &f.path).collect();
        assert_eq!(paths.len(), 10, "no file twice");
        // f3 was looked at again last: it leads, once, and f11 follows.
        assert!(open[0].path.ends_with("f3"));
        assert!(open[1].path.ends_with("f11"));
        assert!(open[0].active);
        assert_eq!(open[0].selected_text.as_ref().unwrap().len(), 16 * 1024);
        assert_eq!(open[0].cursor, Some((1, 1)));
        assert!(!open[1].active);
        assert!(open[1].selected_text.is_none());
        assert!(open[1].cursor.is_none());
        assert_eq!(c.trusted, None);
        assert_eq!(Context::new([], Some(true)).trusted, Some(true));
    }

    #[test]
    fn the_editors_active_file_leads_with_the_newest_timestamp() {
        let tmp = tempfile::tempdir().unwrap();
        let file = |name: &str, timestamp, active| {
            let path = tmp.path().join(name);
            std::fs::write(&path, "x").unwrap();
            ContextFile {
                path,
                timestamp,
                cursor: Some((2, 3)),
                selected_text: Some("sel".into()),
                active,
            }
        };
        let c = Context::new(
            [file("review", 900, false), file("editor", 100, true)],
            None,
        );
        let open = &c.files;
        assert!(open[0].path.ends_with("editor"));
        assert_eq!(open[0].timestamp, 901);
        assert!(open[0].active);
        assert_eq!(open[0].cursor, Some((2, 3)));
        assert_eq!(open[0].selected_text.as_deref(), Some("sel"));
        assert!(!open[1].active);
    }
}
