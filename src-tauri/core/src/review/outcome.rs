//! How a review ended, and the event surfaces get when it leaves the queue.

use crate::review::id::ReviewId;
use serde::Serialize;
use ts_rs::TS;

/// A review that left the queue, for surfaces to drop it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
pub struct Resolved {
    #[ts(type = "number")]
    pub id: ReviewId,
    pub outcome: Outcome,
}

/// How a review ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The user accepted; the CLI is sent the current text.
    Accepted,
    /// The user rejected; the CLI is told.
    Rejected,
    /// The CLI closed the diff itself (the user answered in the terminal).
    Closed,
    /// The CLI's session or the workspace went away.
    Dismissed,
}
