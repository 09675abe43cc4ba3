//! The workspaces and their servers: the config, a running companion for each enabled workspace
//! whose folder is there, the enabled ones whose folder is gone, and the settings saved with them.
//! One part of the instance, with its own lock; the other parts reach a workspace's service
//! through it (`services.rs`), never its companions.

use super::World;
use crate::error::{Error, Result};
use crate::net::limits::Limits;
use crate::review::{Review, ReviewQueue};
use crate::runtime::bridge::ContainerPlan;
use crate::runtime::companion::{Companion, Setup, Stopping};
use crate::workspace::config::{self, Config};
use crate::workspace::container;
use crate::workspace::settings::Settings;
use crate::workspace::WorkspaceError;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::sync::Mutex;

mod containers;
mod missing;
mod services;
mod settings;
mod status;
mod token;

pub(crate) use services::not_held;

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

/// The configured workspaces, each enabled one served by its companion.
pub struct Workspaces {
    world: Arc<World>,
    limits: Limits,
    /// Where every companion's service queues its reviews.
    reviews: Arc<ReviewQueue>,
    /// Held only for quick work (config, binding, files): never across an await on a peer, so
    /// no surface waits on how fast a CLI reads. Decisions do not take it at all.
    state: Mutex<State>,
    /// Says the workspaces changed (`changes`), whoever changed them.
    changed: tokio::sync::watch::Sender<()>,
    /// The config's settings as last saved, readable without `state`'s lock.
    settings: std::sync::RwLock<Settings>,
}

impl Workspaces {
    /// The workspaces of `config`, none started yet (`start_enabled`).
    pub(super) fn new(
        world: Arc<World>,
        limits: Limits,
        reviews: Arc<ReviewQueue>,
        config: Config,
    ) -> Workspaces {
        Workspaces {
            world,
            limits,
            reviews,
            settings: std::sync::RwLock::new(config.settings.clone()),
            state: Mutex::new(State {
                config,
                companions: BTreeMap::new(),
                missing: BTreeSet::new(),
            }),
            changed: tokio::sync::watch::Sender::new(()),
        }
    }

    /// Starts every enabled workspace; one that fails is said in the log and left off.
    pub(super) async fn start_enabled(&self) {
        let mut state = self.state.lock().await;
        let enabled: Vec<PathBuf> = (state.config.workspaces.iter())
            .filter(|w| w.enabled)
            .map(|w| w.path.clone())
            .collect();
        for path in enabled {
            match self.start_companion(&mut state, &path).await {
                Ok(()) => {}
                Err(e @ Error::Workspace(WorkspaceError::FolderGone(_))) => tracing::warn!("{e}"),
                Err(e) => tracing::error!("workspace {} not started: {e}", path.display()),
            }
        }
    }

    /// The world the workspaces run in.
    pub(crate) fn world(&self) -> &World {
        &self.world
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
    pub async fn add(&self, path: &Path, force: bool) -> Result<PathBuf> {
        let mut state = self.state.lock().await;
        let path = state
            .config
            .add_folder(path, force, &self.world.dirs.home)?;
        self.save(&state)?;
        self.start_companion(&mut state, &path).await?;
        Ok(path)
    }

    pub async fn remove(&self, path: &Path) -> Result<PathBuf> {
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

    /// Changes the stored config with `change`, and saves it: what starts or stops no server
    /// (the remotes).
    pub async fn change_config<T>(
        &self,
        change: impl FnOnce(&mut Config) -> Result<T>,
    ) -> Result<T> {
        let mut state = self.state.lock().await;
        let value = change(&mut state.config)?;
        self.save(&state)?;
        Ok(value)
    }

    /// The configured workspaces, as the config has them.
    pub async fn list(&self) -> Vec<config::WorkspaceEntry> {
        self.state.lock().await.config.workspaces.clone()
    }

    /// Changes when a workspace is added, removed, turned on or off, its folder goes or comes
    /// back, or its token or containers change: from any surface (a command, the tray).
    pub fn changes(&self) -> tokio::sync::watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// Stops every companion: its servers closed, its discovery files removed.
    pub(super) async fn stop_all(&self) {
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
async fn finish(stopping: Option<Stopping>) {
    if let Some(s) = stopping {
        s.finished().await;
    }
}
