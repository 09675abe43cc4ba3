//! Gemini CLI's and Qwen Code's server in a companion: MCP over HTTP on loopback, and on the
//! container bridge when containers are on.

use super::server::Server;
use crate::api::status::WorkspaceStatus;
use crate::discovery::Announcement;
use crate::net::host::Hosts;
use crate::net::limits::Limits;
use crate::platform::token::Token;
use crate::protocols::mcp_http;
use crate::protocols::mcp_http::guard::Guard;
use crate::protocols::mcp_http::session::Sessions;
use crate::protocols::mcp_http::site::Site;
use crate::review::registry::Registry;
use crate::review::service::Service;
use std::sync::{Arc, RwLock};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub(super) struct HttpServer {
    sessions: Arc<Sessions>,
    /// Taken when serving starts.
    listeners: Vec<TcpListener>,
    hosts: Hosts,
    /// The loopback port: what the files announce, and what names Copilot CLI's socket and
    /// locks.
    port: u16,
}

impl HttpServer {
    /// Serves on `listeners` (loopback's on `port` first), answering to the names `hosts` lists.
    pub(super) fn new(listeners: Vec<TcpListener>, port: u16, container_port: Option<u16>) -> Self {
        HttpServer {
            sessions: Arc::default(),
            listeners,
            hosts: Hosts {
                port: Some(port),
                container_port,
            },
            port,
        }
    }
}

impl Server for HttpServer {
    fn registry(&self) -> Arc<dyn Registry> {
        self.sessions.clone()
    }

    fn serve(
        &mut self,
        service: &Arc<Service>,
        token: &Arc<RwLock<Token>>,
        limits: Limits,
        cancel: &CancellationToken,
    ) -> Vec<JoinHandle<()>> {
        let site = Site {
            service: service.clone(),
            sessions: self.sessions.clone(),
        };
        let guard = Guard {
            hosts: self.hosts,
            token: token.clone(),
        };
        let listeners = std::mem::take(&mut self.listeners);
        vec![mcp_http::server::serve_all(
            listeners,
            site,
            guard,
            limits,
            cancel.clone(),
        )]
    }

    fn announce<'a>(&'a self, a: &mut Announcement<'a>) {
        a.port = self.port;
    }

    fn report(&self, status: &mut WorkspaceStatus) {
        status.port = Some(self.port);
    }
}
