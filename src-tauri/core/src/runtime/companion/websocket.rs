//! Claude Code's server in a companion: MCP over WebSocket on loopback, and on the container
//! bridge when containers are on.

use super::server::Server;
use crate::api::status::WorkspaceStatus;
use crate::discovery::Announcement;
use crate::net::host::Hosts;
use crate::net::limits::Limits;
use crate::platform::token::Token;
use crate::protocols::mcp_ws;
use crate::protocols::mcp_ws::connections::Connections;
use crate::protocols::mcp_ws::guard::Guard;
use crate::review::registry::Registry;
use crate::review::service::Service;
use std::sync::{Arc, RwLock};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub(super) struct WebSocketServer {
    connections: Arc<Connections>,
    /// Taken when serving starts.
    listeners: Vec<TcpListener>,
    hosts: Hosts,
    port: u16,
}

impl WebSocketServer {
    /// Serves `connections` on `listeners` (loopback's on `port` first).
    pub(super) fn new(
        connections: Arc<Connections>,
        listeners: Vec<TcpListener>,
        port: u16,
        container_port: Option<u16>,
    ) -> Self {
        WebSocketServer {
            connections,
            listeners,
            hosts: Hosts {
                port: Some(port),
                container_port,
            },
            port,
        }
    }
}

impl Server for WebSocketServer {
    fn registry(&self) -> Arc<dyn Registry> {
        self.connections.clone()
    }

    fn serve(
        &mut self,
        service: &Arc<Service>,
        token: &Arc<RwLock<Token>>,
        limits: Limits,
        cancel: &CancellationToken,
    ) -> Vec<JoinHandle<()>> {
        let guard = Guard {
            hosts: self.hosts,
            token: token.clone(),
        };
        vec![mcp_ws::server::serve(
            std::mem::take(&mut self.listeners),
            service.clone(),
            self.connections.clone(),
            guard,
            limits,
            cancel.clone(),
        )]
    }

    fn announce<'a>(&'a self, a: &mut Announcement<'a>) {
        a.ws_port = Some(self.port);
    }

    fn report(&self, status: &mut WorkspaceStatus) {
        status.ws_port = Some(self.port);
    }

    /// Claude Code authenticates once, at the upgrade: its connections made with the old token
    /// are closed (each answers its blocked calls first).
    fn rotated(&self) {
        self.connections.close_all();
    }
}
