//! What scripts and `redline review list --json` see of a review.

use crate::review::client::ClientInfo;
use crate::review::id::ReviewId;
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
    /// The end of a CLI's turn: accept is Done, reject with a reason continues with it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turn: bool,
}

/// A review listed for a command, from the window's fuller view of it (both channels list the
/// reviews with one action).
impl From<&super::detail::Detail> for Summary {
    fn from(d: &super::detail::Detail) -> Summary {
        Summary {
            id: d.id,
            workspace: PathBuf::from(&d.workspace),
            file_path: d.file_path.clone(),
            path: PathBuf::from(&d.path),
            container: d.container,
            client: d.client.clone(),
            added: d.added,
            removed: d.removed,
            new_file: d.new_file,
            created_at: d.created_at,
            read_only: d.read_only.clone(),
            can_mention: d.can_mention,
            reason_heard: d.reason_heard,
            turn: d.turn,
        }
    }
}
