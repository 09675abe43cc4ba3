//! The TCP listeners of one of a companion's servers: loopback's, and the container bridge's
//! when containers are on, with the names the server answers to on them.

use crate::net::host::Hosts;
use tokio::net::TcpListener;

pub(super) struct Listeners {
    /// Taken when serving starts.
    bound: Vec<TcpListener>,
    hosts: Hosts,
    /// Loopback's port, the one the host's files announce.
    pub port: u16,
}

impl Listeners {
    /// `bound` starts with loopback's listener, on `port`; containers reach the bridge's on
    /// `container_port`.
    pub(super) fn new(bound: Vec<TcpListener>, port: u16, container_port: Option<u16>) -> Self {
        let hosts = Hosts {
            port: Some(port),
            container_port,
        };
        Listeners { bound, hosts, port }
    }

    /// The listeners, to serve on once, and the names they answer to.
    pub(super) fn take(&mut self) -> (Vec<TcpListener>, Hosts) {
        (std::mem::take(&mut self.bound), self.hosts)
    }
}
