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
}

impl RemoteFailure {
    pub fn code(&self) -> FaultCode {
        match self {
            RemoteFailure::NotApplied { .. } => FaultCode::NotApplied,
            RemoteFailure::Unanswered { .. } => FaultCode::Unanswered,
        }
    }
}
