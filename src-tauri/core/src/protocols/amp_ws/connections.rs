//! The workspace's live Amp connections, and what the editor last said: a connection that opens
//! later is told at once.

use super::wire;
use crate::review::context::Context;
use crate::review::registry::Registry;
use crate::review::selection::Span;
use crate::review::ClientInfo;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// How Redline reaches one connection's loop.
pub(crate) struct AmpLink {
    pub out: mpsc::Sender<String>,
    pub close: CancellationToken,
}

#[derive(Default)]
pub struct AmpConnections {
    inner: Mutex<HashMap<String, AmpLink>>,
    /// The editor's selection and visible files, as sent.
    said: Mutex<Said>,
}

#[derive(Default)]
struct Said {
    selection: Option<(Span, String)>,
    visible: Option<String>,
}

impl AmpConnections {
    /// The token was rotated: every connection proved the old one at its upgrade, and goes.
    pub fn close_all(&self) {
        for e in self.lock().values() {
            e.close.cancel();
        }
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes a connection; the frames to send it first (what the editor said so far).
    pub(crate) fn insert(&self, id: String, entry: AmpLink) -> Vec<String> {
        self.lock().insert(id, entry);
        let said = self.said();
        said.visible
            .iter()
            .chain(said.selection.as_ref().map(|(_, m)| m))
            .cloned()
            .collect()
    }

    pub(crate) fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Queues `frame` for every connection; one that is not keeping up misses it (the next
    /// change replaces it anyway).
    fn broadcast(&self, frame: &str) {
        for e in self.lock().values() {
            let _ = e.out.try_send(frame.to_owned());
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, AmpLink>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn said(&self) -> MutexGuard<'_, Said> {
        self.said.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Registry for AmpConnections {
    fn list(&self) -> Vec<(String, ClientInfo)> {
        let mut v: Vec<_> = self
            .lock()
            .keys()
            .map(|id| {
                let client = ClientInfo {
                    name: crate::clients::AMP.name.into(),
                    ..Default::default()
                };
                (id.clone(), client)
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// The files the editor shows, active first, as Amp's visible files.
    fn push_context(&self, context: &Context) {
        let files: Vec<_> = context.files.iter().map(|f| f.path.clone()).collect();
        let frame = wire::visible_files(&files);
        let changed = {
            let mut said = self.said();
            let changed = said.visible.as_deref() != Some(frame.as_str());
            said.visible = Some(frame.clone());
            changed
        };
        if changed {
            self.broadcast(&frame);
        }
    }

    fn push_selection(&self, span: &Span) {
        let frame = wire::selection(span);
        self.said().selection = Some((span.clone(), frame.clone()));
        self.broadcast(&frame);
    }

    fn forget_selection(&self, span: &Span) {
        let mut said = self.said();
        if said.selection.as_ref().is_some_and(|(s, _)| s == span) {
            said.selection = None;
        }
    }
}
