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
    let mut peer = Caller {
        router,
        source,
        outbox,
        client: None,
        requests: 0,
    };
    while let Some(message) = next_message(&mut reader, peer.client.is_some()).await {
        if !peer.take(message).await {
            break;
        }
    }
    if let Some(id) = &peer.client {
        peer.router.leave(id);
    }
    // What was queued (the last answer) goes out unless the peer stopped reading.
    drop(peer);
    let mut writing = writing;
    if tokio::time::timeout(frame::WRITE_DEADLINE, &mut writing)
        .await
        .is_err()
    {
        writing.abort();
    }
}

/// The next message, read as a client's (`resting`: it may wait between frames) or as a
/// stranger's; `None` once the connection closes or sends what is no message.
async fn next_message<R: AsyncRead + Unpin>(reader: &mut R, resting: bool) -> Option<Value> {
    let body = match resting {
        false => frame::read(reader).await,
        true => frame::read_resting(reader).await,
    };
    let body = match body {
        Ok(b) => b,
        Err(FrameError::Closed) => return None,
        Err(e) => {
            tracing::debug!("Codex socket: connection ended: {e:?}");
            return None;
        }
    };
    let Ok(message) = serde_json::from_slice::<Value>(&body) else {
        tracing::debug!("Codex socket: not a message; connection ended");
        return None;
    };
    Some(message)
}

/// One connection's side of the router: what it has sent, and who it is once it says
/// `initialize`.
struct Caller {
    router: Arc<Router>,
    source: Source,
    /// Its frames to write, in order; the last holder's drop ends the writing task.
    outbox: Outbox,
    /// Set once the peer says `initialize`: a client of the router from then on.
    client: Option<String>,
    /// Requests made before `initialize`.
    requests: usize,
}

impl Caller {
    /// Handles one message; false when the connection must end.
    async fn take(&mut self, message: Value) -> bool {
        match message.get("type").and_then(Value::as_str) {
            Some("request") => return self.request(message).await,
            Some("response") | Some("client-discovery-response") => self.router.settle(message),
            Some("broadcast") => {
                if let Some(id) = &self.client {
                    self.router.relay(id, &message);
                }
            }
            _ => {}
        }
        true
    }

    /// Answers a request: `initialize` joins the router, anything else is answered or routed.
    async fn request(&mut self, message: Value) -> bool {
        if self.client.is_none() {
            self.requests += 1;
            if self.requests > MAX_REQUESTS {
                return false;
            }
        }
        let Ok(request) = serde_json::from_value::<Incoming>(message.clone()) else {
            return false;
        };
        let answer = match request.method.as_str() {
            "initialize" => {
                let (router, outbox) = (&self.router, &self.outbox);
                let id = self
                    .client
                    .get_or_insert_with(|| router.join(outbox.clone()))
                    .clone();
                wire::success(&request, ROUTER_ID, Initialized { client_id: id })
            }
            _ => {
                let from = self.client.as_deref();
                answer(&self.router, &self.source, from, &request, &message).await
            }
        };
        self.outbox.send(answer)
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
