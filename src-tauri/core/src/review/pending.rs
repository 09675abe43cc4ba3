//! A pending review: what a CLI proposed, what the user made of it so far, and who is told.

use crate::review::client::ClientInfo;
use crate::review::detail::Detail;
use crate::review::diff::Stats;
use crate::review::id::ReviewId;
use crate::review::kind::ReviewKind;
use crate::review::origin::Origin;
use crate::review::read_only::ReadOnly;
use crate::review::summary::Summary;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub id: ReviewId,
    pub workspace: PathBuf,
    /// Who proposed it and is told the decision.
    pub origin: Origin,
    pub client: ClientInfo,
    /// The path exactly as the CLI sent it: notifications must echo it unchanged.
    pub file_path: String,
    /// The resolved path on disk.
    pub path: PathBuf,
    /// The file's text when the diff opened; `None` for a new file.
    pub original: Option<String>,
    /// The original's bytes are not UTF-8: `original` shows U+FFFD in place of the invalid ones.
    pub original_not_utf8: bool,
    /// `Some(size)`: the original is no text (NUL bytes, dense invalid UTF-8) and is shown as a
    /// binary file of `size` bytes; `original` still holds it, to compare with the disk.
    pub original_binary: Option<u64>,
    pub proposal: String,
    /// The proposal with the user's edits.
    pub current: String,
    pub stats: Stats,
    pub created_at: u64,
    pub updated_at: u64,
    /// Which of the CLI's proposals this is: 1 when it arrives, one more each time the CLI
    /// re-proposes the file. An edit names the revision it was made against.
    pub revision: u64,
    /// It came from a CLI in a container, through a container-path mapping.
    pub container: bool,
    /// Why the proposal cannot be edited; `None`: it can be.
    pub read_only: Option<ReadOnly>,
    /// The CLI that proposed it can be pointed at lines of it (asked once, by the workspace
    /// service, of the registry that owns its session).
    pub can_mention: bool,
    /// Where the file is on disk when that is not `path` beneath the workspace: a `redline
    /// diff`'s RIGHT, its links resolved (`git difftool -d` links it into the work tree).
    pub on_disk: Option<OnDisk>,
    /// Whoever asked hears a rejection's reason (a hook's deny does; the IDE protocols'
    /// rejections carry none).
    pub reason_heard: bool,
    /// Why the user rejected it, set as it is rejected, for the reply to pass on.
    pub reason: Option<String>,
}

/// A file as it was checked: `path`, its links resolved, lies beneath `root`, and is read and
/// written only through `root`'s descriptor, so a folder swapped for a link since the check
/// cannot lead anywhere else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnDisk {
    pub root: PathBuf,
    pub path: PathBuf,
}

impl Review {
    pub fn original_text(&self) -> &str {
        self.original.as_deref().unwrap_or("")
    }

    /// The original as the window shows it and the diff counts it: nothing for a binary file
    /// (its bytes as text would be U+FFFD and control characters).
    pub fn shown_original(&self) -> &str {
        match self.original_binary {
            Some(_) => "",
            None => self.original_text(),
        }
    }

    /// Everything the review window shows of a review.
    pub fn detail(&self) -> Detail {
        let relative = self
            .path
            .strip_prefix(&self.workspace)
            .unwrap_or(&self.path)
            .to_string_lossy()
            .into_owned();
        Detail {
            id: self.id,
            workspace: self.shown_root().to_string_lossy().into_owned(),
            relative_path: relative,
            file_path: self.file_path.clone(),
            path: self.path.to_string_lossy().into_owned(),
            container: self.container,
            client: self.client.clone(),
            new_file: self.original.is_none(),
            original: self.shown_original().to_owned(),
            original_not_utf8: self.original_not_utf8,
            original_binary: self.original_binary,
            proposal: self.proposal.clone(),
            current: self.current.clone(),
            added: self.stats.added,
            removed: self.stats.removed,
            created_at: self.created_at,
            updated_at: self.updated_at,
            revision: self.revision,
            read_only: self.read_only.as_ref().map(ToString::to_string),
            can_mention: self.can_mention,
            reason_heard: self.reason_heard,
            kind: self.kind(),
            turn_id: self.turn_id(),
            remote: self.origin.remote().map(str::to_owned),
        }
    }

    /// A review of this machine's workspace `ws` (another machine's, however its workspace is
    /// spelt, is never one: its paths are labels only here).
    pub fn in_workspace(&self, ws: &std::path::Path) -> bool {
        self.origin.remote().is_none() && self.workspace == ws
    }

    /// The end of a CLI's turn, answered Done or Continue with instructions.
    pub fn is_turn(&self) -> bool {
        self.read_only.as_ref().is_some_and(ReadOnly::is_turn)
    }

    pub fn kind(&self) -> ReviewKind {
        match self.is_turn() {
            true => ReviewKind::Turn,
            false => ReviewKind::Edit,
        }
    }

    /// The turn a whole turn's review shows (its id in the workspace's history).
    pub fn turn_id(&self) -> Option<u64> {
        self.read_only.as_ref().and_then(ReadOnly::checkpointed)
    }

    /// The folder the review is shown under: its root, or the one the user knows it by.
    fn shown_root(&self) -> &std::path::Path {
        self.origin.shown_as().unwrap_or(&self.workspace)
    }

    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id,
            workspace: self.shown_root().to_path_buf(),
            file_path: self.file_path.clone(),
            path: self.path.clone(),
            container: self.container,
            client: self.client.clone(),
            added: self.stats.added,
            removed: self.stats.removed,
            new_file: self.original.is_none(),
            created_at: self.created_at,
            read_only: self.read_only.as_ref().map(ToString::to_string),
            can_mention: self.can_mention,
            reason_heard: self.reason_heard,
            kind: self.kind(),
            turn_id: self.turn_id(),
            remote: self.origin.remote().map(str::to_owned),
        }
    }
}
