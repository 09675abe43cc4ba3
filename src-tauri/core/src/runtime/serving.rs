//! A serving Redline: its control channel bound first (a second instance stops there, before
//! touching any file), its enabled workspaces started, and the signals that stop it.

use crate::error::{Error, Result};
use crate::platform::dirs::Dirs;
use crate::platform::stop::StopSignals;
use crate::runtime::control;
use crate::runtime::instance::{Instance, World};
use std::sync::Arc;

pub struct Serving {
    pub instance: Arc<Instance>,
    /// Ctrl+C and SIGTERM, listened for from before the servers start.
    pub signals: StopSignals,
}

impl Serving {
    /// Binds the control channel, then starts the instance `world` makes (made only once the
    /// channel is ours) and answers commands. `Error::AlreadyRunning` if another instance answers.
    /// Must run inside the Tokio runtime that will serve.
    pub async fn start(dirs: &Dirs, world: impl FnOnce() -> World) -> Result<Serving> {
        let listener = control::bind(dirs).await?;
        let signals = StopSignals::install().map_err(|e| Error::io("signals", e))?;
        let instance = Instance::start(world()).await?;
        tokio::spawn(control::serve(instance.clone(), listener));
        Ok(Serving { instance, signals })
    }

    /// Serves until a stop signal or `redline quit`, then stops every server and removes every
    /// discovery file.
    pub async fn until_stopped(mut self) {
        tokio::select! {
            _ = self.signals.recv() => {}
            _ = self.instance.quit_requested() => {}
        }
        tracing::info!("stopping: servers down, discovery files removed");
        self.instance.shutdown().await;
    }
}
