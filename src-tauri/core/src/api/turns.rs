//! A workspace's turns as `redline turns` shows them: each turn's CLI, session, times and the
//! files it changed, and what an undo did.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One turn of a CLI in a workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnSummary {
    /// The workspace's own numbering: given in order, never reused.
    pub id: u64,
    pub cli: String,
    pub session: String,
    /// Milliseconds since the Unix epoch.
    pub started: u64,
    pub ended: Option<u64>,
    pub state: TurnState,
    /// What the turn changed, at its end (none while it runs): at most the first 10,000.
    pub files: Vec<TurnFile>,
    /// How many more files the turn changed than `files` lists (past its bound).
    pub unlisted: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TurnState {
    /// Begun and not yet ended: its change is not known.
    Running,
    Ended,
}

/// One file a turn changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnFile {
    /// Relative to the workspace, where the turn left it (where it was, when deleted).
    #[serde(serialize_with = "lossy")]
    pub path: PathBuf,
    /// Where a renamed file was.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "lossy_some"
    )]
    pub from: Option<PathBuf>,
    pub status: FileStatus,
    /// Binary on either side: no lines counted.
    pub binary: bool,
    /// Larger than undo reads (32 MiB): listed, never read whole, not undone.
    pub too_large: bool,
    pub added: u64,
    pub removed: u64,
}

/// A path as JSON text: a name with bytes that are not UTF-8 (which serde would refuse, failing
/// the whole list) has each such byte shown as U+FFFD.
fn lossy<S: serde::Serializer>(path: &std::path::Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// `lossy`, for a path that is there (`skip_serializing_if` leaves out `None`).
fn lossy_some<S: serde::Serializer>(path: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
    match path {
        Some(p) => lossy(p, s),
        None => s.serialize_none(),
    }
}

/// `lossy`, for each of `paths`.
fn lossy_all<S: serde::Serializer>(paths: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(paths.iter().map(|p| p.to_string_lossy()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FileStatus {
    Added,
    Deleted,
    Modified,
    Renamed,
    TypeChanged,
}

impl FileStatus {
    /// Git's one letter for it.
    pub fn letter(self) -> char {
        match self {
            FileStatus::Added => 'A',
            FileStatus::Deleted => 'D',
            FileStatus::Modified => 'M',
            FileStatus::Renamed => 'R',
            FileStatus::TypeChanged => 'T',
        }
    }
}

/// What `redline turns undo` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "undo",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TurnUndone {
    /// These files (relative to the workspace) were written or removed.
    Done {
        #[serde(serialize_with = "lossy_all")]
        files: Vec<PathBuf>,
    },
    /// Nothing was written: a file is no longer what the turn left (`why` names it).
    Refused { why: String },
}

/// A checkpoint taken on demand: its commit in the workspace's store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpointed {
    pub workspace: PathBuf,
    pub commit: String,
}
