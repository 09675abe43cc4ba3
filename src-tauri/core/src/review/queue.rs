//! The review queue: proposals waiting for the user's decision, and events for surfaces to follow.

use crate::error::Result;
use crate::platform::clock::Clock;
use crate::review::client::ClientInfo;
use crate::review::diff;
use crate::review::id::ReviewId;
use crate::review::origin::Origin;
use crate::review::original;
use crate::review::outcome::Outcome;
use crate::review::pending::{OnDisk, Review};
use crate::review::read_only::ReadOnly;
use crate::review::ReviewError;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{broadcast, watch};

#[derive(Debug, Clone)]
pub enum ReviewEvent {
    Added(Arc<Review>),
    Updated(Arc<Review>),
    Resolved {
        id: ReviewId,
        workspace: PathBuf,
        outcome: Outcome,
    },
}

/// How the CLI that asked is told that its review left the queue: given the review (its `current`
/// is the final text on accept) and how it ended. Each protocol supplies its own (a notification
/// on an HTTP session, the answer to a blocked WebSocket call). Called exactly once, outside the
/// queue's lock.
pub type Reply = Box<dyn FnOnce(&Review, Outcome) + Send>;

/// A new proposal from a CLI.
pub struct Proposal {
    pub workspace: PathBuf,
    pub origin: Origin,
    pub client: ClientInfo,
    pub file_path: String,
    pub path: PathBuf,
    pub original: Option<original::Original>,
    pub proposal: String,
    /// It came through a container-path mapping.
    pub container: bool,
    /// Why the proposal cannot be edited; `None`: it can be.
    pub read_only: Option<ReadOnly>,
    /// The CLI that proposed it can be pointed at lines of it.
    pub can_mention: bool,
    /// Where the file is on disk, if not `path` beneath the workspace (see `Review::on_disk`).
    pub on_disk: Option<OnDisk>,
    /// Whoever asked hears a rejection's reason (see `Review::reason_heard`).
    pub reason_heard: bool,
}

fn superseded(review: &Review) -> ReviewError {
    ReviewError::Superseded {
        id: review.id,
        file: review.file_path.clone(),
    }
}

/// What a proposal's original text brings to its review, worked out before the queue is locked
/// (the diff's stats take the time of a diff).
struct Fresh {
    original: Option<String>,
    original_not_utf8: bool,
    original_binary: Option<u64>,
    stats: diff::Stats,
    now: u64,
}

impl Fresh {
    /// Takes the original text out of `p`.
    fn of(p: &mut Proposal, now: u64) -> Fresh {
        let shown = p.original.as_ref().filter(|o| o.binary.is_none());
        let stats = diff::stats(shown.map_or("", |o| &o.text), &p.proposal);
        let original_not_utf8 = p.original.as_ref().is_some_and(|o| !o.utf8);
        let original_binary = p.original.as_ref().and_then(|o| o.binary);
        Fresh {
            original: p.original.take().map(|o| o.text),
            original_not_utf8,
            original_binary,
            stats,
            now,
        }
    }
}

pub struct ReviewQueue {
    state: Mutex<State>,
    events: broadcast::Sender<ReviewEvent>,
    /// How many CLI sessions have started, in every workspace and protocol: a review may follow,
    /// so a surface can get ready for it (a watch, so one that subscribes late still sees it).
    sessions: watch::Sender<u64>,
    clock: Arc<dyn Clock>,
}

#[derive(Default)]
struct State {
    next_id: ReviewId,
    reviews: BTreeMap<ReviewId, Arc<Review>>,
    replies: HashMap<ReviewId, Reply>,
}

impl ReviewQueue {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        ReviewQueue {
            state: Mutex::new(State {
                next_id: 1,
                ..State::default()
            }),
            events: broadcast::channel(256).0,
            sessions: watch::channel(0).0,
            clock,
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<ReviewEvent> {
        self.events.subscribe()
    }

    /// A CLI proved the token and started a session (any protocol): reviews may come.
    pub fn session_started(&self) {
        self.sessions.send_modify(|n| *n += 1);
    }

