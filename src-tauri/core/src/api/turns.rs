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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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
    /// Larger than undo reads (32 MiB): listed, never read whole, not undone (and not stored:
    /// its checkpoint keeps its size and modification time).
    pub too_large: bool,
    /// What the file is when it is no regular file ("a FIFO", "a socket", "a device"): listed
    /// as it appears or goes, never opened, not undone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub not_a_file: Option<String>,
    #[ts(type = "number")]
    pub added: u64,
    #[ts(type = "number")]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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

/// What `redline turns undo` (and the window's `turnUndo`) did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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
    /// A past turn's undo (the window's Turns view): `files` were written or removed, the
    /// files in `left` were not (each changed since, or cannot be undone: `why`).
    Partly {
        #[serde(serialize_with = "lossy_all")]
        files: Vec<PathBuf>,
        left: Vec<TurnLeft>,
    },
}

impl TurnUndone {
    /// The whole undo refused for `why` (a file's reason, as `TurnLeft` has it for one file).
    pub fn refused(why: &impl std::fmt::Display) -> Self {
        TurnUndone::Refused {
            why: format!("{why}; nothing was undone"),
        }
    }
}

/// A file a past turn's undo left as it is, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnLeft {
    #[serde(serialize_with = "lossy")]
    pub path: PathBuf,
    pub why: String,
}

/// One row of the window's Turns view: a turn kept in a served workspace's history, its
/// files and lines counted (the files themselves are `pastTurnFiles`' to list).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryTurn {
    /// The workspace's root, as its checkpoint store is keyed (the past-turn actions take it).
    pub workspace: PathBuf,
    /// The turn's id in that workspace's history.
    #[ts(type = "number")]
    pub turn: u64,
    pub cli: String,
    pub session: String,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub started: u64,
    #[ts(type = "number | null")]
    pub ended: Option<u64>,
    /// Still running: nothing to show or undo yet.
    pub running: bool,
    /// Files changed (the listed ones and those past the bound).
    #[ts(type = "number")]
    pub files: u64,
    #[ts(type = "number")]
    pub added: u64,
    #[ts(type = "number")]
    pub removed: u64,
}

/// A past turn the window is asked to open (the tray's *Recent turns*): turn `turn` of the
/// workspace `workspace`, as a Turns row names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnAsked {
    pub workspace: PathBuf,
    #[ts(type = "number")]
    pub turn: u64,
}

/// The newest turns of each workspace the Turns view lists: each row is a `git diff` worked
/// out when the view opens, so an older turn is reached by `redline turns list`.
pub const HISTORY_PER_WORKSPACE: usize = 50;

impl HistoryTurn {
    /// `t`'s row, of the workspace `workspace`.
    pub fn of(workspace: PathBuf, t: &TurnSummary) -> HistoryTurn {
        HistoryTurn {
            workspace,
            turn: t.id,
            cli: t.cli.clone(),
            session: t.session.clone(),
            started: t.started,
            ended: t.ended,
            running: t.state == TurnState::Running,
            files: t.files.len() as u64 + t.unlisted,
            added: t.files.iter().map(|f| f.added).sum(),
            removed: t.files.iter().map(|f| f.removed).sum(),
        }
    }
}

/// A checkpoint taken on demand: its commit in the workspace's store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpointed {
    pub workspace: PathBuf,
    pub commit: String,
}

/// The files a turn's review lists (the window's `turnFiles`), as the review shows the turn now
/// (its end, or the workspace after the undos made in the review).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnFiles {
    /// The turn's id in the workspace's history.
    #[ts(type = "number")]
    pub turn: u64,
    pub files: Vec<TurnFile>,
    /// Files past the bound of the list (`MAX_LISTED`): changed, counted, not listed.
    #[ts(type = "number")]
    pub unlisted: u64,
    /// The first file listed, opened as `turnFile` opens it, when Redline opened it ahead (a
    /// whole turn's review's first listing): the window needs not ask for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub first: Option<TurnFileView>,
}

/// The most files a turn's review lists: past it they are counted, and the review says so.
pub const MAX_LISTED: usize = 10_000;

/// One file of a turn's review, opened (the window's `turnFile`): its text at the turn's start
/// and as the review shows it, and its hunks; no text for a binary or too large file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnFileView {
    pub path: PathBuf,
    pub from: Option<PathBuf>,
    /// At the turn's start; `None`: the file was not there (or is not shown).
    pub start: Option<String>,
    /// As the review shows it; `None`: the file is gone (or is not shown).
    pub end: Option<String>,
    /// Each contiguous run of changed lines, as `turnUndo` takes them back.
    pub hunks: Vec<TurnHunk>,
    /// Why no text is shown; `None`: it is.
    pub unshown: Option<Unshown>,
}

/// Why a file of a turn is listed but its text not shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum Unshown {
    Binary,
    /// Larger than Redline reads (`checkpoint::FILE_LIMIT`): undo it whole.
    TooLarge,
    /// No regular file (a FIFO, a socket, a device): never opened, not undone.
    NotAFile,
}

/// What of a turn the window's `turnUndo` takes back: a file whole (`hunks` absent) or some of
/// its hunks (as `turnFile` gave them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnPick {
    pub path: PathBuf,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hunks: Option<Vec<TurnHunk>>,
}

/// One contiguous run of changed lines of a turn's file (`checkpoint::Hunk`, as the window and
/// `turnUndo` carry it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnHunk {
    /// Its lines in the file as the turn found it.
    pub before: LineSpan,
    /// Its lines in the file as the turn left it.
    pub after: LineSpan,
}

/// Lines of one side of a hunk: `first` is 1-based; `count` 0 is the gap before line `first`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct LineSpan {
    #[ts(type = "number")]
    pub first: usize,
    #[ts(type = "number")]
    pub count: usize,
}
