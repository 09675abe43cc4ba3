//! The workspaces' checkpoint stores (issue 39), one per workspace under the data folder, and
//! the turns running in them: begun at a CLI's prompt hook, ended at its end-of-turn hook (and
//! begun again when the user says Continue). Each store's git runs on a blocking thread, one
//! call at a time per store.

use crate::checkpoint::{Bounds, Checkpoint, CheckpointResult, Store, TurnRecord};
use crate::error::{Error, Result};
use crate::platform::clock::Clock;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

type Shared = Arc<Mutex<Store>>;

/// A CLI's session, as its hooks name it: `(cli id, session)`.
type SessionKey = (String, String);

/// The most sessions with a turn running that are followed: past it a new one is not recorded
/// (a CLI that never sends its end-of-turn hook cannot grow the map without bound).
const MAX_RUNNING: usize = 1024;

/// The checkpoint stores and the turns running.
pub struct Checkpoints {
    /// Redline's data folder: the stores are `<data>/checkpoints/<hash>` (`Store::dir_for`).
    data: PathBuf,
    /// The `git` program, found on `PATH`.
    git: PathBuf,
    clock: Arc<dyn Clock>,
    stores: tokio::sync::Mutex<HashMap<PathBuf, Shared>>,
    /// How much history each store keeps (the settings' `history`).
    bounds: Mutex<Bounds>,
    /// Each session's running turn: its workspace, the turn's id there, and whether its end is
    /// reviewed whole (`Running::whole`).
    running: Mutex<HashMap<SessionKey, Running>>,
    /// What a turn's review shows as its end once an undo was made there: the workspace after
    /// that undo, so the next undo checks the files against it (keyed by workspace and turn).
    shown: Mutex<HashMap<(PathBuf, u64), Checkpoint>>,
    /// A whole turn's first file, opened while its review was being shown (`turn_ahead::Ahead`).
    ahead: super::turn_ahead::AheadSlot,
}

/// A session's running turn.
#[derive(Clone)]
struct Running {
    root: PathBuf,
    id: u64,
    /// Its end is reviewed as one whole turn (its checkpoints): begun by the prompt hook, or by
    /// a Continue on a whole turn's review. A Continue on the edit tools' tabs (no prompt hook
    /// checkpointed the turn before) keeps those tabs for the turn after it.
    whole: bool,
    /// Begun by a Continue with these instructions, and no prompt hook has run for it yet: the
    /// CLI may run its prompt hook with them as the prompt (Gemini CLI's `BeforeAgent` does),
    /// which is this turn going on, not a new one.
    continued: Option<String>,
    /// The CLI's id of the prompt it runs for (`TurnStart::prompt_id`).
    prompt_id: Option<String>,
}

/// The most turns whose review's undos are remembered: past it the oldest are forgotten (their
/// review then shows the turn's end again, and an undo there is refused as changed since).
const MAX_SHOWN: usize = 64;

impl Checkpoints {
    pub fn new(data: PathBuf, clock: Arc<dyn Clock>) -> Checkpoints {
        Checkpoints {
            data,
            git: PathBuf::from("git"),
            clock,
            stores: Default::default(),
            bounds: Default::default(),
            running: Default::default(),
            shown: Default::default(),
            ahead: Default::default(),
        }
    }

    /// `root`'s store, opened (made on first use) once and kept.
    async fn store(&self, root: &Path) -> Result<Shared> {
        let mut stores = self.stores.lock().await;
        if let Some(s) = stores.get(root) {
            return Ok(s.clone());
        }
        let (git, data, ws) = (self.git.clone(), self.data.clone(), root.to_owned());
        let store = blocking(root, move || Store::open_in(&git, &data, &ws)).await?;
        let shared = Arc::new(Mutex::new(store));
        stores.insert(root.to_owned(), shared.clone());
        Ok(shared)
    }

    /// Sets how much history every store keeps, from each one's next turn end on.
    pub fn keep_within(&self, bounds: Bounds) {
        *self.bounds.lock().unwrap_or_else(PoisonError::into_inner) = bounds;
    }

