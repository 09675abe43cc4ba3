//! Amp's server in a companion: its own WebSocket messages on loopback (Amp cannot reach the
//! host from a container, so no bridge listener).

use super::listeners::Listeners;
use super::server::{Server, Terms};
use crate::api::status::WorkspaceStatus;
use crate::discovery::Announcement;
use crate::protocols::amp_ws::connections::AmpConnections;
use crate::protocols::amp_ws::server::{self, Guard};
use crate::review::registry::Registry;
use crate::review::service::Service;
use std::sync::Arc;
use tokio::task::JoinHandle;

pub(super) struct AmpServer {
    connections: Arc<AmpConnections>,
    listeners: Listeners,
}

impl AmpServer {
    pub(super) fn new(listeners: Listeners) -> Self {
        AmpServer {
            connections: Arc::new(AmpConnections::default()),
            listeners,
        }
    }
}

impl Server for AmpServer {
    fn registry(&self) -> Arc<dyn Registry> {
        self.connections.clone()
    }

    fn announce<'a>(&'a self, a: &mut Announcement<'a>) {
        a.amp_port = Some(self.listeners.port);
    }

    fn serve(&mut self, _service: &Arc<Service>, terms: &Terms) -> Vec<JoinHandle<()>> {
        let (listeners, hosts) = self.listeners.take();
        vec![server::serve(
            listeners,
            self.connections.clone(),
            Guard {
                hosts,
                token: terms.token.clone(),
            },
            terms.limits,
            terms.cancel.clone(),
        )]
    }

    /// Amp proves the token once, at the upgrade: its connections made with the old one go.
    fn rotated(&self) {
        self.connections.close_all();
    }

    fn report(&self, status: &mut WorkspaceStatus) {
        status.amp_port = Some(self.listeners.port);
    }
}
