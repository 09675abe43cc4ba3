//! The platform layer's errors: the OS keyring, and a runtime directory that is not this user's
//! own. Each code is written beside its variant; `crate::error::Error::Platform` carries them to
//! the edges.

use crate::error::{DirProblem, FaultCode, KeyringFailure};
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum PlatformError {
    #[error("keyring: {0}")]
    Keyring(KeyringFailure),
    /// The directory that holds the control socket is not this user's own private one: nothing
    /// is sent through it and no server listens in it.
    #[error("{} {problem}: refusing to use it; {}", path.display(), problem.fix())]
    RuntimeDir { path: PathBuf, problem: DirProblem },
}

impl PlatformError {
    pub fn code(&self) -> FaultCode {
        match self {
            PlatformError::Keyring(_) => FaultCode::Keyring,
            PlatformError::RuntimeDir { .. } => FaultCode::RuntimeDir,
        }
    }
}
