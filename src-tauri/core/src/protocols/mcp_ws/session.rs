//! One Claude Code connection: JSON-RPC 2.0 frames in and out, requests answered concurrently
//! (an `openDiff` blocks until the user decides while `close_tab` and pings go on), pings both
//! ways, and its reviews settled before it closes.

use crate::platform::peer::Endpoints;
use crate::protocols::jsonrpc::{self, Kind, BUSY, METHOD_NOT_FOUND};
use crate::protocols::mcp_ws::conn::Conn;
use crate::protocols::mcp_ws::connections::{Connections, Entry};
use crate::protocols::mcp_ws::tools;
use crate::review::service::Service;
use crate::review::{ClientInfo, Outcome};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures::SinkExt;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// A WebSocket ping this often keeps an idle connection alive for hours.
pub const PING: Duration = Duration::from_secs(30);
pub use crate::net::limits::DRAIN;
use crate::net::limits::PEER_SEND;
/// Requests of one connection being answered at once; beyond it, a JSON-RPC error.
const MAX_IN_FLIGHT: usize = 32;
/// Frames waiting to go out on one connection; producers wait beyond it.
const OUTBOX: usize = 64;

/// Ids unique across workspaces, so a review's session names one connection.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// The frame's message and its params, or the fault to answer.
fn incoming(bytes: &[u8]) -> Result<(Kind, Value), jsonrpc::Fault> {
    let mut msg = jsonrpc::parse(bytes)?;
    let kind = jsonrpc::classify(&msg)?;
    let params = msg
        .get_mut("params")
        .map(Value::take)
        .unwrap_or(Value::Null);
    Ok((kind, params))
}

/// Answers one request.
async fn answer(conn: &Conn, id: Value, method: &str, params: Value) -> String {
    let tool = params
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    tracing::debug!("Claude Code ({}) asks {method} {tool}", conn.id);
    match method {
        "initialize" => {
            let client = params
                .pointer("/clientInfo/version")
                .and_then(Value::as_str);
            conn.connections.set_client(
                &conn.id,
                ClientInfo {
                    name: crate::clients::CLAUDE.name.into(),
                    version: client.unwrap_or_default().into(),
                    ..Default::default()
                },
            );
            let asked = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or_default();
            jsonrpc::result(id, tools::initialize(asked))
        }
        "ping" => jsonrpc::result(id, json!({})),
        "tools/list" => jsonrpc::result(id, json!({"tools": tools::list()})),
        "tools/call" => match tools::call(conn, params).await {
            Ok(v) => jsonrpc::result(id, v),
            Err(fault) => fault.answering(id).to_json(),
        },
        other => jsonrpc::error(id, METHOD_NOT_FOUND, &format!("method not found: {other}")),
    }
}

