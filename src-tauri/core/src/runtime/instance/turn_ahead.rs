//! The first file of a whole turn's review, opened ahead as the review opens
//! (`turn_view::open_ahead`), kept for the window's first ask (`turnFiles`, `turnFile`).

use crate::api::turns::TurnFileView;
use crate::checkpoint::Checkpoint;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// A whole turn's first file, opened ahead (`open_ahead`) for `turnFiles` or `turnFile` to take:
/// what it is of (the workspace and the two checkpoints, whose trees never change) and the view.
pub struct Ahead {
    pub root: PathBuf,
    pub ends: (Checkpoint, Checkpoint),
    pub view: TurnFileView,
}

/// The one file opened ahead, if any: a newer review's replaces it, the window's ask takes it.
pub type AheadSlot = Arc<Mutex<Option<Ahead>>>;

impl Ahead {
    /// The view of `path` from `start` to `end` in `root` when it is the one opened ahead
    /// (taken: it is used once).
    pub fn take(
        slot: &AheadSlot,
        (root, start, end): (&Path, &Checkpoint, &Checkpoint),
        path: &Path,
    ) -> Option<TurnFileView> {
        let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
        let of = |a: &Ahead| {
            a.root == root && a.ends.0 == *start && a.ends.1 == *end && a.view.path == path
        };
        match slot.as_ref().is_some_and(of) {
            true => slot.take().map(|a| a.view),
            false => None,
        }
    }
}