    /// The count of sessions started so far; changes with each new one.
    pub fn sessions_started(&self) -> watch::Receiver<u64> {
        self.sessions.subscribe()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a proposal; `reply` is told how it ends. A second one for the same file from the
    /// same session replaces the first (keeping its id), as a CLI re-proposing an edit expects;
    /// the first one's reply is then told it was closed.
    pub fn open(&self, mut p: Proposal, reply: Reply) -> ReviewId {
        let fresh = Fresh::of(&mut p, self.clock.now_ms());
        let state = self.lock();
        let existing = state
            .reviews
            .values()
            .find(|r| {
                r.origin == p.origin && r.file_path == p.file_path && r.workspace == p.workspace
            })
            .cloned();
        match existing {
            Some(existing) => self.replace(state, &existing, p, fresh, reply),
            None => self.add(state, p, fresh, reply),
        }
    }

    /// `existing` brought up to proposal `p`, its old reply told it was closed.
    fn replace(
        &self,
        mut state: MutexGuard<'_, State>,
        existing: &Review,
        p: Proposal,
        fresh: Fresh,
        reply: Reply,
    ) -> ReviewId {
        let mut review = Review::clone(existing);
        review.original = fresh.original;
        review.original_not_utf8 = fresh.original_not_utf8;
        review.original_binary = fresh.original_binary;
        review.current = p.proposal.clone();
        review.proposal = p.proposal;
        review.stats = fresh.stats;
        review.updated_at = fresh.now;
        review.revision += 1;
        review.read_only = p.read_only;
        review.can_mention = p.can_mention;
        review.on_disk = p.on_disk;
        review.reason_heard = p.reason_heard;
        let review = Arc::new(review);
        let replaced = state.reviews.insert(review.id, review.clone());
        let old_reply = state.replies.insert(review.id, reply);
        let _ = self.events.send(ReviewEvent::Updated(review.clone()));
        drop(state);
        if let (Some(old), Some(old_reply)) = (replaced, old_reply) {
            old_reply(&old, Outcome::Closed);
        }
        review.id
    }

    /// A new review of proposal `p`, under the next id.
    fn add(
        &self,
        mut state: MutexGuard<'_, State>,
        p: Proposal,
        fresh: Fresh,
        reply: Reply,
    ) -> ReviewId {
        let id = state.next_id;
        state.next_id += 1;
        let review = Arc::new(Review {
            id,
            workspace: p.workspace,
            origin: p.origin,
            client: p.client,
            file_path: p.file_path,
            path: p.path,
            original: fresh.original,
            original_not_utf8: fresh.original_not_utf8,
            original_binary: fresh.original_binary,
            current: p.proposal.clone(),
            proposal: p.proposal,
            stats: fresh.stats,
            created_at: fresh.now,
            updated_at: fresh.now,
            revision: 1,
            container: p.container,
            read_only: p.read_only,
            can_mention: p.can_mention,
            on_disk: p.on_disk,
            reason_heard: p.reason_heard,
            reason: None,
        });
        state.reviews.insert(id, review.clone());
        state.replies.insert(id, reply);
        let _ = self.events.send(ReviewEvent::Added(review));
        id
    }

    /// Records the user's edits, made against proposal `revision`, so a terminal-side answer gets
    /// them. Refused once the CLI has proposed a newer revision: the edits were made to text the
    /// CLI no longer proposes, and must not replace the new proposal.
    pub fn update(&self, id: ReviewId, revision: u64, content: String) -> Result<(), ReviewError> {
        let seen = self.get(id).ok_or(ReviewError::NoSuchReview(id))?;
        if let Some(reason) = &seen.read_only {
            return Err(ReviewError::ReadOnly {
                id,
                reason: reason.to_string(),
            });
        }
        if seen.revision != revision {
            return Err(superseded(&seen));
        }
        // The diff is counted outside the lock (it is the slow part); the revision check under
        // it says the text it was counted against is still the one queued.
        let stats = diff::stats(seen.shown_original(), &content);
        let now = self.clock.now_ms();
        let mut state = self.lock();
        let slot = state.reviews.get_mut(&id);
        let slot = slot.ok_or(ReviewError::NoSuchReview(id))?;
        if slot.revision != revision || slot.revision != seen.revision {
            return Err(superseded(slot));
        }
        let review = Arc::make_mut(slot);
        review.current = content;
        review.stats = stats;
        review.updated_at = now;
        let _ = self.events.send(ReviewEvent::Updated(slot.clone()));
        Ok(())
    }

    pub fn get(&self, id: ReviewId) -> Option<Arc<Review>> {
        self.lock().reviews.get(&id).cloned()
    }

    pub fn list(&self) -> Vec<Arc<Review>> {
        self.lock().reviews.values().cloned().collect()
    }

    /// The review of `file_path` in `workspace`: the given session's first, else the oldest.
    pub fn find(&self, workspace: &Path, session: &str, file_path: &str) -> Option<Arc<Review>> {
        let state = self.lock();
        let mut candidates = state
            .reviews
            .values()
            .filter(|r| r.in_workspace(workspace) && r.file_path == file_path);
        let first = candidates.next()?.clone();
        if first.origin.is_session(session) {
            return Some(first);
        }
        Some(
            candidates
                .find(|r| r.origin.is_session(session))
                .cloned()
                .unwrap_or(first),
        )
    }

    /// Removes a review, reporting how it ended, and tells its asker.
    pub fn resolve(&self, id: ReviewId, outcome: Outcome) -> Result<Arc<Review>, ReviewError> {
        self.settle(id, outcome, None, None, None)
    }

    /// Rejects a review, its asker told the user's `reason` with it where its protocol can
    /// carry one. The reason is cleaned and bounded first (`review::reason`): one too long is
    /// refused and the review stays pending; a blank one is a plain rejection. With comments:
    /// `reject_commented` (review::decision).
    pub fn reject(&self, id: ReviewId, reason: Option<String>) -> Result<Arc<Review>, ReviewError> {
        self.reject_commented(id, Vec::new(), reason)
    }

    /// Accepts a review with `content`, or its current text, and tells its asker. An empty text
    /// is refused (Gemini CLI and Qwen Code ignore it) and the review stays pending.
    /// Accepts with `content`, else the current text; with `revision`, only if that is still the
    /// proposal's (checked under the same lock hold as the settle).
    pub fn accept(
        &self,
        id: ReviewId,
        content: Option<String>,
        revision: Option<u64>,
    ) -> Result<Arc<Review>, ReviewError> {
        self.settle(id, Outcome::Accepted, content, revision, None)
    }

    /// Takes the review out and tells its asker: with the final `content` on accept, the user's
    /// `reason` on reject, both set under the same lock hold as the removal.
    pub(super) fn settle(
        &self,
        id: ReviewId,
        outcome: Outcome,
        content: Option<String>,
        revision: Option<u64>,
        reason: Option<String>,
    ) -> Result<Arc<Review>, ReviewError> {
        let mut state = self.lock();
        let review = state
            .reviews
            .get(&id)
            .ok_or(ReviewError::NoSuchReview(id))?;
        if revision.is_some_and(|r| r != review.revision) {
            return Err(superseded(review));
        }
        // A read-only proposal goes back as it came (the asker writes its own): no edited text,
        // and an empty one (a file a diff shows removed) is what the asker proposed.
        if let (Some(reason), Some(_)) = (&review.read_only, &content) {
            return Err(ReviewError::ReadOnly {
                id,
                reason: reason.to_string(),
            });
        }
        if outcome == Outcome::Accepted
            && review.read_only.is_none()
            && content.as_deref().unwrap_or(&review.current).is_empty()
        {
            return Err(ReviewError::EmptyContent);
        }
        let mut review = state
            .reviews
            .remove(&id)
            .ok_or(ReviewError::NoSuchReview(id))?;
        if let Some(content) = content {
            Arc::make_mut(&mut review).current = content;
        }
        if reason.is_some() {
            Arc::make_mut(&mut review).reason = reason;
        }
        let reply = state.replies.remove(&id);
        let _ = self.events.send(ReviewEvent::Resolved {
            id,
            workspace: review.workspace.clone(),
            outcome,
        });
        drop(state);
        if let Some(reply) = reply {
            reply(&review, outcome);
        }
        Ok(review)
    }

    /// Dismisses every review matching `pred` (a session ended, a workspace was turned off).
    pub fn dismiss(&self, pred: impl Fn(&Review) -> bool) -> usize {
        let mut state = self.lock();
        let ids: Vec<ReviewId> = state
            .reviews
            .values()
            .filter(|r| pred(r))
            .map(|r| r.id)
            .collect();
        let mut told = Vec::new();
        for id in &ids {
            if let Some(review) = state.reviews.remove(id) {
                let _ = self.events.send(ReviewEvent::Resolved {
                    id: *id,
                    workspace: review.workspace.clone(),
                    outcome: Outcome::Dismissed,
                });
                if let Some(reply) = state.replies.remove(id) {
                    told.push((review, reply));
                }
            }
        }
        drop(state);
        for (review, reply) in told {
            reply(&review, Outcome::Dismissed);
        }
        ids.len()
    }
}
