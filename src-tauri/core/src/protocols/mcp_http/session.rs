//! A workspace's CLI sessions: who each one is, and its notification outbox.
//!
//! Notifications go out on the session's GET stream, which Redline serves itself rather than
//! through rmcp: rmcp replays its cache when a GET stream reopens, and a replayed
//! `ide/diffAccepted` would be a second decision. Here each notification is delivered once: to
//! the open stream, or queued until one opens.

use crate::protocols::jsonrpc;
use crate::protocols::mcp_http::wire;
use crate::review::context::Context;
use crate::review::registry::Registry;
use crate::review::ClientInfo;
use bytes::Bytes;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc};

/// At most this many notifications wait for a session with no stream; older ones are dropped.
const MAX_PENDING: usize = 64;

struct Entry {
    client: ClientInfo,
    stream: Option<(u64, mpsc::UnboundedSender<Bytes>)>,
    pending: VecDeque<Bytes>,
    /// Since when the session has had no stream open; `None` while one is.
    streamless_since: Option<Instant>,
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            client: ClientInfo::default(),
            stream: None,
            pending: VecDeque::new(),
            streamless_since: Some(Instant::now()),
        }
    }
}

/// The sessions of one HTTP app's CLIs. It sends what it is given: what each CLI is told, and
/// when, is its adapter's (`site::Audience`).
pub struct Sessions {
    inner: Mutex<Inner>,
    /// Every notification of the workspace, for `GET /events`.
    events: broadcast::Sender<Bytes>,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    next_stream: u64,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions {
            inner: Mutex::default(),
            events: broadcast::channel(64).0,
        }
    }
}

impl Sessions {
    /// Sets the title the CLI gave its session.
    pub fn set_session_name(&self, id: &str, name: String) {
        if let Some(e) = self.lock().entries.get_mut(id) {
            e.client.session_name = Some(name);
        }
    }

