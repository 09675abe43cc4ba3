//! What a request's task needs of its Claude Code connection: the workspace, the registry, and
//! the connection's open diffs by tab name.

use crate::protocols::mcp_ws::connections::Connections;
use crate::review::service::Service;
use crate::review::{ClientInfo, Outcome, ReviewId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio_util::sync::CancellationToken;

pub struct Conn {
    pub id: String,
    pub service: Arc<Service>,
    pub connections: Arc<Connections>,
    /// Fires when the connection closes on Redline's side (stop, quit, token rotation).
    pub closing: CancellationToken,
    /// This connection's open diffs by tab name, as `close_tab` names them.
    tabs: Mutex<HashMap<String, ReviewId>>,
}

impl Conn {
    pub fn new(
        id: String,
        service: Arc<Service>,
        connections: Arc<Connections>,
        closing: CancellationToken,
    ) -> Self {
        Conn {
            id,
            service,
            connections,
            closing,
            tabs: Mutex::default(),
        }
    }

    pub fn client(&self) -> ClientInfo {
        self.connections.client(&self.id).unwrap_or_default()
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
        self.lock_tabs().clear();
        self.service.settle_session(&self.id, outcome)
    }
}
