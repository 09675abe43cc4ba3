//! Codex CLI's IDE socket, one per user and so the instance's (not a workspace's): Codex names its
//! folder, and the running workspace holding it answers with its editor context.

use super::Instance;
#[cfg(unix)]
use crate::protocols::codex_ipc::{FolderContext, Source};
#[cfg(unix)]
use std::path::PathBuf;
use std::sync::Arc;
#[cfg(unix)]
use std::sync::Weak;

impl Instance {
    /// Takes Codex's socket, unless it is unsafe or another listener holds it (said once, in the
    /// log), and serves it until shutdown.
    pub(super) fn serve_codex(self: &Arc<Self>) {
        #[cfg(unix)]
        {
            use crate::protocols::codex_ipc::{self, socket};
            let uid = crate::platform::own_user::own_uid();
            let path = socket::path(&self.world.dirs.tmp, uid);
            let bound = match socket::bind(&path, uid) {
                socket::Binding::Bound(b) => b,
                socket::Binding::Held(path) => {
                    // Coexisting as a provider behind that router is a follow-up.
                    tracing::info!(
                        "Codex's IDE socket {} is another program's (a Codex app or IDE \
                         extension): left alone, Codex asks that one",
                        path.display()
                    );
                    return;
                }
                socket::Binding::Refused(why) => {
                    tracing::warn!("Codex's IDE socket not served: {why}");
                    return;
                }
            };
            tracing::info!("Codex's IDE socket: {}", bound.path.display());
            let task =
                codex_ipc::serve(bound, source(Arc::downgrade(self)), self.codex_stop.clone());
            *self.codex_task() = Some(task);
        }
    }

    /// Stops Codex's socket and removes it.
    pub(super) async fn stop_codex(&self) {
        self.codex_stop.cancel();
        let task = self.codex_task().take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }

    fn codex_task(&self) -> std::sync::MutexGuard<'_, Option<tokio::task::JoinHandle<()>>> {
        self.codex_task.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the running workspace holding `root` has from the editor.
    #[cfg(unix)]
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
#[cfg(unix)]
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