    fn bounds(&self) -> Bounds {
        *self.bounds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the store of the workspace `root`, on a blocking thread.
    pub async fn with<T: Send + 'static>(
        &self,
        root: &Path,
        f: impl FnOnce(&mut Store) -> CheckpointResult<T> + Send + 'static,
    ) -> Result<T> {
        let store = self.store(root).await?;
        blocking(root, move || {
            // A panic mid-call leaves the store as git left it: its files are still whole.
            let mut store = store.lock().unwrap_or_else(PoisonError::into_inner);
            f(&mut store)
        })
        .await
    }

    /// Runs `f` on the store of the workspace `root` on a blocking thread, in the background:
    /// returns once it is started (a call of `with` made after it mostly finds `f` holding the
    /// store, and waits for it). What `f` fails with is logged.
    pub async fn start_with(
        &self,
        root: &Path,
        f: impl FnOnce(&mut Store) -> CheckpointResult<()> + Send + 'static,
    ) -> Result<()> {
        let store = self.store(root).await?;
        let root = root.to_owned();
        tokio::task::spawn_blocking(move || {
            let mut store = store.lock().unwrap_or_else(PoisonError::into_inner);
            if let Err(e) = f(&mut store) {
                tracing::debug!("in the background, {}'s store: {e}", root.display());
            }
        });
        Ok(())
    }

    /// The slot of the file a whole turn's review opened ahead (`turn_view::open_ahead`).
    pub(super) fn ahead(&self) -> super::turn_ahead::AheadSlot {
        self.ahead.clone()
    }

    /// A turn of `cli`'s `session` begins in the workspace `root` for the CLI's prompt
    /// `prompt_id` (if it names one): checkpointed and recorded, its end reviewed whole. A turn
    /// of that session still running ends here first.
    pub async fn begin(
        &self,
        root: &Path,
        (cli, session): (&str, &str),
        prompt_id: Option<String>,
    ) -> Result<TurnRecord> {
        self.begin_as(root, (cli, session), true, (None, prompt_id))
            .await
    }

    /// The id of `cli`'s `session`'s running turn when it runs for the CLI's prompt
    /// `prompt_id`: a prompt hook under that id is the turn going on, not a new one.
    pub fn for_same_prompt(&self, (cli, session): (&str, &str), prompt_id: &str) -> Option<u64> {
        let key: SessionKey = (cli.to_owned(), session.to_owned());
        let running = self.running();
        let turn = running.get(&key)?;
        (turn.prompt_id.as_deref() == Some(prompt_id)).then_some(turn.id)
    }

    /// As `begin`; `whole`: its end is reviewed as one whole turn (`Running::whole`);
    /// `continued`: the instructions of the Continue that begins it (`Running::continued`);
    /// `prompt_id`: the CLI's prompt it runs for (`Running::prompt_id`).
    pub async fn begin_as(
        &self,
        root: &Path,
        (cli, session): (&str, &str),
        whole: bool,
        (continued, prompt_id): (Option<String>, Option<String>),
    ) -> Result<TurnRecord> {
        let key: SessionKey = (cli.to_owned(), session.to_owned());
        let begun = self.begin_after(root, &key).await?;
        let mut running = self.running();
        match running.len() < MAX_RUNNING {
            true => drop(running.insert(
                key,
                Running {
                    root: root.to_owned(),
                    id: begun.id,
                    whole,
                    continued,
                    prompt_id,
                },
            )),
            false => tracing::warn!(
                "over {MAX_RUNNING} sessions with a turn running: {cli} session {session}'s \
                 turn {} will not be ended by its hook",
                begun.id
            ),
        }
        Ok(begun)
    }

    /// Begins `key`'s turn in `root`, after ending the one it still runs (its prompt came with
    /// no end hook before it: an interrupted turn). In the same workspace one checkpoint is both
    /// that turn's end and this one's start: the CLI waits on it.
    async fn begin_after(&self, root: &Path, key: &SessionKey) -> Result<TurnRecord> {
        let (cli, session) = key.clone();
        let unfinished = self.running().remove(key);
        let at = self.clock.now_ms();
        match unfinished {
            Some(r) if r.root == root => {
                let (c, s) = key.clone();
                let ended = self.with(root, move |st| st.end_and_begin(r.id, (&c, &s), at));
                let (ended, begun) = ended.await?;
                tracing::info!("{cli}'s turn {} ended with the next prompt", ended.id);
                Ok(begun)
            }
            other => {
                if let Some(r) = other {
                    // In another workspace: ended there, its own checkpoint.
                    self.running().insert(key.clone(), r);
                    if let Some(Err(e)) = self.end(&cli, &session).await {
                        tracing::warn!(
                            "{cli} session {session}'s previous turn did not end well: {e}"
                        );
                    }
                }
                self.with(root, move |st| st.begin_turn(&cli, &session, at))
                    .await
            }
        }
    }

