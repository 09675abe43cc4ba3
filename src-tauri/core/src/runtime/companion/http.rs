//! Gemini CLI's and Qwen Code's server in a companion: MCP over HTTP on loopback, and on the
//! container bridge when containers are on.

use super::listeners::Listeners;
use super::server::{Server, Terms};
use crate::api::status::WorkspaceStatus;
use crate::discovery::Announcement;
use crate::protocols::mcp_http;
use crate::protocols::mcp_http::guard::Guard;
use crate::protocols::mcp_http::session::Sessions;
use crate::protocols::mcp_http::site::Site;
use crate::review::registry::Registry;
use crate::review::service::Service;
use std::sync::Arc;
use tokio::task::JoinHandle;

pub(super) struct HttpServer {
    sessions: Arc<Sessions>,
    /// Its port also names Copilot CLI's socket and locks.
    listeners: Listeners,
}

impl HttpServer {
    pub(super) fn new(listeners: Listeners) -> Self {
        let sessions = Arc::default();
        HttpServer {
            sessions,
            listeners,
        }
    }
}

impl Server for HttpServer {
    fn announce<'a>(&'a self, a: &mut Announcement<'a>) {
        a.port = self.listeners.port;
    }

    fn serve(&mut self, service: &Arc<Service>, terms: &Terms) -> Vec<JoinHandle<()>> {
        let (listeners, hosts) = self.listeners.take();
        let site = Site::new(service, &self.sessions);
        let token = terms.token.clone();
        let guard = Guard { hosts, token };
        let cancel = terms.cancel.clone();
        let server = mcp_http::server::serve_all(listeners, site, guard, terms.limits, cancel);
        vec![server]
    }

    fn registry(&self) -> Arc<dyn Registry> {
        self.sessions.clone()
    }

    fn report(&self, status: &mut WorkspaceStatus) {
        status.port = Some(self.listeners.port);
    }
}