    /// Who is connected, by session id, in order.
    pub fn clients(&self) -> Vec<(String, ClientInfo)> {
        let mut v: Vec<_> = self
            .lock()
            .entries
            .iter()
            .map(|(id, e)| (id.clone(), e.client.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }
}

/// A JSON-RPC notification as one SSE event.
pub fn sse_event(method: &str, params: Value) -> Bytes {
    let msg = jsonrpc::notification(method, params);
    Bytes::from(format!("data: {msg}\n\n"))
}

/// The workspace's context, as the CLIs follow it.
pub fn context_update(context: Value) -> Bytes {
    sse_event("ide/contextUpdate", context)
}

impl Sessions {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records who the session is; the entry may already exist if its stream opened first.
    pub fn register(&self, id: &str, client: ClientInfo) {
        self.lock().entries.entry(id.to_owned()).or_default().client = client;
    }

    /// Records the process behind the session, once found.
    pub fn set_process(&self, id: &str, process: crate::platform::peer::PeerProcess) {
        if let Some(e) = self.lock().entries.get_mut(id) {
            e.client.process = Some(process);
        }
    }

    /// Notes a session rmcp just created, before its client says who it is.
    pub fn admit(&self, id: &str) {
        self.lock().entries.entry(id.to_owned()).or_default();
    }

    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The session that has gone longest without a stream, if any has none.
    pub fn oldest_streamless(&self) -> Option<String> {
        let inner = self.lock();
        let found = inner
            .entries
            .iter()
            .filter_map(|(id, e)| e.streamless_since.map(|t| (t, id)))
            .min();
        found.map(|(_, id)| id.clone())
    }

    /// Sessions that have had no stream for longer than `limit`.
    pub fn streamless_for(&self, limit: Duration) -> Vec<String> {
        let now = Instant::now();
        self.lock()
            .entries
            .iter()
            .filter(|(_, e)| {
                e.streamless_since
                    .is_some_and(|t| now.saturating_duration_since(t) > limit)
            })
            .map(|(id, _)| id.clone())
            .collect()
    }

    pub fn client(&self, id: &str) -> Option<ClientInfo> {
        self.lock().entries.get(id).map(|e| e.client.clone())
    }

    /// Forgets a session; its open stream ends.
    pub fn remove(&self, id: &str) {
        self.lock().entries.remove(id);
    }

    /// Sends to one session: on its stream, or queued for the next one.
    pub fn notify(&self, id: &str, event: Bytes) {
        let _ = self.events.send(event.clone());
        let mut inner = self.lock();
        let Some(entry) = inner.entries.get_mut(id) else {
            tracing::debug!("notification for a session that has ended");
            return;
        };
        deliver(entry, event);
    }

    /// Sends to every session.
    pub fn broadcast(&self, event: Bytes) {
        let _ = self.events.send(event.clone());
        for entry in self.lock().entries.values_mut() {
            deliver(entry, event.clone());
        }
    }

    /// Opens the session's stream, replacing any older one, and hands it what was queued.
    pub fn attach(&self, id: &str) -> (u64, mpsc::UnboundedReceiver<Bytes>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut inner = self.lock();
        inner.next_stream += 1;
        let generation = inner.next_stream;
        let entry = inner.entries.entry(id.to_owned()).or_default();
        for event in entry.pending.drain(..) {
            let _ = tx.send(event);
        }
        entry.stream = Some((generation, tx));
        entry.streamless_since = None;
        (generation, rx)
    }

    /// The stream `generation` has gone. True if it was the session's current stream.
    pub fn detach(&self, id: &str, generation: u64) -> bool {
        let mut inner = self.lock();
        match inner.entries.get_mut(id) {
            Some(entry) if entry.stream.as_ref().is_some_and(|(g, _)| *g == generation) => {
                entry.stream = None;
                entry.streamless_since = Some(Instant::now());
                true
            }
            _ => false,
        }
    }

    /// True while the session exists and has no stream open.
    pub fn is_detached(&self, id: &str) -> bool {
        self.lock()
            .entries
            .get(id)
            .is_some_and(|e| e.stream.is_none())
    }

    pub fn subscribe_events(&self) -> broadcast::Receiver<Bytes> {
        self.events.subscribe()
    }
}

/// Gemini CLI and Qwen Code follow the workspace's context, the selection and mentions within it
/// included.
impl Registry for Sessions {
    fn list(&self) -> Vec<(String, ClientInfo)> {
        self.clients()
    }

    fn push_context(&self, context: &Context) {
        self.broadcast(context_update(wire::ide_context(context)));
    }
}

fn deliver(entry: &mut Entry, event: Bytes) {
    if let Some((_, tx)) = &entry.stream {
        match tx.send(event) {
            Ok(()) => return,
            Err(mpsc::error::SendError(event)) => {
                entry.stream = None;
                entry.streamless_since = Some(Instant::now());
                entry.pending.push_back(event);
            }
        }
    } else {
        entry.pending.push_back(event);
    }
    if entry.pending.len() > MAX_PENDING {
        entry.pending.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn queues_until_a_stream_opens_then_delivers_once() {
        let s = Sessions::default();
        s.register("a", ClientInfo::default());
        s.notify("a", Bytes::from_static(b"1"));
        let (g1, mut rx1) = s.attach("a");
        assert_eq!(rx1.try_recv().unwrap(), "1");
        s.notify("a", Bytes::from_static(b"2"));
        assert_eq!(rx1.try_recv().unwrap(), "2");
        // A newer stream replaces the old one, which ends; nothing is replayed.
        let (g2, mut rx2) = s.attach("a");
        assert!(rx1.try_recv().is_err());
        assert!(rx2.try_recv().is_err());
        assert!(!s.detach("a", g1), "an old stream's end changes nothing");
        assert!(s.detach("a", g2));
        assert!(s.is_detached("a"));
        s.notify("a", Bytes::from_static(b"3"));
        let (_, mut rx3) = s.attach("a");
        assert_eq!(rx3.try_recv().unwrap(), "3");
        assert!(rx3.try_recv().is_err());
        s.remove("a");
        assert!(rx3.try_recv().is_err());
        assert!(!s.is_detached("a"));
    }

    #[test]
    fn a_dropped_receiver_requeues() {
        let s = Sessions::default();
        let (_, rx) = s.attach("a");
        drop(rx);
        s.notify("a", Bytes::from_static(b"x"));
        let (_, mut rx) = s.attach("a");
        assert_eq!(rx.try_recv().unwrap(), "x");
    }

    #[test]
    fn events_see_everything() {
        let s = Sessions::default();
        let mut ev = s.subscribe_events();
        s.register("a", ClientInfo::default());
        s.notify(
            "a",
            sse_event("ide/diffRejected", json!({"filePath": "/f"})),
        );
        s.broadcast(context_update(json!({})));
        let first = ev.try_recv().unwrap();
        assert!(first.starts_with(b"data: {"));
        assert!(std::str::from_utf8(&first)
            .unwrap()
            .contains("ide/diffRejected"));
        assert!(std::str::from_utf8(&ev.try_recv().unwrap())
            .unwrap()
            .contains("ide/contextUpdate"));
    }
}
