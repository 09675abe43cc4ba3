//! A failure as every surface shows it: a stable code and a message the user reads.

use crate::error::{Error, FaultCode};
use serde::{Deserialize, Serialize};

/// An error as the other side (a `redline` command, the review window) sees it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ts_rs::TS)]
pub struct Fault {
    pub code: FaultCode,
    pub message: String,
}

impl From<&Error> for Fault {
    fn from(e: &Error) -> Self {
        Fault {
            code: e.code(),
            message: e.to_string(),
        }
    }
}
