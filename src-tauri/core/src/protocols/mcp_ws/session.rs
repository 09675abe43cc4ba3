//! One Claude Code connection: JSON-RPC 2.0 frames in and out, requests answered concurrently
//! (an `openDiff` blocks until the user decides while `close_tab` and pings go on), pings both
//! ways, and its reviews settled before it closes.

mod debounce;
mod dispatch;
mod drain;

use crate::platform::peer::Endpoints;
use crate::protocols::jsonrpc;
use crate::protocols::mcp_ws::conn::Conn;
use crate::protocols::mcp_ws::connections::{Connections, Entry};
use crate::protocols::mcp_ws::wire;
use crate::review::selection::Span;
use crate::review::service::Service;
use crate::review::{ClientInfo, Outcome};
use axum::extract::ws::{Message, WebSocket};
use debounce::Debounce;
use dispatch::Requests;
use futures::SinkExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, Interval};
use tokio_util::sync::CancellationToken;

/// A WebSocket ping this often keeps an idle connection alive for hours.
pub const PING: Duration = Duration::from_secs(30);
pub use crate::net::limits::DRAIN;
use crate::net::limits::PEER_SEND;
/// Frames waiting to go out on one connection; producers wait beyond it.
const OUTBOX: usize = 64;

/// Ids unique across workspaces, so a review's session names one connection.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// Why a connection's loop ended.
enum End {
    /// The peer closed the socket, failed, or took nothing for `PEER_SEND`: nothing more can
    /// reach it.
    PeerGone,
    /// Redline closed the connection (stop, quit, token rotation): its answers are drained to
    /// the peer, starting with `unsent`, a frame the loop had not yet handed to the socket.
    Closed { unsent: Option<Message> },
}

/// Serves one upgraded connection until the peer goes or Redline closes it.
pub async fn run(
    socket: WebSocket,
    service: Arc<Service>,
    connections: Arc<Connections>,
    stop: CancellationToken,
    _alive: mpsc::Sender<()>,
    ends: Option<Endpoints>,
) {
    let id = format!("claude-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let (out, outbox) = mpsc::channel::<String>(OUTBOX);
    let closing = stop.child_token();
    let (selection, selections) = watch::channel::<Option<Span>>(None);
    connections.insert(
        id.clone(),
        Entry {
            client: ClientInfo {
                name: crate::clients::CLAUDE.name.into(),
                version: String::new(),
                ..Default::default()
            },
            out: out.clone(),
            close: closing.clone(),
            selection,
            lines: Default::default(),
            form: Default::default(),
        },
    );
    let conn = Arc::new(Conn::new(
        id.clone(),
        service.clone(),
        connections.clone(),
        closing.clone(),
    ));
    tracing::info!("Claude Code connected ({id})");
    service.session_started();
    // Before any request is read, so every review of this connection names the process.
    if let Some(ends) = ends {
        if let Some(p) = crate::platform::peer::find(service.peers.clone(), ends).await {
            connections.set_process(&id, p);
        }
    }
    let mut session = Session {
        socket,
        outbox,
        requests: Requests::new(conn.clone(), out),
        selections: Debounce::new(selections),
        pings: pings(),
        closing,
    };
    if let End::Closed { unsent } = session.serve().await {
        // Closed on Redline's side: every blocked openDiff is answered (rejected) and its answer
        // sent before the close frame, so no CLI waits for ever.
        conn.settle_all(Outcome::Rejected);
        let Session {
            socket,
            outbox,
            requests,
            ..
        } = &mut session;
        drain::drain(socket, outbox, requests, unsent).await;
    }
    session.requests.abort_all();
    connections.remove(&id);
    let dismissed = service.dismiss_session(&id);
    tracing::info!("Claude Code disconnected ({id}); {dismissed} review(s) dismissed");
}

/// Our pings, the first one `PING` after the connection opens.
fn pings() -> Interval {
    tokio::time::interval_at(Instant::now() + PING, PING)
}

/// The connection while it is served: what it reads, what waits to go out, and its pings.
struct Session {
    socket: WebSocket,
    /// The answers of requests' tasks and the notifications for this connection.
    outbox: mpsc::Receiver<String>,
    requests: Requests,
    selections: Debounce<Span>,
    pings: Interval,
    /// Fires when Redline closes the connection.
    closing: CancellationToken,
}

impl Session {
    /// Reads and answers frames, sends what waits and the pings, until the connection ends.
    async fn serve(&mut self) -> End {
        loop {
            let step = tokio::select! {
                _ = self.closing.cancelled() => Err(End::Closed { unsent: None }),
                span = self.selections.next() => {
                    // Counted as the client counts lines, in the form it reads, both known
                    // from its `initialize`.
                    let conn = self.requests.conn();
                    let lines = conn.connections.lines(&conn.id);
                    let form = conn.connections.form(&conn.id);
                    let msg = jsonrpc::notification(
                        "selection_changed",
                        wire::selection_changed(&span, lines, form),
                    );
                    self.send(Message::Text(msg.into())).await
                }
                frame = self.socket.recv() => self.read(frame).await,
                Some(msg) = self.outbox.recv() => self.send(Message::Text(msg.into())).await,
                _ = self.pings.tick() => self.send(Message::Ping(axum::body::Bytes::new())).await,
                Some(()) = self.requests.join_next(), if !self.requests.is_empty() => Ok(()),
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    /// One frame from the peer (`None` once the socket is closed).
    async fn read(&mut self, frame: Option<Result<Message, axum::Error>>) -> Result<(), End> {
        let bytes = match frame {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return Err(End::PeerGone),
            Some(Ok(Message::Text(t))) => axum::body::Bytes::from(t),
            Some(Ok(Message::Binary(b))) => b,
            // tungstenite answers pings itself.
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => return Ok(()),
        };
        match self.requests.take(&bytes) {
            Some(reply) => self.send(Message::Text(reply.into())).await,
            None => Ok(()),
        }
    }

    /// Sends one frame unless Redline closes the connection first (the frame comes back in
    /// `End::Closed` for the drain) or the peer has not taken it within `PEER_SEND`: a peer
    /// that stopped reading cannot hold the loop. A frame the socket took stays queued in it
    /// when Redline closes, and the drain's next send flushes it.
    async fn send(&mut self, msg: Message) -> Result<(), End> {
        let (socket, closing) = (&mut self.socket, &self.closing);
        let by = Instant::now() + PEER_SEND;
        let room =
            tokio::time::timeout_at(by, std::future::poll_fn(|cx| socket.poll_ready_unpin(cx)));
        tokio::select! {
            biased;
            ready = room => if !matches!(ready, Ok(Ok(()))) {
                return Err(End::PeerGone);
            },
            _ = closing.cancelled() => return Err(End::Closed { unsent: Some(msg) }),
        }
        if socket.start_send_unpin(msg).is_err() {
            return Err(End::PeerGone);
        }
        tokio::select! {
            biased;
            flushed = tokio::time::timeout_at(by, socket.flush()) => match flushed {
                Ok(Ok(())) => Ok(()),
                _ => Err(End::PeerGone),
            },
            // Taken by the socket: the drain flushes it.
            _ = closing.cancelled() => Ok(()),
        }
    }
}
