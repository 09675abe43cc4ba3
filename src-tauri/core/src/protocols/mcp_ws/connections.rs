//! The workspace's live Claude Code connections: who each one is, and a way to reach it.

use crate::protocols::jsonrpc;
use crate::protocols::mcp_ws::wire::{self, Form, Lines};
use crate::review::registry::Registry;
use crate::review::selection::{Mention, Span};
use crate::review::ClientInfo;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

/// How Redline reaches one connection's loop.
pub(crate) struct Entry {
    pub client: ClientInfo,
    pub out: mpsc::Sender<String>,
    pub close: CancellationToken,
    /// The latest selection for this connection; its loop sends it debounced.
    pub selection: watch::Sender<Option<Span>>,
    /// How the client counts lines, known once it says who it is.
    pub lines: Lines,
    /// Which `selection_changed` it reads, known once it says who it is.
    pub form: Form,
}

#[derive(Default)]
pub struct Connections {
    inner: Mutex<HashMap<String, Entry>>,
    /// The user's latest selection in this workspace, for `getCurrentSelection`.
    selection: Mutex<Option<Span>>,
}

impl Connections {
    /// The token was rotated: every connection proved the old one once, at its upgrade, and
    /// goes; each answers its blocked calls first.
    pub fn close_all(&self) {
        for e in self.lock().values() {
            e.close.cancel();
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn insert(&self, id: String, entry: Entry) {
        self.lock().insert(id, entry);
    }

    pub(crate) fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn client(&self, id: &str) -> Option<ClientInfo> {
        self.lock().get(id).map(|e| e.client.clone())
    }

    /// Records who the client says it is, keeping the process found behind its connection.
    pub(crate) fn set_client(&self, id: &str, client: ClientInfo) {
        if let Some(e) = self.lock().get_mut(id) {
            let process = e.client.process.take();
            e.client = ClientInfo { process, ..client };
        }
    }

    /// How the client counts lines, by the name it gave in `initialize`.
    pub(crate) fn set_lines(&self, id: &str, lines: Lines) {
        if let Some(e) = self.lock().get_mut(id) {
            e.lines = lines;
        }
    }

    /// How connection `id` counts lines.
    pub(crate) fn lines(&self, id: &str) -> Lines {
        self.lock().get(id).map(|e| e.lines).unwrap_or_default()
    }

    /// Which `selection_changed` the client reads, by the name it gave in `initialize`.
    pub(crate) fn set_form(&self, id: &str, form: Form) {
        if let Some(e) = self.lock().get_mut(id) {
            e.form = form;
        }
    }

    /// Which `selection_changed` connection `id` reads.
    pub(crate) fn form(&self, id: &str) -> Form {
        self.lock().get(id).map(|e| e.form).unwrap_or_default()
    }

    pub(crate) fn set_process(&self, id: &str, process: crate::platform::peer::PeerProcess) {
        if let Some(e) = self.lock().get_mut(id) {
            e.client.process = Some(process);
        }
    }

    /// Sends a notification to one connection; false if it is gone or not keeping up.
    pub fn notify(&self, id: &str, method: &str, params: Value) -> bool {
        let msg = jsonrpc::notification(method, params);
        self.lock()
            .get(id)
            .is_some_and(|e| e.out.try_send(msg).is_ok())
    }

    pub fn selection(&self) -> Option<Span> {
        self.selection
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Registry for Connections {
    fn list(&self) -> Vec<(String, ClientInfo)> {
        let mut v: Vec<_> = self
            .lock()
            .iter()
            .map(|(id, e)| (id.clone(), e.client.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// Every connection follows the editor's selection (each loop debounces it).
    fn push_selection(&self, span: &Span) {
        *self.selection.lock().unwrap_or_else(|e| e.into_inner()) = Some(span.clone());
        for e in self.lock().values() {
            let _ = e.selection.send(Some(span.clone()));
        }
    }

    fn forget_selection(&self, span: &Span) {
        let mut kept = self.selection.lock().unwrap_or_else(|e| e.into_inner());
        if kept.as_ref() == Some(span) {
            *kept = None;
        }
    }

    fn push_mention(&self, mention: &Mention) {
        for e in self.lock().values() {
            let msg = jsonrpc::notification("at_mentioned", wire::at_mentioned(mention, e.lines));
            let _ = e.out.try_send(msg);
        }
    }

    /// Every Claude Code connection takes `at_mentioned`.
    fn can_mention(&self, session: &str) -> bool {
        self.lock().contains_key(session)
    }

    fn mention(&self, session: &str, mention: &Mention) -> bool {
        let lines = self.lines(session);
        self.notify(session, "at_mentioned", wire::at_mentioned(mention, lines))
    }

    /// Records the selection for `getCurrentSelection` and sends it to connection `session` as
    /// `selection_changed`, debounced; false if that connection is gone.
    fn select(&self, session: &str, span: &Span) -> bool {
        *self.selection.lock().unwrap_or_else(|e| e.into_inner()) = Some(span.clone());
        self.lock()
            .get(session)
            .is_some_and(|e| e.selection.send(Some(span.clone())).is_ok())
    }
}
