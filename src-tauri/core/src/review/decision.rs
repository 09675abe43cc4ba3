//! The user's decision on a review, and how it settles the review through the queue alone.

use crate::error::Result;
use crate::review::id::ReviewId;
use crate::review::queue::ReviewQueue;

/// The user's decision on a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Accept with this text, or the review's current text.
    Accept(Option<String>),
    /// As `Accept`, for text made against proposal `revision`: refused (`superseded`) once the
    /// CLI has re-proposed the file, so edits of the old proposal never answer the new one.
    AcceptRevision {
        revision: u64,
        content: Option<String>,
    },
    Reject,
    /// Reject, telling whoever asked why (where its protocol can carry it).
    RejectWithReason(String),
}

impl Decision {
    /// A rejection, with the user's reason if they gave one.
    pub fn rejecting(reason: Option<String>) -> Decision {
        reason.map_or(Decision::Reject, Decision::RejectWithReason)
    }
}

/// Settles a review through the queue alone, which tells the CLI that asked: no companion is
/// needed, so a decision never waits on a workspace starting or stopping.
pub fn settle(reviews: &ReviewQueue, id: ReviewId, decision: Decision) -> Result<()> {
    match decision {
        Decision::Accept(content) => reviews.accept(id, content, None)?,
        Decision::AcceptRevision { revision, content } => {
            reviews.accept(id, content, Some(revision))?
        }
        Decision::Reject => reviews.reject(id, None)?,
        Decision::RejectWithReason(reason) => reviews.reject(id, Some(reason))?,
    };
    Ok(())
}
