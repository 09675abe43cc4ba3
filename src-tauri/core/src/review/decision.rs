//! The user's decision on a review, and how it settles the review through the queue alone.

use crate::error::Result;
use crate::review::comment::Comment;
use crate::review::id::ReviewId;
use crate::review::outcome::Outcome;
use crate::review::pending::Review;
use crate::review::queue::ReviewQueue;
use crate::review::ReviewError;
use std::sync::Arc;

/// The user's decision on a review: one of two choices, each with what the user may add to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Accept {
        /// The text accepted: `None` is the review's current text.
        content: Option<String>,
        /// The proposal the text was made against: once the CLI has re-proposed the file the
        /// accept is refused (`superseded`), so edits of the old proposal never answer the new
        /// one. `None` accepts whichever proposal is current.
        revision: Option<u64>,
    },
    Reject {
        /// Why, for whoever asked (where its protocol can carry it): the user's own words.
        reason: Option<String>,
        /// Comments on lines of the proposal, sent before the reason as one message
        /// (`comment::message`).
        comments: Vec<Comment>,
    },
}

impl Decision {
    /// An accept of `content` (`None`: the review's current text), whatever its revision.
    pub fn accept(content: Option<String>) -> Decision {
        Decision::Accept {
            content,
            revision: None,
        }
    }

    /// A rejection without a reason.
    pub fn reject() -> Decision {
        Decision::Reject {
            reason: None,
            comments: Vec::new(),
        }
    }
}

/// Settles a review through the queue alone, which tells the CLI that asked: no companion is
/// needed, so a decision never waits on a workspace starting or stopping.
pub fn settle(reviews: &ReviewQueue, id: ReviewId, decision: Decision) -> Result<()> {
    match decision {
        Decision::Accept { content, revision } => reviews.accept(id, content, revision)?,
        Decision::Reject { reason, comments } => reviews.reject_commented(id, comments, reason)?,
    };
    Ok(())
}

impl ReviewQueue {
    /// Rejects a review with the user's `comments` on its lines and their `reason`, composed
    /// into the one message its asker is told (`comment::compose`: each part bounded, not the
    /// message). What is too long is refused, never cut, and the review stays pending.
    pub fn reject_commented(
        &self,
        id: ReviewId,
        comments: Vec<Comment>,
        reason: Option<String>,
    ) -> Result<Arc<Review>, ReviewError> {
        let message = crate::review::comment::compose(comments, reason.as_deref())?;
        self.settle(id, Outcome::Rejected, None, None, message)
    }
}
