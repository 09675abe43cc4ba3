//! One workspace as an HTTP app serves it: the workspace's service, and the CLIs of the protocol
//! the app speaks.

use crate::protocols::mcp_http::session::{context_update, Sessions};
use crate::review::registry::Registry;
use crate::review::service::Service;
use bytes::Bytes;
use std::sync::Arc;

/// The CLIs one app serves over Streamable HTTP: the session table the transport keeps, and
/// what the workspace tells them, which differs by CLI (each adapter owns its own).
pub trait Audience: Registry + 'static {
    /// The transport's table of sessions and their notification outboxes.
    fn table(&self) -> &Sessions;

    /// What a session's stream hears first when it opens, if anything.
    fn greeting(&self, service: &Service) -> Option<Bytes>;
}

/// Gemini CLI and Qwen Code follow the workspace's context (`ide/contextUpdate`): a stream
/// that opens hears the current one first.
impl Audience for Sessions {
    fn table(&self) -> &Sessions {
        self
    }

    fn greeting(&self, service: &Service) -> Option<Bytes> {
        Some(context_update(super::wire::ide_context(&service.context())))
    }
}

/// What every handler and stream of one app shares: the workspace's service, and the app's CLIs
/// (`A`: their sessions, and what they are told).
pub struct Site<A> {
    pub service: Arc<Service>,
    pub sessions: Arc<A>,
}

// Derived Clone would ask `A: Clone`; only the Arcs are cloned.
impl<A> Clone for Site<A> {
    fn clone(&self) -> Self {
        Site {
            service: self.service.clone(),
            sessions: self.sessions.clone(),
        }
    }
}

impl<A: Audience> Site<A> {
    pub fn new(service: &Arc<Service>, sessions: &Arc<A>) -> Self {
        Site {
            service: service.clone(),
            sessions: sessions.clone(),
        }
    }

    /// The session table, whichever CLIs it holds.
    pub fn table(&self) -> &Sessions {
        self.sessions.table()
    }

    /// A session is gone: forget it and dismiss its reviews.
    pub fn end_session(&self, id: &str) {
        self.table().remove(id);
        self.service.dismiss_session(id);
    }

    /// What a stream that just opened hears first, if its CLI follows anything.
    pub fn greeting(&self) -> Option<Bytes> {
        self.sessions.greeting(&self.service)
    }
}
