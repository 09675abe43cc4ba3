//! Claude Code's server in a companion: MCP over WebSocket on loopback, and on the container
//! bridge when containers are on.

use super::listeners::Listeners;
use super::server::{Server, Terms};
use crate::api::status::WorkspaceStatus;
use crate::discovery::Announcement;
use crate::protocols::mcp_ws;
use crate::protocols::mcp_ws::connections::Connections;
use crate::protocols::mcp_ws::guard::Guard;
use crate::review::registry::Registry;
use crate::review::service::Service;
use std::sync::Arc;
use tokio::task::JoinHandle;

pub(super) struct WebSocketServer {
    connections: Arc<Connections>,
    listeners: Listeners,
}

impl WebSocketServer {
    /// Serves `connections` on `listeners`.
    pub(super) fn new(connections: Arc<Connections>, listeners: Listeners) -> Self {
        WebSocketServer {
            connections,
            listeners,
        }
    }
}

impl Server for WebSocketServer {
    fn registry(&self) -> Arc<dyn Registry> {
        self.connections.clone()
    }

    fn announce<'a>(&'a self, a: &mut Announcement<'a>) {
        a.ws_port = Some(self.listeners.port);
    }

    fn serve(&mut self, service: &Arc<Service>, terms: &Terms) -> Vec<JoinHandle<()>> {
        let (listeners, hosts) = self.listeners.take();
        let connections = self.connections.clone();
        vec![mcp_ws::server::serve(
            listeners,
            service.clone(),
            connections,
            Guard {
                hosts,
                token: terms.token.clone(),
            },
            terms.limits,
            terms.cancel.clone(),
        )]
    }

    /// Claude Code authenticates once, at the upgrade: its connections made with the old token
    /// are closed (each answers its blocked calls first).
    fn rotated(&self) {
        self.connections.close_all();
    }

    fn report(&self, status: &mut WorkspaceStatus) {
        status.ws_port = Some(self.listeners.port);
    }
}
