//! What can go wrong with a checkpoint, in the user's words.

use std::path::PathBuf;

/// What went wrong with a checkpoint, for the user.
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
}

pub type CheckpointResult<T> = std::result::Result<T, CheckpointError>;
