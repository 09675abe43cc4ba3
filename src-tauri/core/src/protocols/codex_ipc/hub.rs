//! Codex's socket or pipe when Redline holds it: each connection's frames read, answered by
//! Redline or routed to the client that can answer, and its own frames written in order. Any
//! stream will do: the unix socket's and the Windows pipe's accept loops hand theirs here.

use super::frame::{self, FrameError};
use super::router::{Outbox, Router};
use super::wire::{self, Incoming, Initialized, ROUTER_ID};
use super::{ide_context, Source, NO_HANDLER};
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// Connections served at once; Codex opens one per message and an IDE extension one in all, so
/// more is a peer misbehaving: a connection past it is closed at once.
pub const MAX_CONNECTIONS: usize = 16;
/// Requests a connection may make before it says `initialize` (Codex makes one, older versions two).
const MAX_REQUESTS: usize = 8;

/// The router's state, shared by every connection the accept loop hands over.
#[derive(Clone)]
pub struct Hub {
    source: Source,
    cancel: CancellationToken,
    slots: Arc<Semaphore>,
    router: Arc<Router>,
}

impl Hub {
    pub fn new(source: Source, cancel: CancellationToken) -> Hub {
        Hub {
            source,
            cancel,
            slots: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            router: Arc::new(Router::default()),
        }
    }

    /// Serves an accepted connection (from this user: the accept loop checked) until it closes
    /// or the hub stops; one past `MAX_CONNECTIONS` is closed at once.
    pub fn take<S>(&self, stream: S)
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let Ok(slot) = self.slots.clone().try_acquire_owned() else {
            tracing::debug!("Codex socket: every slot is busy; closing a new connection");
            return;
        };
        let hub = self.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = hub.cancel.cancelled() => {}
                _ = connection(stream, hub.source.clone(), hub.router.clone()) => {}
            }
            drop(slot);
        });
    }
}

/// Serves one connection until it closes; any fault in framing or JSON ends it.
async fn connection<S>(stream: S, source: Source, router: Arc<Router>)
where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let (mut reader, mut writer) = tokio::io::split(stream);
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
