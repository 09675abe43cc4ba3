//! The discovery layer's errors: a CLI's hook config Redline will not edit. Each code is written
//! beside its variant; `crate::error::Error::Discovery` carries them to the edges.

use crate::error::FaultCode;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    #[error("{path}: {why}; nothing was changed")]
    HookConfig { path: PathBuf, why: String },
}

impl DiscoveryError {
    pub fn code(&self) -> FaultCode {
        match self {
            DiscoveryError::HookConfig { .. } => FaultCode::HookConfig,
        }
    }
}
