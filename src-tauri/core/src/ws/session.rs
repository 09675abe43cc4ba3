//! One Claude Code connection: JSON-RPC 2.0 frames in and out, requests answered concurrently
//! (an `openDiff` blocks until the user decides while `close_tab` and pings go on), pings both
//! ways, and its reviews settled before it closes.

use crate::companion::Shared;
use crate::peer::Endpoints;
use crate::review::{ClientInfo, Outcome, ReviewId};
use crate::ws::tools;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures::SinkExt;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// A WebSocket ping this often keeps an idle connection alive for hours.
pub const PING: Duration = Duration::from_secs(30);
pub use crate::limits::DRAIN;
use crate::limits::PEER_SEND;
/// Requests of one connection being answered at once; beyond it, a JSON-RPC error.
const MAX_IN_FLIGHT: usize = 32;
/// Frames waiting to go out on one connection; producers wait beyond it.
const OUTBOX: usize = 64;

/// JSON-RPC 2.0 error codes.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
const BUSY: i64 = -32000;

/// Ids unique across workspaces, so a review's session names one connection.
static NEXT: AtomicU64 = AtomicU64::new(1);

struct Entry {
    client: ClientInfo,
    out: mpsc::Sender<String>,
    close: CancellationToken,
    /// The latest selection for this connection; its loop sends it debounced.
    selection: watch::Sender<Option<Value>>,
}

/// The workspace's live Claude Code connections: who each one is, and a way to reach it.
#[derive(Default)]
pub struct Connections {
    inner: Mutex<HashMap<String, Entry>>,
    /// The user's latest selection in a review of this workspace, for `getCurrentSelection`.
    selection: Mutex<Option<Value>>,
}

impl Connections {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn client(&self, id: &str) -> Option<ClientInfo> {
        self.lock().get(id).map(|e| e.client.clone())
    }

    /// Records who the client says it is, keeping the process found behind its connection.
    fn set_client(&self, id: &str, client: ClientInfo) {
        if let Some(e) = self.lock().get_mut(id) {
            let process = e.client.process.take();
            e.client = ClientInfo { process, ..client };
        }
    }

    fn set_process(&self, id: &str, process: crate::peer::PeerProcess) {
        if let Some(e) = self.lock().get_mut(id) {
            e.client.process = Some(process);
        }
    }

    pub fn list(&self) -> Vec<(String, ClientInfo)> {
        let mut v: Vec<_> = self
            .lock()
            .iter()
            .map(|(id, e)| (id.clone(), e.client.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// Sends a notification to one connection; false if it is gone or not keeping up.
    pub fn notify(&self, id: &str, method: &str, params: Value) -> bool {
        let msg = json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string();
        self.lock()
            .get(id)
            .is_some_and(|e| e.out.try_send(msg).is_ok())
    }

    /// Records the user's selection and sends it to connection `id` as `selection_changed`,
    /// debounced; false if that connection is gone.
    pub fn select(&self, id: &str, params: Value) -> bool {
        *self.selection.lock().unwrap_or_else(|e| e.into_inner()) = Some(params.clone());
        self.lock()
            .get(id)
            .is_some_and(|e| e.selection.send(Some(params)).is_ok())
    }

    pub fn selection(&self) -> Option<Value> {
        self.selection
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Closes every connection (a rotated token): each answers its blocked calls first.
    pub fn close_all(&self) {
        for e in self.lock().values() {
            e.close.cancel();
        }
    }
}

/// What a request's task needs of its connection.
pub struct Conn {
    pub id: String,
    pub shared: Arc<Shared>,
    /// Fires when the connection closes on Redline's side (stop, quit, token rotation).
    pub closing: CancellationToken,
    /// This connection's open diffs by tab name, as `close_tab` names them.
    tabs: Mutex<HashMap<String, ReviewId>>,
}

impl Conn {
    pub fn client(&self) -> ClientInfo {
        self.shared.connections.client(&self.id).unwrap_or_default()
    }

    pub fn set_tab(&self, tab: &str, id: ReviewId) {
        self.lock_tabs().insert(tab.to_owned(), id);
    }

    pub fn take_tab(&self, tab: &str) -> Option<ReviewId> {
        self.lock_tabs().remove(tab)
    }

    /// Forgets `tab` if it still names review `id`.
    pub fn forget_tab(&self, tab: &str, id: ReviewId) {
        let mut tabs = self.lock_tabs();
        if tabs.get(tab) == Some(&id) {
            tabs.remove(tab);
        }
    }

    fn lock_tabs(&self) -> MutexGuard<'_, HashMap<String, ReviewId>> {
        self.tabs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Settles this connection's pending reviews with `outcome`; how many there were.
    pub fn settle_all(&self, outcome: Outcome) -> usize {
        let ws = self.shared.workspace.id();
        let mine: Vec<ReviewId> = self
            .shared
            .reviews
            .list()
            .iter()
            .filter(|r| r.session == self.id && r.workspace == ws)
            .map(|r| r.id)
            .collect();
        self.lock_tabs().clear();
        mine.into_iter()
            .filter(|id| self.shared.reviews.resolve(*id, outcome).is_ok())
            .count()
    }
}

pub fn error(id: Value, code: i64, message: impl Into<String>) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
        .to_string()
}

fn result(id: Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// What one frame asks for.
enum Incoming {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    /// A response (to our nothing) or anything else that needs no answer.
    Ignored,
    /// A frame to answer with this error at once.
    Fault(String),
}

fn parse(bytes: &[u8]) -> Incoming {
    let msg: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            return Incoming::Fault(error(Value::Null, PARSE_ERROR, format!("parse error: {e}")))
        }
    };
    let Value::Object(mut o) = msg else {
        return Incoming::Fault(error(
            Value::Null,
            INVALID_REQUEST,
            "invalid request: not a JSON-RPC 2.0 object",
        ));
    };
    let id = o.remove("id");
    // Only strings and numbers are ids; anything else is answered with a null id.
    let valid_id = match &id {
        Some(v @ (Value::String(_) | Value::Number(_))) => Some(v.clone()),
        _ => None,
    };
    if o.get("jsonrpc") != Some(&json!("2.0")) {
        return Incoming::Fault(error(
            valid_id.unwrap_or(Value::Null),
            INVALID_REQUEST,
            "invalid request: jsonrpc must be \"2.0\"",
        ));
    }
    let method = match o.remove("method") {
        Some(Value::String(m)) => m,
        None if o.contains_key("result") || o.contains_key("error") => return Incoming::Ignored,
        _ => {
            return Incoming::Fault(error(
                valid_id.unwrap_or(Value::Null),
                INVALID_REQUEST,
                "invalid request: method must be a string",
            ))
        }
    };
    let params = o.remove("params").unwrap_or(Value::Null);
    match (id, valid_id) {
        (None, _) => Incoming::Notification { method, params },
        (Some(_), Some(id)) => Incoming::Request { id, method, params },
        (Some(_), None) => Incoming::Fault(error(
            Value::Null,
            INVALID_REQUEST,
            "invalid request: id must be a string or a number",
        )),
    }
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
            conn.shared.connections.set_client(
                &conn.id,
                ClientInfo {
                    name: "Claude Code".into(),
                    version: client.unwrap_or_default().into(),
                    process: None,
                },
            );
            let asked = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or_default();
            result(id, tools::initialize(asked))
        }
        "ping" => result(id, json!({})),
        "tools/list" => result(id, json!({"tools": tools::list()})),
        "tools/call" => match tools::call(conn, params).await {
            Ok(v) => result(id, v),
            Err(e) => error(id, e.code, e.message),
        },
        other => error(id, METHOD_NOT_FOUND, format!("method not found: {other}")),
    }
}

