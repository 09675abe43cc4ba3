//! One protocol's server in a companion: bound before the workspace's service exists, serving it
//! once it does, and saying where its CLIs find it. A companion runs a list of them.

use crate::api::status::WorkspaceStatus;
use crate::discovery::Announcement;
use crate::net::limits::Limits;
use crate::platform::token::Token;
use crate::review::registry::Registry;
use crate::review::service::Service;
use std::sync::{Arc, RwLock};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// What every server of a companion serves under.
pub(crate) struct Terms {
    /// The token as it is now: a rotation swaps it in place.
    pub token: Arc<RwLock<Token>>,
    pub limits: Limits,
    /// Fired once, to stop every server of the companion.
    pub cancel: CancellationToken,
}

pub(crate) trait Server: Send + Sync {
    /// Its connected CLIs, as the workspace's service reaches them.
    fn registry(&self) -> Arc<dyn Registry>;

    /// Serves `service` on what it bound until `terms.cancel` fires; the tasks end once its
    /// peers have gone (each bounded by `limits::DRAIN`). Called once.
    fn serve(&mut self, service: &Arc<Service>, terms: &Terms) -> Vec<JoinHandle<()>>;

    /// Its part of what the discovery files announce (its port, or its socket).
    fn announce<'a>(&'a self, a: &mut Announcement<'a>);

    /// Its part of the workspace's status.
    fn report(&self, _status: &mut WorkspaceStatus) {}

    /// The token was rotated. A server that checks every request has nothing to do; one whose
    /// connections were authenticated once, at the start, closes them.
    fn rotated(&self) {}
}
