//! The surfaces' errors: what `redline diff` was given and cannot take, and what its `--edit`
//! could not write. Each code is written beside its variant; `crate::error::Error::Surface`
//! carries them to the edges.

use crate::error::FaultCode;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SurfaceError {
    /// `redline diff` given a file on one side and a directory on the other.
    #[error("{} and {} are not both files or both directories", left.display(), right.display())]
    MixedPair { left: PathBuf, right: PathBuf },
    /// `redline diff` of two directories that differ in more files than it opens.
    #[error("{} and {} differ in more than {limit} files: `redline diff` opens at most {limit}", left.display(), right.display())]
    TreesTooWide {
        left: PathBuf,
        right: PathBuf,
        limit: usize,
    },
    /// A directory given to `redline diff` holds more entries than it walks.
    #[error("{} holds more than {limit} entries", dir.display())]
    TooManyEntries { dir: PathBuf, limit: usize },
    /// `redline diff --edit` could not write an accepted file; the user's text went elsewhere.
    #[error("{} was not written: {why}; your accepted text is in {}", path.display(), kept.display())]
    NotWritten {
        path: PathBuf,
        why: String,
        kept: PathBuf,
    },
    /// As `NotWritten`, and the text could not be kept anywhere either.
    #[error("{} was not written: {why}; your accepted text could not be kept either ({error})", path.display())]
    NotKept {
        path: PathBuf,
        why: String,
        error: String,
    },
}

impl SurfaceError {
    pub fn code(&self) -> FaultCode {
        match self {
            // What `redline diff` was given on its command line: the same arguments fail again.
            SurfaceError::MixedPair { .. }
            | SurfaceError::TreesTooWide { .. }
            | SurfaceError::TooManyEntries { .. } => FaultCode::Usage,
            SurfaceError::NotWritten { .. } => FaultCode::NotWritten,
            SurfaceError::NotKept { .. } => FaultCode::NotKept,
        }
    }
}