/// Serves one upgraded connection until the peer goes or Redline closes it.
pub async fn run(
    mut socket: WebSocket,
    shared: Arc<Shared>,
    stop: CancellationToken,
    _alive: mpsc::Sender<()>,
    ends: Option<Endpoints>,
) {
    let id = format!("claude-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let (out, mut outbox) = mpsc::channel::<String>(OUTBOX);
    let closing = stop.child_token();
    let (selection, mut selections) = watch::channel::<Option<Value>>(None);
    shared.connections.lock().insert(
        id.clone(),
        Entry {
            client: ClientInfo {
                name: "Claude Code".into(),
                version: String::new(),
                process: None,
            },
            out: out.clone(),
            close: closing.clone(),
            selection,
        },
    );
    let conn = Arc::new(Conn {
        id: id.clone(),
        shared: shared.clone(),
        closing: closing.clone(),
        tabs: Mutex::default(),
    });
    tracing::info!("Claude Code connected ({id})");
    // Before any request is read, so every review of this connection names the process.
    if let Some(ends) = ends {
        if let Some(p) = crate::peer::find(shared.peers.clone(), ends).await {
            shared.connections.set_process(&id, p);
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
                selection_due = Some(tokio::time::Instant::now() + crate::selection::DEBOUNCE);
            }
            _ = selection_wait => {
                selection_due = None;
                let latest = selections.borrow_and_update().clone();
                if let Some(params) = latest {
                    let msg = json!({"jsonrpc": "2.0", "method": "selection_changed", "params": params});
                    let sent = send(&mut socket, Message::Text(msg.to_string().into()), &closing).await;
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
                match parse(&bytes) {
                    Incoming::Request { id: rid, method, params } => {
                        if tasks.len() >= MAX_IN_FLIGHT {
                            let busy = error(rid, BUSY, "too many requests in flight");
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
                    Incoming::Notification { method, params } => {
                        tracing::debug!("Claude Code notification {method}: {params}");
                    }
                    Incoming::Ignored => {}
                    Incoming::Fault(reply) => {
                        let sent = send(&mut socket, Message::Text(reply.into()), &closing).await;
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
    shared.connections.lock().remove(&id);
    let ws = shared.workspace.id().to_owned();
    let dismissed = shared
        .reviews
        .dismiss(|r| r.session == id && r.workspace == ws);
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
