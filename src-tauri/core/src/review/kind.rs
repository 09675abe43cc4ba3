//! What a review is of: one edit a CLI proposes, or the end of a CLI's turn.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a review is of, as scripts (`redline review list --json`) and the window read it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ReviewKind {
    /// One file's proposed change: accepted (perhaps edited) or rejected.
    #[default]
    Edit,
    /// The end of a CLI's turn: accept is Done, reject with a reason continues with it.
    Turn,
}
