//! The review queue: proposals waiting for the user's decision, and events for surfaces to follow.

pub(crate) mod context;
pub(crate) mod diff;
pub mod editor;
pub(crate) mod editor_context;
pub mod original;
pub(crate) mod quota;
pub(crate) mod registry;
pub mod selection;
pub(crate) mod service;
use crate::error::{Error, Result};
use crate::platform::clock::Clock;
use diff::Stats;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{broadcast, watch};
use ts_rs::TS;

pub type ReviewId = u64;

/// The CLI that asked: as it named itself in `initialize`, and the process that really did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
pub struct ClientInfo {
    pub name: String,
    pub version: String,
    /// The process on the other end of the connection, when it could be found.
    #[serde(default)]
    pub process: Option<crate::platform::peer::PeerProcess>,
    /// The title the CLI gave its session (Copilot CLI's `update_session_name`).
    #[serde(
        default,
        rename = "sessionName",
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(optional)]
    pub session_name: Option<String>,
}

impl ClientInfo {
    /// Who asked, for people: the real program if known, else the MCP client's name.
    pub fn label(&self) -> String {
        let who = match &self.process {
            Some(p) => p.label(),
            None => format!("{} {}", self.name, self.version).trim().to_owned(),
        };
        match &self.session_name {
            Some(title) => format!("{who} · “{title}”"),
            None => who,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub id: ReviewId,
    pub workspace: PathBuf,
    /// The MCP session that opened the diff and is told the decision.
    pub session: String,
    pub client: ClientInfo,
    /// The path exactly as the CLI sent it: notifications must echo it unchanged.
    pub file_path: String,
    /// The resolved path on disk.
    pub path: PathBuf,
    /// The file's text when the diff opened; `None` for a new file.
    pub original: Option<String>,
    /// The original's bytes are not UTF-8: `original` shows U+FFFD in place of the invalid ones.
    pub original_not_utf8: bool,
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
    /// Why the proposal cannot be edited, shown to the user; `None`: it can be.
    pub read_only: Option<String>,
    /// Where the file is on disk when that is not `path` beneath the workspace: a `redline
    /// diff`'s RIGHT, its links resolved (`git difftool -d` links it into the work tree).
    pub on_disk: Option<OnDisk>,
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
            workspace: self.workspace.to_string_lossy().into_owned(),
            relative_path: relative,
            file_path: self.file_path.clone(),
            path: self.path.to_string_lossy().into_owned(),
            container: self.container,
            client: self.client.clone(),
            new_file: self.original.is_none(),
            original: self.original_text().to_owned(),
            original_not_utf8: self.original_not_utf8,
            proposal: self.proposal.clone(),
            current: self.current.clone(),
            added: self.stats.added,
            removed: self.stats.removed,
            created_at: self.created_at,
            updated_at: self.updated_at,
            revision: self.revision,
            read_only: self.read_only.clone(),
        }
    }

    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id,
            workspace: self.workspace.clone(),
            file_path: self.file_path.clone(),
            path: self.path.clone(),
            container: self.container,
            client: self.client.clone(),
            added: self.stats.added,
            removed: self.stats.removed,
            new_file: self.original.is_none(),
            created_at: self.created_at,
            read_only: self.read_only.clone(),
        }
    }
}

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
}

/// A review as the review window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
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
    /// Why the proposal cannot be edited (one line, shown above it); `None`: it can be, and
    /// Accept sends the edited text.
    pub read_only: Option<String>,
}

/// A review that left the queue, for surfaces to drop it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
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
    pub session: String,
    pub client: ClientInfo,
    pub file_path: String,
    pub path: PathBuf,
    pub original: Option<original::Original>,
    pub proposal: String,
    /// It came through a container-path mapping.
    pub container: bool,
    /// Why the proposal cannot be edited; `None`: it can be.
    pub read_only: Option<String>,
    /// Where the file is on disk, if not `path` beneath the workspace (see `Review::on_disk`).
    pub on_disk: Option<OnDisk>,
}

