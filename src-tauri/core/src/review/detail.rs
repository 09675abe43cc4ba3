//! A review as the review window shows it, with what its CLI can take.

use crate::review::client::ClientInfo;
use crate::review::id::ReviewId;
use crate::review::kind::ReviewKind;
use serde::Serialize;
use ts_rs::TS;

/// A review as the review window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ReviewDetail")]
pub struct Detail {
    #[ts(type = "number")]
    pub id: ReviewId,
    pub workspace: String,
    /// The path relative to the workspace, for labels.
    pub relative_path: String,
    /// The path as the CLI sent it (a container path for a CLI in a container).
    pub file_path: String,
    /// The file on this host.
    pub path: String,
    /// It came from a CLI in a container, through a container-path mapping.
    pub container: bool,
    pub client: ClientInfo,
    pub new_file: bool,
    pub original: String,
    /// The file's bytes are not UTF-8: `original` shows U+FFFD in place of the invalid ones.
    pub original_not_utf8: bool,
    /// `Some(size)`: the original is a binary file of `size` bytes, shown as such (`original`
    /// is then empty).
    #[ts(type = "number | null")]
    pub original_binary: Option<u64>,
    pub proposal: String,
    pub current: String,
    #[ts(type = "number")]
    pub added: usize,
    #[ts(type = "number")]
    pub removed: usize,
    #[ts(type = "number")]
    pub created_at: u64,
    #[ts(type = "number")]
    pub updated_at: u64,
    /// The proposal's revision: an edit sent with `review_update` names it, and is refused once
    /// the CLI has proposed a newer one.
    #[ts(type = "number")]
    pub revision: u64,
    /// Why the proposal cannot be edited, in words (one line, shown above it); `None`: it can
    /// be, and Accept sends the edited text.
    pub read_only: Option<String>,
    /// The CLI that proposed it can be pointed at lines of it ("Ask about this part").
    pub can_mention: bool,
    /// Whoever asked hears a rejection's reason ("Reject with reason…" says so when not: the
    /// IDE protocols carry none).
    pub reason_heard: bool,
    /// `turn`: the end of a CLI's turn, answered Done and Continue with instructions (a
    /// rejection whose reason the CLI goes on with); `edit`: one proposed change.
    pub kind: ReviewKind,
    /// A whole turn's review (every file, from its checkpoints: `turnFiles`, `turnFile`,
    /// `turnUndo`): the turn's id in the workspace's history; `None`: an edit, or one file's tab
    /// of a turn that was not checkpointed.
    #[ts(type = "number | null")]
    pub turn_id: Option<u64>,
    /// The remote machine it is on (`redline remote add NAME`): its paths are that machine's,
    /// shown here as labels only. Absent: a review on this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub remote: Option<String>,
}
