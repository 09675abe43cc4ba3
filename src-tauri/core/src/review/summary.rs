//! What scripts and `redline review list --json` see of a review.

use crate::review::client::ClientInfo;
use crate::review::id::ReviewId;
use crate::review::kind::ReviewKind;
use serde::Serialize;
use std::path::PathBuf;

/// What scripts and `redline review list --json` see of a review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub id: ReviewId,
    pub workspace: PathBuf,
    pub file_path: String,
    /// The file on this host (differs from `file_path` for a CLI in a container).
    pub path: PathBuf,
    /// It came through a container-path mapping.
    pub container: bool,
    pub client: ClientInfo,
    pub added: usize,
    pub removed: usize,
    pub new_file: bool,
    pub created_at: u64,
    /// Why the proposal cannot be edited; absent: it can be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<String>,
    /// The CLI that proposed it can be pointed at lines of it (the review window's "Ask").
    #[serde(default)]
    pub can_mention: bool,
    /// Whoever asked hears a rejection's reason (`redline review reject --reason`).
    #[serde(default)]
    pub reason_heard: bool,
    /// `turn`: the end of a CLI's turn (accept is Done, reject with a reason continues with it);
    /// `edit`: one proposed change (also what a summary without it is).
    #[serde(default)]
    pub kind: ReviewKind,
    /// A whole turn's review: the turn's id in the workspace's history (`redline turns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<u64>,
    /// The remote machine it is on (`redline remote list`); absent: this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
}
