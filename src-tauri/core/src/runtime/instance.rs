//! The running Redline: its workspaces and their companions, the review queue, and every action a
//! surface (the command line, the tray, the review window) can take on them.

use crate::api::status::Pin;
use crate::discovery;
use crate::error::{Error, Result};
use crate::net::limits::Limits;
use crate::platform::dirs::Dirs;
use crate::review::{Review, ReviewQueue};
use crate::runtime::bridge::ContainerPlan;
use crate::runtime::companion::{Companion, Setup};
use crate::workspace::config::{self, Config};
use crate::workspace::container::{self, RunArgs};
use crate::workspace::WorkspaceError;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

mod batch;
mod codex;
mod codex_channel;
mod editor;
mod folders;
pub mod hook;
pub mod local;
mod missing;
mod reviews;
mod settings;
mod status;
mod token;
pub mod turn;
mod world;

pub use world::World;

struct State {
    config: Config,
    companions: BTreeMap<PathBuf, Companion>,
    /// Enabled workspaces not served because their folder is gone (`missing.rs`).
    missing: BTreeSet<PathBuf>,
}

impl State {
    /// The running companion of the review's workspace; a turned-off workspace has none.
    fn companion_of(&self, review: &Review) -> Result<&Companion> {
        self.companions
            .get(&review.workspace)
            .ok_or_else(|| WorkspaceError::WorkspaceOff(review.workspace.clone()).into())
    }
}

pub struct Instance {
    world: World,
    limits: Limits,
    reviews: Arc<ReviewQueue>,
    /// Held only for quick work (config, binding, files): never across an await on a peer, so
    /// no surface waits on how fast a CLI reads. Decisions do not take it at all.
    state: Mutex<State>,
    quit: CancellationToken,
    /// Asks a surface to show the reviews (a second launch, the tray, a command).
    show: tokio::sync::broadcast::Sender<()>,
    /// Says the workspaces changed (`changes`), whoever changed them.
    changed: tokio::sync::watch::Sender<()>,
    /// The open editor channels by id (ids grow, so oldest first).
    editors: std::sync::Mutex<BTreeMap<u64, crate::api::status::EditorChannel>>,
    /// The review windows attached to the channel, and the requests to show one.
    windows: crate::runtime::window::hub::WindowHub,
    /// The config's settings as last saved, readable without `state`'s lock.
    settings: std::sync::RwLock<crate::workspace::settings::Settings>,
    /// Codex CLI's IDE socket (one per user, so the instance's and no workspace's).
    codex: codex_channel::CodexChannel,
    /// What each CLI session's turn has touched, for its end-of-turn review (`--turn-review`).
    turns: crate::review::turn::Turns,
}

impl Instance {
    /// Cleans up what a crashed run left, then starts every enabled workspace.
    pub async fn start(world: World) -> Result<Arc<Instance>> {
        Self::start_with_limits(world, Limits::default()).await
    }

    /// As `start`, with other bounds for every server (tests use small ones).
    pub async fn start_with_limits(world: World, limits: Limits) -> Result<Arc<Instance>> {
        if let Some(n) = crate::net::accept::raise_fd_limit() {
            tracing::debug!("open-file limit {n}");
        }
        let mut swept = discovery::sweep_stale(&world.dirs, world.procs.as_ref(), world.pid);
        swept.extend(discovery::sweep_containers(&world.dirs));
        #[cfg(unix)]
        swept.extend(crate::protocols::copilot::sweep(&world.dirs.runtime));
        for f in &swept {
            tracing::info!("removed stale discovery file {}", f.display());
        }
        let config = Config::load(&world.dirs.config_file())?;
        let reviews = Arc::new(ReviewQueue::new(world.clock.clone()));
        let instance = Arc::new(Instance {
            world,
            limits,
            reviews,
            state: Mutex::new(State {
                config: config.clone(),
                companions: BTreeMap::new(),
                missing: BTreeSet::new(),
            }),
            quit: CancellationToken::new(),
            show: tokio::sync::broadcast::channel(4).0,
            changed: tokio::sync::watch::Sender::new(()),
            editors: Default::default(),
            windows: Default::default(),
            settings: std::sync::RwLock::new(config.settings.clone()),
            codex: Default::default(),
            turns: Default::default(),
        });
        for entry in config.workspaces.iter().filter(|w| w.enabled) {
            let mut state = instance.state.lock().await;
            match instance.start_companion(&mut state, &entry.path).await {
                Ok(()) => {}
                Err(e @ Error::Workspace(WorkspaceError::FolderGone(_))) => tracing::warn!("{e}"),
                Err(e) => tracing::error!("workspace {} not started: {e}", entry.path.display()),
            }
        }
        instance.follow_folders();
        instance.serve_codex();
        Ok(instance)
    }