fn superseded(review: &Review) -> Error {
    Error::Superseded {
        id: review.id,
        file: review.file_path.clone(),
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
    pub fn open(&self, p: Proposal, reply: Reply) -> ReviewId {
        let stats = diff::stats(p.original.as_ref().map_or("", |o| &o.text), &p.proposal);
        let original_not_utf8 = p.original.as_ref().is_some_and(|o| !o.utf8);
        let original = p.original.map(|o| o.text);
        let now = self.clock.now_ms();
        let mut state = self.lock();
        let existing = state.reviews.values().find(|r| {
            r.session == p.session && r.file_path == p.file_path && r.workspace == p.workspace
        });
        if let Some(existing) = existing {
            let mut review = Review::clone(existing);
            review.original = original;
            review.original_not_utf8 = original_not_utf8;
            review.current = p.proposal.clone();
            review.proposal = p.proposal;
            review.stats = stats;
            review.updated_at = now;
            review.revision += 1;
            review.read_only = p.read_only;
            review.on_disk = p.on_disk;
            let review = Arc::new(review);
            let replaced = state.reviews.insert(review.id, review.clone());
            let old_reply = state.replies.insert(review.id, reply);
            let _ = self.events.send(ReviewEvent::Updated(review.clone()));
            drop(state);
            if let (Some(old), Some(old_reply)) = (replaced, old_reply) {
                old_reply(&old, Outcome::Closed);
            }
            return review.id;
        }
        let id = state.next_id;
        state.next_id += 1;
        let review = Arc::new(Review {
            id,
            workspace: p.workspace,
            session: p.session,
            client: p.client,
            file_path: p.file_path,
            path: p.path,
            original,
            original_not_utf8,
            current: p.proposal.clone(),
            proposal: p.proposal,
            stats,
            created_at: now,
            updated_at: now,
            revision: 1,
            container: p.container,
            read_only: p.read_only,
            on_disk: p.on_disk,
        });
        state.reviews.insert(id, review.clone());
        state.replies.insert(id, reply);
        let _ = self.events.send(ReviewEvent::Added(review));
        id
    }

    /// Records the user's edits, made against proposal `revision`, so a terminal-side answer gets
    /// them. Refused once the CLI has proposed a newer revision: the edits were made to text the
    /// CLI no longer proposes, and must not replace the new proposal.
    pub fn update(&self, id: ReviewId, revision: u64, content: String) -> Result<()> {
        let seen = self.get(id).ok_or(Error::NoSuchReview(id))?;
        if let Some(reason) = &seen.read_only {
            return Err(Error::ReadOnly {
                id,
                reason: reason.clone(),
            });
        }
        if seen.revision != revision {
            return Err(superseded(&seen));
        }
        // The diff is counted outside the lock (it is the slow part); the revision check under
        // it says the text it was counted against is still the one queued.
        let stats = diff::stats(seen.original_text(), &content);
        let now = self.clock.now_ms();
        let mut state = self.lock();
        let slot = state.reviews.get_mut(&id).ok_or(Error::NoSuchReview(id))?;
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
            .filter(|r| r.workspace == workspace && r.file_path == file_path);
        let first = candidates.next()?.clone();
        if first.session == session {
            return Some(first);
        }
        Some(
            candidates
                .find(|r| r.session == session)
                .cloned()
                .unwrap_or(first),
        )
    }

    /// Removes a review, reporting how it ended, and tells its asker.
    pub fn resolve(&self, id: ReviewId, outcome: Outcome) -> Result<Arc<Review>> {
        self.settle(id, outcome, None, None)
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
    ) -> Result<Arc<Review>> {
        self.settle(id, Outcome::Accepted, content, revision)
    }

    fn settle(
        &self,
        id: ReviewId,
        outcome: Outcome,
        content: Option<String>,
        revision: Option<u64>,
    ) -> Result<Arc<Review>> {
        let mut state = self.lock();
        let review = state.reviews.get(&id).ok_or(Error::NoSuchReview(id))?;
        if revision.is_some_and(|r| r != review.revision) {
            return Err(superseded(review));
        }
        // A read-only proposal goes back as it came (the asker writes its own): no edited text,
        // and an empty one (a file a diff shows removed) is what the asker proposed.
        if let (Some(reason), Some(_)) = (&review.read_only, &content) {
            return Err(Error::ReadOnly {
                id,
                reason: reason.clone(),
            });
        }
        if outcome == Outcome::Accepted
            && review.read_only.is_none()
            && content.as_deref().unwrap_or(&review.current).is_empty()
        {
            return Err(Error::EmptyContent);
        }
        let mut review = state.reviews.remove(&id).ok_or(Error::NoSuchReview(id))?;
        if let Some(content) = content {
            Arc::make_mut(&mut review).current = content;
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

#[cfg(test)]
mod tests;
