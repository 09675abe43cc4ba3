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
    /// What the turn changed, at its end (none while it runs).
    pub files: Vec<TurnFile>,
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
    pub path: PathBuf,
    /// Where a renamed file was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<PathBuf>,
    pub status: FileStatus,
    /// Binary on either side: no lines counted.
    pub binary: bool,
    pub added: u64,
    pub removed: u64,
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
    Done { files: Vec<PathBuf> },
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