/// Serves one upgraded connection until the peer goes or Redline closes it.
pub async fn run(
    mut socket: WebSocket,
    service: Arc<Service>,
    connections: Arc<Connections>,
    stop: CancellationToken,
    _alive: mpsc::Sender<()>,
    ends: Option<Endpoints>,
) {
    let id = format!("claude-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let (out, mut outbox) = mpsc::channel::<String>(OUTBOX);
    let closing = stop.child_token();
    let (selection, mut selections) = watch::channel::<Option<Value>>(None);
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
        },
    );
    let conn = Arc::new(Conn::new(
        id.clone(),
        service.clone(),
        connections.clone(),
        closing.clone(),
    ));
    tracing::info!("Claude Code connected ({id})");
    // Before any request is read, so every review of this connection names the process.
    if let Some(ends) = ends {
        if let Some(p) = crate::platform::peer::find(service.peers.clone(), ends).await {
            connections.set_process(&id, p);
        }
    }
    let mut tasks: JoinSet<()> = JoinSet::new();
    let start = tokio::time::Instant::now() + PING;
    let mut ping = tokio::time::interval_at(start, PING);
    let mut selection_due: Option<tokio::time::Instant> = None;
    // A frame the loop had not handed to the socket when Redline closed: the drain sends it.
    let mut unsent: Option<Message> = None;
    let peer_gone = loop {
        let selection_wait = async {
            match selection_due {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = closing.cancelled() => break false,
            Ok(()) = selections.changed(), if selection_due.is_none() => {
                selection_due = Some(tokio::time::Instant::now() + crate::review::selection::DEBOUNCE);
            }
            _ = selection_wait => {
                selection_due = None;
                let latest = selections.borrow_and_update().clone();
                if let Some(params) = latest {
                    let msg = jsonrpc::notification("selection_changed", params);
                    let sent = send(&mut socket, Message::Text(msg.into()), &closing).await;
                    if let Some(gone) = ended(sent, &mut unsent) {
                        break gone;
                    }
                }
            }
            frame = socket.recv() => {
                let bytes = match frame {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break true,
                    Some(Ok(Message::Text(t))) => axum::body::Bytes::from(t),
                    Some(Ok(Message::Binary(b))) => b,
                    // tungstenite answers pings itself.
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                };
                match incoming(&bytes) {
                    Ok((Kind::Request { id: rid, method }, params)) => {
                        if tasks.len() >= MAX_IN_FLIGHT {
                            let busy = jsonrpc::error(rid, BUSY, "too many requests in flight");
                            let sent = send(&mut socket, Message::Text(busy.into()), &closing).await;
                            if let Some(gone) = ended(sent, &mut unsent) {
                                break gone;
                            }
                            continue;
                        }
                        let (conn, out) = (conn.clone(), out.clone());
                        tasks.spawn(async move {
                            let reply = answer(&conn, rid, &method, params).await;
                            let _ = out.send(reply).await;
                        });
                    }
                    Ok((Kind::Notification { method }, params)) => {
                        tracing::debug!("Claude Code notification {method}: {params}");
                    }
                    Ok((Kind::Response, _)) => {}
                    Err(fault) => {
                        let reply = Message::Text(fault.to_json().into());
                        let sent = send(&mut socket, reply, &closing).await;
                        if let Some(gone) = ended(sent, &mut unsent) {
                            break gone;
                        }
                    }
                }
            }
            Some(msg) = outbox.recv() => {
                let sent = send(&mut socket, Message::Text(msg.into()), &closing).await;
                if let Some(gone) = ended(sent, &mut unsent) {
                    break gone;
                }
            }
            _ = ping.tick() => {
                let sent = send(&mut socket, Message::Ping(axum::body::Bytes::new()), &closing).await;
                if let Some(gone) = ended(sent, &mut unsent) {
                    break gone;
                }
            }
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
        }
    };
    if !peer_gone {
        // Closed on Redline's side: every blocked openDiff is answered (rejected) and its answer
        // sent before the close frame, so no CLI waits for ever.
        conn.settle_all(Outcome::Rejected);
        let deadline = tokio::time::Instant::now() + DRAIN;
        loop {
            if let Some(msg) = unsent.take() {
                if !send_by(&mut socket, msg, deadline).await {
                    break;
                }
            }
            tokio::select! {
                Some(msg) = outbox.recv() => {
                    if !send_by(&mut socket, Message::Text(msg.into()), deadline).await {
                        break;
                    }
                }
                joined = tasks.join_next() => {
                    if joined.is_none() {
                        while let Ok(msg) = outbox.try_recv() {
                            if !send_by(&mut socket, Message::Text(msg.into()), deadline).await {
                                break;
                            }
                        }
                        break;
                    }
                }
                _ = tokio::time::sleep_until(deadline) => break,
            }
        }
        let close = Message::Close(Some(CloseFrame {
            code: axum::extract::ws::close_code::AWAY,
            reason: "Redline stopped serving this workspace".into(),
        }));
        send_by(&mut socket, close, deadline).await;
    }
    tasks.abort_all();
    connections.remove(&id);
    let dismissed = service.dismiss_session(&id);
    tracing::info!("Claude Code disconnected ({id}); {dismissed} review(s) dismissed");
}

/// What became of a frame the connection's loop sent.
enum Sent {
    Yes,
    /// Redline closed the connection before the socket took the frame; here it is back.
    Back(Message),
    /// The peer is gone, or took nothing for `PEER_SEND`.
    Failed,
}

/// Sends one frame unless Redline closes the connection first or the peer has not taken it
/// within `PEER_SEND`: a peer that stopped reading cannot hold the loop. A frame the socket
/// took stays queued in it when Redline closes, and the drain's next send flushes it.
async fn send(socket: &mut WebSocket, msg: Message, closing: &CancellationToken) -> Sent {
    let by = tokio::time::Instant::now() + PEER_SEND;
    let room = tokio::time::timeout_at(by, std::future::poll_fn(|cx| socket.poll_ready_unpin(cx)));
    tokio::select! {
        biased;
        ready = room => if !matches!(ready, Ok(Ok(()))) {
            return Sent::Failed;
        },
        _ = closing.cancelled() => return Sent::Back(msg),
    }
    if socket.start_send_unpin(msg).is_err() {
        return Sent::Failed;
    }
    tokio::select! {
        biased;
        flushed = tokio::time::timeout_at(by, socket.flush()) => match flushed {
            Ok(Ok(())) => Sent::Yes,
            _ => Sent::Failed,
        },
        _ = closing.cancelled() => Sent::Yes,
    }
}

/// Whether the loop ends after a send, and if so whether the peer is gone (else Redline closed
/// it, keeping an unsent frame for the drain).
fn ended(sent: Sent, unsent: &mut Option<Message>) -> Option<bool> {
    match sent {
        Sent::Yes => None,
        Sent::Back(msg) => {
            *unsent = Some(msg);
            Some(false)
        }
        Sent::Failed => Some(true),
    }
}

/// Sends one frame of the final flush, which ends at `deadline` whatever the peer does.
async fn send_by(socket: &mut WebSocket, msg: Message, deadline: tokio::time::Instant) -> bool {
    matches!(
        tokio::time::timeout_at(deadline, socket.send(msg)).await,
        Ok(Ok(()))
    )
}
