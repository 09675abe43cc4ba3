//! Every remote of this desktop: each one's link kept up (run again with a backoff when it
//! ends), its state for `redline remote list`, and the user's decisions on its reviews sent
//! there and answered once.

use super::attached::{self, LinkEnd};
use super::far::Remote;
use super::mirror::Theirs;
use super::said::label;
use crate::api::remote_info::{LinkState, RemoteInfo};
use crate::error::{RemoteFailure, Result};
use crate::net::limits::Beat;
use crate::review::decision::Decision;
use crate::review::{Outcome, Review, ReviewError, ReviewId, ReviewQueue};
use crate::runtime::control::decode;
use crate::runtime::remote::protocol::{Call, Fate};
use crate::surfaces::action::Act;
use crate::surfaces::action::{ReviewAccept, ReviewReject};
use crate::workspace::remote_entry::RemoteEntry;
use crate::workspace::WorkspaceError;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;

/// The first wait before a link is made again; doubled each time, up to `LAST_RETRY`.
const FIRST_RETRY: Duration = Duration::from_millis(500);
const LAST_RETRY: Duration = Duration::from_secs(30);
/// A link up this long was steady: the next failure waits `FIRST_RETRY` again.
const STEADY: Duration = Duration::from_secs(30);

/// How long a decision waits for the remote's answer before the user is told it is not in yet
/// (it is kept, and sent again on the next link).
const DECIDE_WAIT: Duration = Duration::from_secs(5);

/// This desktop's remotes, by name.
pub struct Remotes {
    queue: Arc<ReviewQueue>,
    beat: Beat,
    /// This desktop's run (`Hello::instance`).
    run: String,
    each: Mutex<BTreeMap<String, Arc<Remote>>>,
    /// Changes when a remote is added or removed or its link's state changes.
    changed: watch::Sender<()>,
}

