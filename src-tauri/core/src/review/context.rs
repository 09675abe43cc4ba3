//! The `ide/contextUpdate` payload: the files the user is looking at, shaped as the CLIs read it.

use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::time::Duration;

/// Changes closer together than this are sent once.
pub const DEBOUNCE: Duration = Duration::from_millis(50);
use crate::review::editor::{MAX_FILES, MAX_SELECTION_CHARS};

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

/// Builds the `IdeContext`: files that exist on disk, the editor's active file then newest first,
/// at most ten, only the first active with its cursor and selection; `isTrusted` only when the
/// user set it.
pub fn ide_context(files: impl IntoIterator<Item = ContextFile>, trusted: Option<bool>) -> Value {
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
    let open: Vec<Value> = files
        .into_iter()
        .take(MAX_FILES)
        .enumerate()
        .map(|(i, f)| {
            let mut o = Map::new();
            o.insert("path".into(), json!(f.path.to_string_lossy()));
            o.insert("timestamp".into(), json!(f.timestamp));
            if i == 0 {
                o.insert("isActive".into(), json!(true));
                if let Some((line, character)) = f.cursor {
                    o.insert(
                        "cursor".into(),
                        json!({"line": line, "character": character}),
                    );
                }
                if let Some(text) = f.selected_text {
                    let cut: String = text.chars().take(MAX_SELECTION_CHARS).collect();
                    o.insert("selectedText".into(), json!(cut));
                }
            }
            Value::Object(o)
        })
        .collect();
    let mut state = Map::new();
    state.insert("openFiles".into(), Value::Array(open));
    if let Some(t) = trusted {
        state.insert("isTrusted".into(), json!(t));
    }
    json!({ "workspaceState": state })
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
        let v = ide_context(files, None);
        let open = v["workspaceState"]["openFiles"].as_array().unwrap();
        assert_eq!(open.len(), 10);
        let paths: std::collections::HashSet<_> =
            open.iter().map(|f| f["path"].as_str().unwrap()).collect();
        assert_eq!(paths.len(), 10, "no file twice");
        // f3 was looked at again last: it leads, once, and f11 follows.
        assert!(open[0]["path"].as_str().unwrap().ends_with("f3"));
        assert!(open[1]["path"].as_str().unwrap().ends_with("f11"));
        assert_eq!(open[0]["isActive"], true);
        assert_eq!(open[0]["selectedText"].as_str().unwrap().len(), 16 * 1024);
        assert_eq!(open[0]["cursor"], json!({"line": 1, "character": 1}));
        assert!(open[1].get("isActive").is_none());
        assert!(open[1].get("selectedText").is_none());
        assert!(open[1].get("cursor").is_none());
        assert!(v["workspaceState"].get("isTrusted").is_none());
        assert_eq!(
            ide_context([], Some(true))["workspaceState"]["isTrusted"],
            true
        );
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
        let v = ide_context(
            [file("review", 900, false), file("editor", 100, true)],
            None,
        );
        let open = v["workspaceState"]["openFiles"].as_array().unwrap();
        assert!(open[0]["path"].as_str().unwrap().ends_with("editor"));
        assert_eq!(open[0]["timestamp"], 901);
        assert_eq!(open[0]["isActive"], true);
        assert_eq!(open[0]["cursor"], json!({"line": 2, "character": 3}));
        assert_eq!(open[0]["selectedText"], "sel");
        assert!(open[1].get("isActive").is_none());
    }
}
