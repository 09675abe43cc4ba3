//! Codex CLI's IDE socket, one per user and so the instance's (not a workspace's): Codex names its
//! folder, and the running workspace holding it answers with its editor context.

use super::Instance;
use crate::protocols::codex_ipc::{FolderContext, Source};
use std::path::PathBuf;
use std::sync::{Arc, Weak};

impl Instance {
    /// Serves Codex's IDE socket from the world's path, answering from this instance's
    /// workspaces (held weakly: the socket never keeps a stopped instance alive).
    pub(super) fn serve_codex(self: &Arc<Self>) {
        self.codex
            .serve(self.world.codex_ipc.clone(), source(Arc::downgrade(self)));
    }

    /// What the running workspace holding `root` has from the editor.
    async fn codex_context(&self, root: PathBuf) -> FolderContext {
        let Ok(root) = dunce::canonicalize(&root) else {
            return FolderContext::NoWorkspace;
        };
        let services = self.services().await;
        let holder = services
            .iter()
            .filter(|s| s.workspace.roots.iter().any(|r| root.starts_with(r)))
            .max_by_key(|s| s.workspace.id().as_os_str().len());
        match holder.map(|s| s.editor.get()) {
            None => FolderContext::NoWorkspace,
            Some(None) => FolderContext::NoEditor,
            Some(Some(state)) => FolderContext::Editor { root, state },
        }
    }
}

/// The instance's lookup, held weakly: the socket never keeps a stopped instance alive.
fn source(instance: Weak<Instance>) -> Source {
    Arc::new(move |root| {
        let instance = instance.clone();
        Box::pin(async move {
            match instance.upgrade() {
                Some(i) => i.codex_context(root).await,
                None => FolderContext::NoWorkspace,
            }
        })
    })
}