    pub fn reviews(&self) -> &Arc<ReviewQueue> {
        &self.reviews
    }

    pub fn dirs(&self) -> &Dirs {
        &self.world.dirs
    }

    pub(super) fn token_store(&self) -> &'static str {
        if self.world.tokens.state().available {
            "keyring"
        } else {
            "memory"
        }
    }

    /// Runs under the state lock: it binds and writes files, and waits on no peer.
    async fn start_companion(&self, state: &mut State, path: &Path) -> Result<()> {
        if state.companions.contains_key(path) {
            return Ok(());
        }
        if !path.is_dir() {
            state.missing.insert(path.to_owned());
            return Err(WorkspaceError::FolderGone(path.to_owned()).into());
        }
        state.missing.remove(path);
        let entry = state
            .config
            .find(path)
            .ok_or_else(|| WorkspaceError::NoSuchWorkspace(path.to_owned()))?;
        let token = self.world.tokens.token_for(&path.to_string_lossy())?;
        let plan = entry.containers.as_ref().map(|c| ContainerPlan {
            address: container::bridge_address(c.address, self.world.interfaces.as_ref())
                .map_err(|e| e.to_string()),
            paths: c.paths.clone(),
        });
        let setup = Setup {
            trusted: entry.trusted,
            limits: self.limits,
            containers: plan.as_ref(),
        };
        let companion = Companion::start(
            crate::workspace::Workspace::new(path.to_owned()),
            setup,
            token,
            self.reviews.clone(),
            &self.world.dirs,
            self.world.pid,
        )
        .await?;
        state.companions.insert(path.to_owned(), companion);
        Ok(())
    }

    /// Saves the config; what shows the workspaces (the tray) hears of it.
    fn save(&self, state: &State) -> Result<()> {
        let saved = state.config.save(&self.world.dirs.config_file());
        self.changed.send_replace(());
        saved
    }

    /// Adds and starts a workspace; `/`, the home folder or a folder around other workspaces
    /// only with `force`.
    pub async fn add_workspace(&self, path: &Path, force: bool) -> Result<PathBuf> {
        let mut state = self.state.lock().await;
        let path = state
            .config
            .add_folder(path, force, &self.world.dirs.home)?;
        self.save(&state)?;
        self.start_companion(&mut state, &path).await?;
        Ok(path)
    }

    pub async fn remove_workspace(&self, path: &Path) -> Result<PathBuf> {
        let (path, stopping) = {
            let mut state = self.state.lock().await;
            let path = state.config.remove_named(path)?;
            self.save(&state)?;
            let stopping = state.companions.remove(&path).map(Companion::halt);
            state.missing.remove(&path);
            // Under the lock: the same workspace added again meanwhile gets a new token.
            self.world.forget_token(&path);
            (path, stopping)
        };
        finish(stopping).await;
        Ok(path)
    }

    /// Turns a workspace on (server started, files written) or off (stopped, files removed).
    pub async fn set_enabled(&self, path: &Path, enabled: bool) -> Result<()> {
        let stopping = {
            let mut state = self.state.lock().await;
            let path = state.config.set_enabled(path, enabled)?;
            self.save(&state)?;
            if enabled {
                return self.start_companion(&mut state, &path).await;
            }
            state.missing.remove(&path);
            state.companions.remove(&path).map(Companion::halt)
        };
        finish(stopping).await;
        Ok(())
    }

    /// Turns containers on (listening on `address`, else the bridge's) or off for a workspace,
    /// persisted; a running server restarts with it (connected CLIs reconnect with `/ide enable`).
    /// Enabling again retries when the bridge could not be used.
    pub async fn set_containers(
        &self,
        path: &Path,
        on: bool,
        address: Option<std::net::Ipv4Addr>,
    ) -> Result<PathBuf> {
        let mut state = self.state.lock().await;
        let (path, next) = state
            .config
            .containers_turned(path, on, address, self.world.interfaces.as_ref())
            .await?;
        // The same again is a no-op, unless containers could not reach it (the bridge was missing
        // at start): then it is a retry.
        let failing = state
            .companions
            .get(&path)
            .is_some_and(|c| c.container_error().is_some());
        if !state.config.set_containers(&path, next) && !failing {
            return Ok(path);
        }
        self.save(&state)?;
        let Some(old) = state.companions.remove(&path) else {
            return Ok(path);
        };
        let stopping = old.halt();
        let started = self.start_companion(&mut state, &path).await;
        drop(state);
        finish(Some(stopping)).await;
        started.map(|()| path)
    }

    /// The `docker run` arguments for a container of the workspace holding `path`, seeing it at
    /// `container_path` (default: its own path); a new container path is mapped and announced.
    pub async fn container_args(
        &self,
        path: &Path,
        container_path: Option<&str>,
        home: &str,
    ) -> Result<RunArgs> {
        let mut state = self.state.lock().await;
        let ws = state.config.innermost(path)?;
        let listening = state
            .companions
            .get(&ws)
            .and_then(|c| c.container_endpoint());
        let (args, added) = container::run_args(
            state.config.containers_mut(&ws)?,
            &self.world.dirs,
            self.world.interfaces.as_ref(),
            &ws,
            container_path,
            home,
            listening,
        )?;
        if let Some(cp) = added {
            self.save(&state)?;
            if let Some(c) = state.companions.get_mut(&ws) {
                c.add_container_path(cp, &self.world.dirs);
            }
        }
        Ok(args)
    }

    pub async fn workspaces(&self) -> Vec<config::WorkspaceEntry> {
        self.state.lock().await.config.workspaces.clone()
    }

    /// The pin for the enabled workspace holding `path`.
    pub async fn pin(&self, path: &Path) -> Result<Pin> {
        let state = self.state.lock().await;
        let resolved = dunce::canonicalize(path).map_err(|e| Error::io(path, e))?;
        let c = state
            .companions
            .values()
            .filter(|c| {
                c.service
                    .workspace
                    .roots
                    .iter()
                    .any(|r| resolved.starts_with(r))
            })
            .max_by_key(|c| c.service.workspace.id().as_os_str().len())
            .ok_or_else(|| WorkspaceError::NotInWorkspace(resolved.clone()))?;
        Ok(c.pin())
    }

    /// Asks whichever surface runs to show the reviews; false if none listens (headless).
    pub fn request_show(&self) -> bool {
        self.show.send(()).is_ok()
    }

    pub fn windows(&self) -> &crate::runtime::window::hub::WindowHub {
        &self.windows
    }

    pub fn show_requests(&self) -> tokio::sync::broadcast::Receiver<()> {
        self.show.subscribe()
    }

    /// Changes when a workspace is added, removed, turned on or off, its folder goes or comes
    /// back, or its token or containers change: from any surface (a command, the tray).
    pub fn changes(&self) -> tokio::sync::watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// Asks the process to stop; `quit_requested` resolves.
    pub fn request_quit(&self) {
        self.quit.cancel();
    }

    pub async fn quit_requested(&self) {
        self.quit.cancelled().await
    }

    /// Stops every server and removes every discovery file.
    pub async fn shutdown(&self) {
        self.codex.stop().await;
        let stopping: Vec<_> = {
            let mut state = self.state.lock().await;
            let companions = std::mem::take(&mut state.companions);
            companions.into_values().map(Companion::halt).collect()
        };
        // All were told at once, so this waits for the slowest, not the sum.
        for s in stopping {
            s.finished().await;
        }
    }
}

/// Waits, holding no lock, for a stopped companion's peers to go (each bounded by
/// `limits::DRAIN`).
async fn finish(stopping: Option<crate::runtime::companion::Stopping>) {
    if let Some(s) = stopping {
        s.finished().await;
    }
}
