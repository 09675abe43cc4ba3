//! The review queue and what a surface does with its pending reviews: list, show, edit, decide,
//! wait, withdraw. None of it takes a workspace's lock: a decision never waits on a workspace
//! starting or stopping. (What reaches a review's CLI, a mention or a selection, goes through its
//! workspace: `Instance::mention`, `select`.)

use crate::error::{Error, Result};
use crate::platform::clock::Clock;
use crate::review::diff;
use crate::review::ReviewError;
use crate::review::{Origin, Review, ReviewEvent, ReviewId, ReviewQueue, Summary};
use crate::runtime::companion::Decision;
use crate::workspace::WorkspaceError;
use std::sync::Arc;
use std::time::Duration;

/// The instance's one review queue, every workspace's and every local command's.
pub struct Reviews {
    queue: Arc<ReviewQueue>,
    clock: Arc<dyn Clock>,
}

impl Reviews {
    pub(super) fn new(clock: Arc<dyn Clock>) -> Reviews {
        Reviews {
            queue: Arc::new(ReviewQueue::new(clock.clone())),
            clock,
        }
    }

    /// The queue itself: its events, its sessions, what opens a review.
    pub fn queue(&self) -> &Arc<ReviewQueue> {
        &self.queue
    }

    pub fn list(&self) -> Vec<Summary> {
        self.queue.list().iter().map(|r| r.summary()).collect()
    }

    /// Review `id` of this machine, for what reads or opens its file here (another machine's
    /// is refused: its paths are only labels on this one).
    pub fn review(&self, id: ReviewId) -> Result<Arc<Review>> {
        let r = self.any(id)?;
        match r.origin.remote() {
            Some(remote) => Err(ReviewError::OnRemote {
                id,
                remote: remote.to_owned(),
            }
            .into()),
            None => Ok(r),
        }
    }

    /// Review `id`, of this machine or another.
    pub fn any(&self, id: ReviewId) -> Result<Arc<Review>> {
        self.queue
            .get(id)
            .ok_or(ReviewError::NoSuchReview(id).into())
    }

    /// A unified diff of the review's original and current text.
    pub fn show(&self, id: ReviewId) -> Result<String> {
        let r = self.any(id)?;
        let ws = crate::workspace::Workspace::new(r.workspace.clone());
        let label = ws.relative(&r.path).to_string_lossy().into_owned();
        Ok(diff::unified(r.original_text(), &r.current, &label))
    }

    /// The user's edits of review `id`, made against its proposal `revision`.
    pub fn update(&self, id: ReviewId, revision: u64, content: String) -> Result<()> {
        Ok(self.queue.update(id, revision, content)?)
    }

    /// Settles review `id`. It takes no lock: a decision never waits on any workspace starting
    /// or stopping (a stop drains peers, which may be slow).
    pub async fn decide(&self, id: ReviewId, decision: Decision) -> Result<()> {
        crate::runtime::companion::settle(&self.queue, id, decision)
    }

    /// Waits for a pending review (of `file`, if given) and returns it.
    pub async fn wait(&self, file: Option<&str>, timeout: Duration) -> Result<Summary> {
        let matches = |r: &Review| file.is_none_or(|f| r.file_path == f);
        // Subscribe before looking, so a review added in between is not missed.
        let mut events = self.queue.subscribe();
        if let Some(r) = self.queue.list().iter().find(|r| matches(r)) {
            return Ok(r.summary());
        }
        let found = async {
            loop {
                match events.recv().await {
                    Ok(ReviewEvent::Added(r) | ReviewEvent::Updated(r)) if matches(&r) => {
                        return Ok(r.summary())
                    }
                    Ok(_) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        if let Some(r) = self.queue.list().iter().find(|r| matches(r)) {
                            return Ok(r.summary());
                        }
                    }
                    Err(_) => return Err(Error::Timeout),
                }
            }
        };
        tokio::time::timeout(timeout, found)
            .await
            .map_err(|_| Error::Timeout)?
    }

    /// Every pending review as the review window shows it.
    pub fn details(&self) -> Vec<crate::review::Detail> {
        self.queue.list().iter().map(|r| r.detail()).collect()
    }

    /// Milliseconds since the review arrived (its latest proposal), if it is still pending.
    pub fn since_added(&self, id: ReviewId) -> Option<u64> {
        let r = self.queue.get(id)?;
        Some(self.clock.now_ms().saturating_sub(r.updated_at))
    }

    /// Whether the file changed on disk since the review opened (created, edited or deleted).
    /// Read as the original was (bounded, never blocking on a FIFO, beneath the workspace): the
    /// review window asks from the UI thread.
    pub fn disk_changed(&self, id: ReviewId) -> Result<bool> {
        let r = self.review(id)?;
        let (ws, path) = match &r.on_disk {
            Some(d) => (crate::workspace::Workspace::new(d.root.clone()), &d.path),
            None => (
                crate::workspace::Workspace::new(r.workspace.clone()),
                &r.path,
            ),
        };
        // What `redline diff` shows on disk is RIGHT, its proposal; for a CLI, the original.
        let expected = if matches!(r.origin, Origin::Diff { .. }) {
            Some(&r.proposal)
        } else {
            r.original.as_ref()
        };
        match crate::review::original::read_blocking(&ws, path, &r.file_path) {
            // A file that is not UTF-8 is compared as it is shown (U+FFFD for its invalid bytes).
            Ok(now) => Ok(now.as_ref().map(|o| &o.text) != expected
                || now.is_some_and(|o| o.utf8 == r.original_not_utf8)),
            // What could not be an original (too big, not a file) is not the one read.
            Err(
                Error::Review(ReviewError::TooLarge { .. })
                | Error::Review(ReviewError::NotRegularFile(_))
                | Error::Review(ReviewError::IsDirectory(_))
                | Error::Workspace(WorkspaceError::BadPath { .. }),
            ) => Ok(true),
            Err(e) => Err(e),
        }
    }

    /// The command that opened these reviews is gone (Ctrl-C): nobody waits for them.
    pub fn dismiss_local(&self, ids: &[ReviewId]) -> usize {
        self.queue.dismiss(|r| ids.contains(&r.id))
    }
}
