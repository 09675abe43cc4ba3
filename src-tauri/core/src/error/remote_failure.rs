//! What became of a decision on another machine's review, when it is not "applied": the
//! desktop says which (issue 40: applied once, or not at all).

use crate::error::FaultCode;

#[derive(Debug, thiserror::Error)]
pub enum RemoteFailure {
    /// The remote answered, and did not apply it (the review ended there, Redline there
    /// restarted, or it refused the decision): `why` in its words.
    #[error("{remote} did not apply your decision on review {id}: {why}")]
    NotApplied {
        remote: String,
        id: u64,
        why: String,
    },
    /// No answer within the wait: the link is down or slow. The decision is kept and sent again.
    #[error("{remote} has not answered yet: your decision on review {id} is sent again when the link is back, and applied there once or not at all; `redline remote list` says which")]
    Unanswered { remote: String, id: u64 },
    /// A call for the remote's instance while its link is not up.
    #[error("{remote} is not connected ({state}): `redline remote list` says why")]
    NotConnected { remote: String, state: String },
    /// A call the link took and did not bring an answer to: it ended, or the remote was slow.
    #[error("{remote} did not answer: {why}")]
    NoAnswer { remote: String, why: String },
    /// `--install` could not put Redline there: why.
    #[error("Redline was not installed on {remote}: {why}")]
    NotInstalled { remote: String, why: String },
    /// The remote's instance answered the call with an error: its code and words.
    #[error("{remote}: {message}")]
    Said {
        remote: String,
        code: FaultCode,
        message: String,
    },
}

impl RemoteFailure {
    pub fn code(&self) -> FaultCode {
        match self {
            RemoteFailure::NotApplied { .. } => FaultCode::NotApplied,
            RemoteFailure::Unanswered { .. } | RemoteFailure::NoAnswer { .. } => {
                FaultCode::Unanswered
            }
            RemoteFailure::NotConnected { .. } => FaultCode::NotConnected,
            RemoteFailure::NotInstalled { .. } => FaultCode::NotInstalled,
            RemoteFailure::Said { code, .. } => *code,
        }
    }
}