impl Remotes {
    /// The remotes `stored`, each one's link started; this desktop runs as `run`.
    pub fn new(
        queue: Arc<ReviewQueue>,
        (beat, run): (Beat, &str),
        stored: &[RemoteEntry],
    ) -> Remotes {
        let remotes = Remotes {
            queue,
            beat,
            run: run.to_owned(),
            each: Mutex::default(),
            changed: watch::channel(()).0,
        };
        for entry in stored {
            remotes.attach(entry.clone());
        }
        remotes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Arc<Remote>>> {
        self.each.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts keeping a link to `entry` up (one already kept under its name stays).
    pub fn attach(&self, entry: RemoteEntry) {
        let remote = Arc::new(Remote::new(entry, self.changed.clone()));
        {
            let mut each = self.lock();
            if each.contains_key(&remote.entry.name) {
                return;
            }
            each.insert(remote.entry.name.clone(), remote.clone());
        }
        self.changed.send_replace(());
        let (queue, beat, run) = (self.queue.clone(), self.beat, self.run.clone());
        tokio::spawn(async move { keep_up(remote, queue, beat, run).await });
    }

    /// Stops the remote `name`: its link ends, its reviews here go, its unanswered decisions
    /// are answered gone.
    pub fn detach(&self, name: &str) -> Result<()> {
        let remote = self.lock().remove(name);
        let remote = remote.ok_or_else(|| WorkspaceError::NoSuchRemote(name.to_owned()))?;
        remote.stop.cancel();
        self.changed.send_replace(());
        remote.mirror.clear(&self.queue);
        let why = "the remote was removed before it answered";
        let answered = remote.unsettled.drop_all(why);
        remote.told(&self.queue, answered);
        Ok(())
    }

    /// Changes when a remote is added or removed or its link's state changes (the tray).
    pub fn changes(&self) -> watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// Stops every link (the instance stops).
    pub fn stop_all(&self) {
        for remote in self.lock().values() {
            remote.stop.cancel();
        }
    }

    pub fn list(&self) -> Vec<RemoteInfo> {
        self.lock().values().map(|r| r.info()).collect()
    }

    /// The command that reaches remote `name`.
    pub fn command(&self, name: &str) -> Result<Vec<String>> {
        Ok(self.get(name)?.entry.command.clone())
    }

    pub fn info(&self, name: &str) -> Result<RemoteInfo> {
        Ok(self.get(name)?.info())
    }

    /// The remote `review` is on, and its review there.
    fn theirs(&self, review: &Review) -> Result<(Arc<Remote>, Theirs)> {
        let name = review.origin.remote().unwrap_or_default();
        let remote = self.get(name)?;
        let theirs = remote.mirror.theirs(review.id);
        let theirs = theirs.ok_or(ReviewError::NoSuchReview(review.id))?;
        Ok((remote, theirs))
    }

    fn get(&self, name: &str) -> Result<Arc<Remote>> {
        let remote = self.lock().get(name).cloned();
        Ok(remote.ok_or_else(|| WorkspaceError::NoSuchRemote(name.to_owned()))?)
    }

    /// `make`'s action asked of the remote `review` is on, about its review there (a turn
    /// review's files, one file, an undo; whether the file changed there).
    pub async fn ask_about<A: Act>(
        &self,
        review: &Review,
        make: impl FnOnce(ReviewId) -> A,
    ) -> Result<A::Reply> {
        let (remote, theirs) = self.theirs(review)?;
        decode::<A>(remote.ask(make(theirs.id).into()).await?)
    }

    /// `call` asked of remote `name`'s instance (`redline remote workspace`): its answer as it
    /// gave it.
    pub async fn ask(&self, name: &str, call: Call) -> Result<serde_json::Value> {
        self.get(name)?.ask(call).await
    }

    /// The user's `decision` on `review`, another machine's: sent there, and answered once it
    /// is applied, or not, or not within `DECIDE_WAIT` (it is then sent again on the next link).
    pub async fn decide(&self, review: &Review, decision: Decision) -> Result<()> {
        let (remote, theirs) = self.theirs(review)?;
        let name = remote.entry.name.as_str();
        let (call, outcome) = as_call(review, &theirs, decision)?;
        let answer = remote
            .unsettled
            .push(&theirs.run, call, review.id, outcome)?;
        let id = review.id;
        match tokio::time::timeout(DECIDE_WAIT, answer).await {
            Ok(Ok(Fate::Applied | Fate::AppliedBefore)) => {
                // LinkEnd here before the answer returns: a list right after no longer shows it.
                remote.mirror.decided(&self.queue, id, outcome);
                Ok(())
            }
            Ok(Ok(Fate::Gone { why })) => {
                let (remote, why) = (name.to_owned(), label(&why));
                Err(RemoteFailure::NotApplied { remote, id, why }.into())
            }
            Ok(Err(_)) | Err(_) => {
                let remote = name.to_owned();
                Err(RemoteFailure::Unanswered { remote, id }.into())
            }
        }
    }
}

/// `decision` on `review` as the remote's own action on its review `theirs`, checked here as
/// there (a superseded, read-only or empty accept, a reason or comments too long): what the
/// review here ends as when it is applied.
fn as_call(review: &Review, theirs: &Theirs, decision: Decision) -> Result<(Call, Outcome)> {
    let id = review.id;
    match decision {
        Decision::Accept { content, revision } => {
            if revision.is_some_and(|r| r != review.revision) {
                let file = review.file_path.clone();
                return Err(ReviewError::Superseded { id, file }.into());
            }
            let content = match (&review.read_only, content) {
                (Some(why), Some(_)) => {
                    let reason = why.to_string();
                    return Err(ReviewError::ReadOnly { id, reason }.into());
                }
                (Some(_), None) => None,
                (None, content) => Some(content.unwrap_or_else(|| review.current.clone())),
            };
            if content.as_deref() == Some("") {
                return Err(ReviewError::EmptyContent.into());
            }
            let accept = ReviewAccept {
                id: theirs.id,
                revision: Some(theirs.revision),
                content,
            };
            Ok((Call::ReviewAccept(accept), Outcome::Accepted))
        }
        Decision::Reject { reason, comments } => {
            crate::review::comment::compose(comments.clone(), reason.as_deref())?;
            let reject = ReviewReject {
                id: theirs.id,
                reason,
                comments: (!comments.is_empty()).then_some(comments),
            };
            Ok((Call::ReviewReject(reject), Outcome::Rejected))
        }
    }
}

/// Keeps `remote`'s link up until it is removed: made again after each end, the wait doubling
/// from `FIRST_RETRY` to `LAST_RETRY` (back to the first after a steady link).
async fn keep_up(remote: Arc<Remote>, queue: Arc<ReviewQueue>, beat: Beat, run: String) {
    let mut wait = FIRST_RETRY;
    let mut link = 0;
    loop {
        link += 1;
        let began = Instant::now();
        let up = || remote.set(LinkState::Connected, None);
        let ended = attached::run(&remote, &queue, (beat, &run), link, up).await;
        let (state, why) = match ended {
            LinkEnd::Stopped => return,
            LinkEnd::Failed(why) => (LinkState::Failed, why),
            LinkEnd::Dropped(why) => (LinkState::Reconnecting, why),
        };
        let why = label(&why);
        tracing::warn!(remote = %remote.entry.name, "link {state}: {why}");
        remote.set(state, Some(why));
        if began.elapsed() >= STEADY {
            wait = FIRST_RETRY;
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = remote.stop.cancelled() => return,
        }
        wait = (wait * 2).min(LAST_RETRY);
    }
}
