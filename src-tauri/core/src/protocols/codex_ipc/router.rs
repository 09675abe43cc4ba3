//! Codex's router, when Redline holds the socket: IDE extensions and Codex's desktop app join it as
//! clients (`initialize`); a request Redline cannot answer goes to the first client that says it
//! can (`client-discovery-request`) and its answer back to the asker; broadcasts reach the others.

use super::wire;
use futures::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// How long the clients have to say whether they can answer: Codex waits about five seconds for
/// the whole exchange.
pub const DISCOVERY: Duration = Duration::from_millis(1500);
/// How long the client chosen has to answer.
pub const FORWARD: Duration = Duration::from_secs(3);
/// Bytes waiting for one client; a client that does not read is not sent more (its frames are
/// dropped, as Codex's own router drops them for a gone client), so memory stays bounded.
pub const OUTBOX_BYTES: usize = 8 * 1024 * 1024;
/// Frames waiting for one client.
const OUTBOX_FRAMES: usize = 64;

/// Frames for one connection, written by its own task in order.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Vec<u8>>,
    queued: Arc<AtomicUsize>,
}

/// The connection's end of its outbox.
pub struct Inbox {
    rx: mpsc::Receiver<Vec<u8>>,
    queued: Arc<AtomicUsize>,
}

impl Outbox {
    pub fn new() -> (Outbox, Inbox) {
        let (tx, rx) = mpsc::channel(OUTBOX_FRAMES);
        let queued = Arc::new(AtomicUsize::new(0));
        (
            Outbox {
                tx,
                queued: queued.clone(),
            },
            Inbox { rx, queued },
        )
    }

    /// Queues `frame`; false when the connection is gone or has too much unread already.
    pub fn send(&self, frame: Vec<u8>) -> bool {
        let len = frame.len();
        if self.queued.fetch_add(len, Ordering::AcqRel) + len > OUTBOX_BYTES {
            self.queued.fetch_sub(len, Ordering::AcqRel);
            return false;
        }
        match self.tx.try_send(frame) {
            Ok(()) => true,
            Err(_) => {
                self.queued.fetch_sub(len, Ordering::AcqRel);
                false
            }
        }
    }
}

impl Inbox {
    /// The next frame to write; none once every outbox is dropped.
    pub async fn next(&mut self) -> Option<Vec<u8>> {
        let frame = self.rx.recv().await?;
        self.queued.fetch_sub(frame.len(), Ordering::AcqRel);
        Some(frame)
    }
}

/// The clients that said `initialize`, and the answers the router waits for.
#[derive(Default)]
pub struct Router {
    clients: Mutex<HashMap<String, Outbox>>,
    waiting: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    next: AtomicU64,
}

impl Router {
    /// Takes a connection as a client; the id it is known by.
    pub fn join(&self, outbox: Outbox) -> String {
        let id = self.fresh("client");
        self.clients().insert(id.clone(), outbox);
        id
    }

    pub fn leave(&self, id: &str) {
        self.clients().remove(id);
    }

    /// Hands a client's `response` or `client-discovery-response` to the router's request that
    /// waits for it; one nobody waits for is dropped.
    pub fn settle(&self, message: Value) {
        let Some(id) = message.get("requestId").and_then(Value::as_str) else {
            return;
        };
        let waiter = self.waiting().remove(id);
        if let Some(tx) = waiter {
            let _ = tx.send(message);
        }
    }

    /// Sends a client's broadcast to every other client, or to those it names.
    pub fn relay(&self, from: &str, message: &Value) {
        let targets: Option<Vec<&str>> = message
            .get("targetClientIds")
            .and_then(Value::as_array)
            .map(|ids| ids.iter().filter_map(Value::as_str).collect());
        let frame = wire::encode(message);
        for (id, outbox) in self.clients().iter() {
            let named = targets.as_ref().is_none_or(|t| t.contains(&id.as_str()));
            if id != from && named {
                outbox.send(frame.clone());
            }
        }
    }

    /// The answer of the first client (but the asker) that says it can answer `request`, with
    /// the asker's `requestId`; none when no client can, or none in time.
    pub async fn route(&self, from: Option<&str>, request: &Value) -> Option<Value> {
        let candidates: Vec<(String, Outbox)> = self
            .clients()
            .iter()
            .filter(|(id, _)| Some(id.as_str()) != from)
            .map(|(id, o)| (id.clone(), o.clone()))
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let chosen = self.discover(candidates, request).await?;
        let id = self.fresh("request");
        let mut forwarded = request.clone();
        forwarded
            .as_object_mut()?
            .insert("requestId".into(), id.clone().into());
        let answer = self.expect(&id);
        let answer = match chosen.send(wire::encode(&forwarded)) {
            true => tokio::time::timeout(FORWARD, answer).await.ok(),
            false => None,
        };
        self.waiting().remove(&id);
        let mut answer = answer?.ok()?;
        let asked = request.get("requestId").cloned().unwrap_or(Value::Null);
        answer.as_object_mut()?.insert("requestId".into(), asked);
        Some(answer)
    }

    /// Asks each candidate whether it can answer `request`; the first that says yes.
    async fn discover(&self, candidates: Vec<(String, Outbox)>, request: &Value) -> Option<Outbox> {
        let mut asked = Vec::new();
        let answers = FuturesUnordered::new();
        for (_, outbox) in candidates {
            let id = self.fresh("discovery");
            let answer = self.expect(&id);
            let frame = wire::encode(&wire::DiscoveryRequest {
                kind: "client-discovery-request",
                request_id: &id,
                request,
            });
            if outbox.send(frame) {
                answers.push(async move { (outbox, answer.await) });
            }
            asked.push(id);
        }
        let chosen = tokio::time::timeout(DISCOVERY, async move {
            let mut answers = answers;
            while let Some((outbox, answer)) = answers.next().await {
                let yes = answer
                    .ok()
                    .and_then(|a| a.pointer("/response/canHandle").and_then(Value::as_bool));
                if yes == Some(true) {
                    return Some(outbox);
                }
            }
            None
        })
        .await
        .ok()
        .flatten();
        let mut waiting = self.waiting();
        for id in asked {
            waiting.remove(&id);
        }
        chosen
    }

    fn expect(&self, id: &str) -> oneshot::Receiver<Value> {
        let (tx, rx) = oneshot::channel();
        self.waiting().insert(id.to_owned(), tx);
        rx
    }

    fn fresh(&self, what: &str) -> String {
        format!(
            "redline-{what}-{}",
            self.next.fetch_add(1, Ordering::Relaxed)
        )
    }

    fn clients(&self) -> MutexGuard<'_, HashMap<String, Outbox>> {
        self.clients.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn waiting(&self) -> MutexGuard<'_, HashMap<String, oneshot::Sender<Value>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }
}
