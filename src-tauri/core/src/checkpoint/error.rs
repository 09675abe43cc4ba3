//! What can go wrong with a checkpoint, in the user's words.

use std::path::PathBuf;

/// What went wrong with a checkpoint, for the user. Paths are relative to the workspace, quoted
/// (a name may hold a newline or bytes that are not UTF-8).
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("the git program was not found ({0}); Redline's turn checkpoints need git installed")]
    GitMissing(std::io::Error),
    #[error("git {step} failed ({status}): {stderr}")]
    Git {
        step: &'static str,
        status: std::process::ExitStatus,
        stderr: String,
    },
    #[error("the checkpoint store {path}: {1}", path = .0.display())]
    Store(PathBuf, std::io::Error),
    #[error("git answered what Redline cannot read: {0}")]
    Unreadable(String),
    #[error("{0:?} changed since the turn ended")]
    Changed(PathBuf),
    #[error("{0:?} is {1}, not a regular file; Redline does not undo it")]
    NotAFile(PathBuf, &'static str),
    #[error("a folder on the way to {0:?} is a link or no folder")]
    NotBeneath(PathBuf),
    #[error("{path:?} is too large to undo ({size} bytes, the limit is {limit})")]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error("{0:?} is binary: undo it whole, not by hunks")]
    NotText(PathBuf),
    #[error("{0:?} was added or deleted by the turn: undo it whole, not by hunks")]
    NotBothSides(PathBuf),
    #[error("{0:?} has no such hunk in this turn (its diff differs)")]
    NoSuchHunk(PathBuf),
    #[error("{0:?} is not a path inside the workspace")]
    NotInWorkspace(PathBuf),
    #[error("could not undo {0:?}: {1}")]
    Write(PathBuf, std::io::Error),
    #[error(
        "the store {store} belongs to the workspace {other}, not this one",
        store = .0.display(),
        other = .1.display()
    )]
    OtherWorkspace(PathBuf, PathBuf),
    #[error("the turn history {path} cannot be read: {1}", path = .0.display())]
    History(PathBuf, String),
    #[error("no turn {0} in this workspace's history")]
    NoSuchTurn(u64),
    #[error("turn {0} has not ended yet: it has no change to show or undo")]
    NotEnded(u64),
    #[error("{0:?} was not changed by this turn")]
    NotInTurn(PathBuf),
}

pub type CheckpointResult<T> = std::result::Result<T, CheckpointError>;
