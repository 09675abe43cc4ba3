//! The workspaces' checkpoint stores (issue 39), one per workspace under the data folder, and
//! the turns running in them: begun at a CLI's prompt hook, ended at its end-of-turn hook (and
//! begun again when the user says Continue). Each store's git runs on a blocking thread, one
//! call at a time per store.

use crate::checkpoint::{CheckpointResult, Store, TurnRecord};
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
    /// Each session's running turn: its workspace and the turn's id there.
    running: Mutex<HashMap<SessionKey, (PathBuf, u64)>>,
}

impl Checkpoints {
    pub fn new(data: PathBuf, clock: Arc<dyn Clock>) -> Checkpoints {
        Checkpoints {
            data,
            git: PathBuf::from("git"),
            clock,
            stores: Default::default(),
            running: Default::default(),
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

    /// A turn of `cli`'s `session` begins in the workspace `root`: checkpointed and recorded.
    /// A turn of that session still running (no end-of-turn hook came) ends here first.
    pub async fn begin(&self, root: &Path, cli: &str, session: &str) -> Result<TurnRecord> {
        let key: SessionKey = (cli.to_owned(), session.to_owned());
        if let Some(Err(e)) = self.end(cli, session).await {
            tracing::warn!("{cli} session {session}'s previous turn did not end well: {e}");
        }
        let at = self.clock.now_ms();
        let (c, s) = key.clone();
        let begun = self.with(root, move |st| st.begin_turn(&c, &s, at)).await?;
        let mut running = self.running();
        match running.len() < MAX_RUNNING {
            true => drop(running.insert(key, (root.to_owned(), begun.id))),
            false => tracing::warn!(
                "over {MAX_RUNNING} sessions with a turn running: {cli} session {session}'s \
                 turn {} will not be ended by its hook",
                begun.id
            ),
        }
        Ok(begun)
    }

    /// `cli`'s `session`'s running turn ends now; `None`: it has none.
    pub async fn end(&self, cli: &str, session: &str) -> Option<Result<TurnRecord>> {
        let key: SessionKey = (cli.to_owned(), session.to_owned());
        let (root, id) = self.running().remove(&key)?;
        let at = self.clock.now_ms();
        Some(self.with(&root, move |st| st.end_turn(id, at)).await)
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<SessionKey, (PathBuf, u64)>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

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
