//! Redline on Codex CLI's IDE socket (one per user): serving it as the router, or answering
//! behind another program's router until it goes; what Redline is there, for status and doctor.

use crate::api::status::{CodexIde, CodexRole};
use crate::protocols::codex_ipc::{self, provider, Binding, Source};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Redline on Codex's IDE socket: the task serving it, what Redline is there (for status and
/// doctor), and the stop it obeys. Its own state: the instance only starts, asks and stops it.
#[derive(Default)]
pub(super) struct CodexChannel {
    task: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
    role: Arc<std::sync::Mutex<Option<CodexIde>>>,
    stop: tokio_util::sync::CancellationToken,
}

impl CodexChannel {
    /// Takes Codex's socket at `path` (its named pipe on Windows), unless it is unsafe (said
    /// once, in the log), and serves it with `source` until `stop`; when another program's
    /// router holds it, Redline answers behind that router, and takes the socket when the
    /// router goes.
    pub(super) fn serve(&self, path: PathBuf, source: Source) {
        let cancel = self.stop.clone();
        let role = Role {
            path: path.clone(),
            now: self.role.clone(),
        };
        let task = match codex_ipc::bind(&path) {
            Binding::Bound(b) => {
                tracing::info!("Codex's IDE socket: {}", path.display());
                role.set(CodexRole::Router);
                codex_ipc::serve(b, source, cancel)
            }
            Binding::Held(_) => tokio::spawn(behind_router(path, source, cancel, role)),
            Binding::Refused(why) => {
                tracing::warn!("Codex's IDE socket not served: {why}");
                role.refused(why);
                return;
            }
        };
        *self.task() = Some(task);
    }

    /// What Redline is on Codex's IDE socket.
    pub(super) fn status(&self) -> Option<CodexIde> {
        self.role.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Stops serving Codex's socket and removes it.
    pub(super) async fn stop(&self) {
        self.stop.cancel();
        let task = self.task().take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }

    fn task(&self) -> std::sync::MutexGuard<'_, Option<tokio::task::JoinHandle<()>>> {
        self.task.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Serves behind the router holding `path` for as long as there is one; once it is gone, takes
/// the socket and serves it.
async fn behind_router(
    path: PathBuf,
    source: Source,
    cancel: tokio_util::sync::CancellationToken,
    role: Role,
) {
    loop {
        match codex_ipc::bind(&path) {
            Binding::Bound(b) => {
                tracing::info!("Codex's IDE socket: {} (its router went)", path.display());
                role.set(CodexRole::Router);
                let _ = codex_ipc::serve(b, source, cancel).await;
                return;
            }
            Binding::Held(_) => {
                role.set(CodexRole::Provider);
                tracing::info!(
                    "Codex's IDE socket {} is another program's router (a Codex app or IDE \
                     extension): Redline answers behind it",
                    path.display()
                );
                match provide(&path, source.clone(), cancel.clone()).await {
                    provider::Ended::Stopped => return,
                    provider::Ended::RouterGone(why) => {
                        tracing::info!("Codex's IDE router went: {why}")
                    }
                    provider::Ended::Refused(why) => {
                        tracing::warn!("Codex's IDE router not joined: {why}")
                    }
                }
            }
            Binding::Refused(why) => {
                tracing::warn!("Codex's IDE socket not served: {why}");
                role.refused(why);
                return;
            }
        }
        // A router that closes at once (or a socket that keeps failing) is retried gently.
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
        }
    }
}

/// One turn as a provider: joins the router on `path` (if it is this user's) and answers it.
async fn provide(
    path: &Path,
    source: Source,
    cancel: tokio_util::sync::CancellationToken,
) -> provider::Ended {
    match codex_ipc::join(path).await {
        Ok(stream) => provider::provide(stream, source, cancel).await,
        Err(why) => provider::Ended::Refused(why),
    }
}

/// Where Redline notes what it is on Codex's socket.
struct Role {
    path: PathBuf,
    now: Arc<std::sync::Mutex<Option<CodexIde>>>,
}

impl Role {
    fn set(&self, role: CodexRole) {
        self.put(CodexIde::new(self.path.clone(), role));
    }

    fn refused(&self, why: String) {
        self.put(CodexIde::not_served(self.path.clone(), why));
    }

    fn put(&self, ide: CodexIde) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = Some(ide);
    }
}
