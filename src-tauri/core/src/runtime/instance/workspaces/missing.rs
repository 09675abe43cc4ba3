//! Workspaces whose folder is gone: not served (their discovery files removed, so no CLI finds a
//! server for a folder that is not there), shown as missing, and served again if it comes back.

use super::{finish, Workspaces};
use crate::workspace::WorkspaceError;
use std::collections::BTreeSet;
use std::path::PathBuf;

impl Workspaces {
    /// Stops each workspace whose folder is gone and starts each missing one whose folder is
    /// back; returns the configured workspaces whose folder is gone now. Run when Redline starts,
    /// at every `status`, and with each look at the session folders (`folders::POLL`), so one
    /// deleted while Redline runs stops being announced within a second.
    pub(crate) async fn check_folders(&self) -> BTreeSet<PathBuf> {
        let paths: Vec<PathBuf> = {
            let state = self.state.lock().await;
            state
                .config
                .workspaces
                .iter()
                .map(|w| w.path.clone())
                .collect()
        };
        // A stat per workspace, off the runtime: a dead network mount may take its time.
        let gone = tokio::task::spawn_blocking(move || {
            paths
                .into_iter()
                .filter(|p| !p.is_dir())
                .collect::<BTreeSet<_>>()
        })
        .await
        .unwrap_or_default();
        let mut stopping = Vec::new();
        let changed;
        {
            let mut state = self.state.lock().await;
            for path in &gone {
                if let Some(c) = state.companions.remove(path) {
                    tracing::warn!("{}", WorkspaceError::FolderGone(path.clone()));
                    stopping.push(c.halt());
                    state.missing.insert(path.clone());
                }
            }
            let back: Vec<PathBuf> = state
                .missing
                .iter()
                .filter(|p| !gone.contains(*p))
                .filter(|p| state.config.find(p).is_some_and(|w| w.enabled))
                .cloned()
                .collect();
            changed = !stopping.is_empty() || !back.is_empty();
            for path in back {
                match self.start_companion(&mut state, &path).await {
                    Ok(()) => {
                        tracing::info!("the folder of {} is back: served again", path.display())
                    }
                    Err(e) => tracing::error!("workspace {} not started: {e}", path.display()),
                }
                state.missing.remove(&path);
            }
        }
        if changed {
            self.changed.send_replace(());
        }
        for s in stopping {
            finish(Some(s)).await;
        }
        gone
    }
}
