//! Codex's socket when Redline holds it: each connection's frames read, answered by Redline or
//! routed to the client that can answer, and its own frames written in order.

use super::frame::{self, FrameError};
use super::router::{Outbox, Router};
use super::socket::BoundSocket;
use super::wire::{self, Incoming, Initialized, ROUTER_ID};
use super::{ide_context, Source, NO_HANDLER};
use serde_json::Value;
use std::sync::Arc;
use tokio::net::UnixStream;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// Connections served at once; Codex opens one per message and an IDE extension one in all, so
/// more is a peer misbehaving: a connection past it is closed at once.
pub const MAX_CONNECTIONS: usize = 16;
/// Requests a connection may make before it says `initialize` (Codex makes one, older versions two).
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
    let router = Arc::new(Router::default());
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
            let (source, cancel, router) = (source.clone(), cancel.clone(), router.clone());
            tokio::spawn(async move {
                tokio::select! {
                    _ = cancel.cancelled() => {}
                    _ = connection(stream, source, router) => {}
                }
                drop(slot);
            });
        }
        drop(listener);
        BoundSocket::remove(&path, inode);
    })
}

/// Serves one connection until it closes; any fault in framing or JSON ends it.
async fn connection(stream: UnixStream, source: Source, router: Arc<Router>) {
    let (mut reader, mut writer) = stream.into_split();
    let (outbox, mut inbox) = Outbox::new();
    let writing = tokio::spawn(async move {
        while let Some(body) = inbox.next().await {
            if frame::write(&mut writer, &body).await.is_err() {
                return;
            }
        }
    });
    // Set once the peer says `initialize`: a client of the router from then on.
    let mut client: Option<String> = None;
    let mut requests = 0;
    loop {
        let body = match client {
            None => frame::read(&mut reader).await,
            Some(_) => frame::read_resting(&mut reader).await,
        };
        let body = match body {
            Ok(b) => b,
            Err(FrameError::Closed) => break,
            Err(e) => {
                tracing::debug!("Codex socket: connection ended: {e:?}");
                break;
            }
        };
        let Ok(message) = serde_json::from_slice::<Value>(&body) else {
            tracing::debug!("Codex socket: not a message; connection ended");
            break;
        };
        match message.get("type").and_then(Value::as_str) {
            Some("request") => {
                if client.is_none() {
                    requests += 1;
                    if requests > MAX_REQUESTS {
                        break;
                    }
                }
                let Ok(request) = serde_json::from_value::<Incoming>(message.clone()) else {
                    break;
                };
                let answer = match request.method.as_str() {
                    "initialize" => {
                        let id = client
                            .get_or_insert_with(|| router.join(outbox.clone()))
                            .clone();
                        wire::success(&request, ROUTER_ID, Initialized { client_id: id })
                    }
                    _ => answer(&router, &source, client.as_deref(), &request, &message).await,
                };
                if !outbox.send(answer) {
                    break;
                }
            }
            Some("response") | Some("client-discovery-response") => router.settle(message),
            Some("broadcast") => {
                if let Some(id) = &client {
                    router.relay(id, &message);
                }
            }
            _ => {}
        }
    }
    if let Some(id) = client {
        router.leave(&id);
    }
    // What was queued (the last answer) goes out unless the peer stopped reading.
    drop(outbox);
    let mut writing = writing;
    if tokio::time::timeout(frame::WRITE_DEADLINE, &mut writing)
        .await
        .is_err()
    {
        writing.abort();
    }
}

/// Redline answers `ide-context` for a folder it has an editor's context for; anything else goes
/// to the client that can answer it, and failing one, Redline answers as it can.
async fn answer(
    router: &Router,
    source: &Source,
    from: Option<&str>,
    request: &Incoming,
    message: &Value,
) -> Vec<u8> {
    if request.method == "ide-context" {
        let (own, had_editor) = ide_context(request, source, ROUTER_ID).await;
        if had_editor {
            return own;
        }
        return match router.route(from, message).await {
            Some(routed) => wire::encode(&routed),
            None => own,
        };
    }
    match router.route(from, message).await {
        Some(routed) => wire::encode(&routed),
        None => wire::failure(request, ROUTER_ID, NO_HANDLER),
    }
}
