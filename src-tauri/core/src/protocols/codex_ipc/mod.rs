//! Codex CLI's IDE channel: after `/ide on`, Codex connects to a unix socket the IDE side owns
//! (one per user) before each message and asks `ide-context` for its working folder. Redline
//! answers from the editor context its editor plugins sent (the editor never talks to Codex).

pub mod frame;
#[cfg(unix)]
pub mod socket;
pub mod wire;

use crate::review::editor::EditorState;
use futures::future::BoxFuture;
use std::path::PathBuf;
use std::sync::Arc;

/// What Redline knows for the folder Codex runs in.
#[derive(Debug)]
pub enum FolderContext {
    /// No running workspace holds it.
    NoWorkspace,
    /// A workspace holds it, but no editor has said what it shows there.
    NoEditor,
    /// The workspace's editor state; `root` is Codex's folder as resolved on this host.
    Editor { root: PathBuf, state: EditorState },
}

/// Looks up a Codex folder (as Codex sent it); the runtime gives one.
pub type Source = Arc<dyn Fn(PathBuf) -> BoxFuture<'static, FolderContext> + Send + Sync>;

/// Error codes Codex knows: for the first it tells the user to open the project in an IDE, for
/// the others that the IDE gave no context; `/ide on` then stays off, a message goes without.
pub const NO_WORKSPACE: &str = "no-client-found";
pub const NO_HANDLER: &str = "no-handler-for-request";
pub const BAD_PARAMS: &str = "invalid-params";

#[cfg(unix)]
pub use serve::serve;

#[cfg(unix)]
mod serve {
    use super::frame::{self, FrameError};
    use super::socket::BoundSocket;
    use super::wire::{self, IdeContext, IdeContextResult, Incoming, Initialized};
    use super::{FolderContext, Source, BAD_PARAMS, NO_HANDLER, NO_WORKSPACE};
    use std::path::PathBuf;
    use std::sync::Arc;
    use tokio::net::UnixStream;
    use tokio::sync::Semaphore;
    use tokio_util::sync::CancellationToken;

    /// Connections served at once; Codex opens one per message, so more is a peer misbehaving:
    /// a connection past it is closed at once.
    pub const MAX_CONNECTIONS: usize = 16;
    /// Requests one connection may make (Codex makes one, older versions two).
    const MAX_REQUESTS: usize = 8;

    /// Serves Codex's socket until `cancel` fires, then removes it (if it is still ours).
    pub fn serve(
        bound: BoundSocket,
        source: Source,
        cancel: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let inode = bound.inode();
        let BoundSocket { listener, path, .. } = bound;
        let own = crate::platform::own_user::own_uid();
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        tokio::spawn(async move {
            loop {
                let accepted = tokio::select! {
                    _ = cancel.cancelled() => break,
                    r = listener.accept() => r,
                };
                let Ok((stream, _)) = accepted else {
                    // Out of descriptors: the backlog keeps the connection; try again shortly.
                    tokio::select! {
                        _ = cancel.cancelled() => break,
                        _ = tokio::time::sleep(std::time::Duration::from_millis(100)) => continue,
                    }
                };
                // The socket is 0600 in a folder of the user's; a peer of another user is refused
                // all the same (a root-run or a loosened folder).
                if stream.peer_cred().map(|c| c.uid()).ok() != Some(own) {
                    tracing::warn!("Codex socket: refused a connection from another user");
                    continue;
                }
                let Ok(slot) = slots.clone().try_acquire_owned() else {
                    tracing::debug!("Codex socket: every slot is busy; closing a new connection");
                    continue;
                };
                let (source, cancel) = (source.clone(), cancel.clone());
                tokio::spawn(async move {
                    tokio::select! {
                        _ = cancel.cancelled() => {}
                        _ = connection(stream, source) => {}
                    }
                    drop(slot);
                });
            }
            drop(listener);
            BoundSocket::remove(&path, inode);
        })
    }

    /// Answers one connection's requests; any fault in framing or JSON ends it.
    async fn connection(mut stream: UnixStream, source: Source) {
        for _ in 0..MAX_REQUESTS {
            let body = match frame::read(&mut stream).await {
                Ok(b) => b,
                Err(FrameError::Closed) => return,
                Err(e) => {
                    tracing::debug!("Codex socket: connection ended: {e:?}");
                    return;
                }
            };
            let Ok(request) = serde_json::from_slice::<Incoming>(&body) else {
                tracing::debug!("Codex socket: not a message; connection ended");
                return;
            };
            if request.kind != "request" {
                continue;
            }
            let answer = answer(&request, &source).await;
            if frame::write(&mut stream, &answer).await.is_err() {
                return;
            }
        }
    }

    async fn answer(request: &Incoming, source: &Source) -> Vec<u8> {
        match request.method.as_str() {
            "initialize" => wire::success(request, Initialized::default()),
            "ide-context" => {
                let Some(root) = request.workspace_root() else {
                    return wire::failure(request, BAD_PARAMS);
                };
                match source(PathBuf::from(root)).await {
                    FolderContext::NoWorkspace => wire::failure(request, NO_WORKSPACE),
                    // An empty context, not an error: Codex refuses `/ide on` on an error
                    // ("could not be enabled"), and the editor may well speak up later; until
                    // then Codex adds nothing to the message.
                    FolderContext::NoEditor => wire::success(request, IdeContextResult::empty()),
                    FolderContext::Editor { root, state } => {
                        let ide_context = IdeContext::of(&state, &root);
                        wire::success(request, IdeContextResult { ide_context })
                    }
                }
            }
            _ => wire::failure(request, NO_HANDLER),
        }
    }
}
