//! What the running Redline says of itself: each workspace (served, off, or its folder gone),
//! the keyring, and the editors connected.

use super::Instance;
use crate::api::status::{ContainerStatus, Status, WorkspaceStatus};

impl Instance {
    pub async fn status(&self) -> Status {
        let gone = self.check_folders().await;
        // Before the lock below: listing the editors takes it too.
        let editors = self.editor_channels().await;
        let state = self.state.lock().await;
        let workspaces = state
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
            .collect();
        Status {
            pid: self.world.pid,
            keyring: self.world.tokens.state().into(),
            workspaces,
            editors,
            window_problem: self.windows().problem().borrow().clone(),
            codex_ide: self.codex.status(),
            log_file: crate::platform::background::in_use(),
        }
    }
}
