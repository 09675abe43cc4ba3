//! What each configured workspace says of itself: served (its companion's status), off, or its
//! folder gone.

use super::Workspaces;
use crate::api::status::{ContainerStatus, WorkspaceStatus};
use std::collections::BTreeSet;
use std::path::PathBuf;

impl Workspaces {
    /// Each configured workspace's status; `gone`: those whose folder is gone
    /// (`check_folders`).
    pub(crate) async fn status(&self, gone: &BTreeSet<PathBuf>) -> Vec<WorkspaceStatus> {
        let state = self.state.lock().await;
        state
            .config
            .workspaces
            .iter()
            .map(|w| match state.companions.get(&w.path) {
                Some(c) => c.status(self.token_store()),
                None => WorkspaceStatus {
                    path: w.path.clone(),
                    enabled: w.enabled,
                    missing: gone.contains(&w.path),
                    port: None,
                    ws_port: None,
                    amp_port: None,
                    token_store: self.token_store().into(),
                    discovery_files: vec![],
                    discovery_failures: vec![],
                    discovery_gone: vec![],
                    clients: vec![],
                    pending_reviews: 0,
                    containers: w
                        .containers
                        .as_ref()
                        .map(|c| ContainerStatus::not_listening(c.address, c.paths.clone())),
                },
            })
            .collect()
    }
}
