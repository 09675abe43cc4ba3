//! What one workspace's HTTP handlers share: its service and its CLI sessions.

use crate::protocols::mcp_http::session::{context_update, Sessions};
use crate::review::service::Service;
use bytes::Bytes;
use std::sync::Arc;

#[derive(Clone)]
pub struct Shared {
    pub service: Arc<Service>,
    pub sessions: Arc<Sessions>,
}

impl Shared {
    /// A session is gone: forget it and dismiss its reviews.
    pub fn end_session(&self, id: &str) {
        self.sessions.remove(id);
        self.service.dismiss_session(id);
    }

    /// The current context as an event, for a stream that just opened, if its CLI follows it.
    pub fn context_event(&self) -> Option<Bytes> {
        self.sessions
            .follows_context()
            .then(|| context_update(super::wire::ide_context(&self.service.context())))
    }
}