    /// The id of `cli`'s `session`'s running turn when a Continue with `prompt` as its
    /// instructions began it and no prompt hook ran for it yet: that prompt hook is the turn
    /// going on (it is taken: the next prompt hook begins a new turn), and from then on it runs
    /// for the CLI's prompt `prompt_id`.
    pub fn continued(
        &self,
        (cli, session): (&str, &str),
        prompt: &str,
        prompt_id: Option<String>,
    ) -> Option<u64> {
        let key: SessionKey = (cli.to_owned(), session.to_owned());
        let mut running = self.running();
        let turn = running.get_mut(&key)?;
        match turn.continued.as_deref() == Some(prompt) {
            true => {
                turn.continued = None;
                turn.prompt_id = prompt_id;
                Some(turn.id)
            }
            false => None,
        }
    }

    /// `cli`'s `session`'s running turn ends now; `None`: it has none.
    pub async fn end(&self, cli: &str, session: &str) -> Option<Result<TurnRecord>> {
        Some(self.end_as(cli, session).await?.0)
    }

    /// As `end`, with whether the turn's end is reviewed whole (`Running::whole`).
    pub async fn end_as(&self, cli: &str, session: &str) -> Option<(Result<TurnRecord>, bool)> {
        let key: SessionKey = (cli.to_owned(), session.to_owned());
        let Running {
            root, id, whole, ..
        } = self.running().remove(&key)?;
        let at = self.clock.now_ms();
        // The bounds as set now: the settings may have changed since the store was opened.
        let bounds = self.bounds();
        let ended = self.with(&root, move |st| {
            st.keep_within(bounds);
            let ended = st.end_turn(id, at)?;
            // A whole turn's review prunes once its first file is open (`turn_view::open_ahead`),
            // off the way to the window; the edit tools' review has no such moment.
            if !whole {
                st.prune_if_due()?;
            }
            Ok(ended)
        });
        Some((ended.await, whole))
    }

    /// What turn `id`'s review in `root` shows as the turn's end, when an undo changed it.
    pub fn shown(&self, root: &Path, id: u64) -> Option<Checkpoint> {
        let shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
        shown.get(&(root.to_owned(), id)).cloned()
    }

    /// Turn `id`'s review in `root` shows `now` from here on (an undo was made there).
    pub fn set_shown(&self, root: &Path, id: u64, now: Checkpoint) {
        let mut shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
        if shown.len() >= MAX_SHOWN && !shown.contains_key(&(root.to_owned(), id)) {
            shown.clear();
        }
        shown.insert((root.to_owned(), id), now);
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<SessionKey, Running>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(all(test, unix))]
impl Checkpoints {
    /// Runs `git` as the `git` program (a test's wrapper that counts what runs).
    fn with_git(mut self, git: PathBuf) -> Checkpoints {
        self.git = git;
        self
    }
}

#[cfg(all(test, unix))]
#[path = "checkpoints_tests.rs"]
mod tests;

/// Runs `f` (git, files) on tokio's blocking threads.
async fn blocking<T: Send + 'static>(
    root: &Path,
    f: impl FnOnce() -> CheckpointResult<T> + Send + 'static,
) -> Result<T> {
    match tokio::task::spawn_blocking(f).await {
        Ok(done) => Ok(done?),
        // Only a panic or the runtime shutting down: said as the store's failure.
        Err(e) => Err(Error::io(root, std::io::Error::other(e))),
    }
}

/// The settings' history as the stores' bounds.
impl From<crate::workspace::settings::HistoryBounds> for Bounds {
    fn from(h: crate::workspace::settings::HistoryBounds) -> Bounds {
        Bounds {
            turns: h.turns.max(1) as usize,
            bytes: u64::from(h.mib.max(1)) << 20,
        }
    }
}
