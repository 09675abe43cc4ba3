//! A workspace's containers: turned on or off (its server restarted with them), and the
//! `docker run` arguments for one of its containers.

use super::{finish, Workspaces};
use crate::error::Result;
use crate::workspace::container::{self, RunArgs};
use std::path::{Path, PathBuf};

impl Workspaces {
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
}
