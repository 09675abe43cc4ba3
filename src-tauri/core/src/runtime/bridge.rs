//! The container side of a workspace's servers: their listeners on the bridge address, and the
//! discovery files written for containers.

use crate::api::status::ContainerStatus;
use crate::discovery::{self, Announcement, Written};
use crate::platform::token::Token;
use crate::workspace::container::ContainerDirs;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use tokio::net::TcpListener;

/// What a workspace with containers on asks of its companion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerPlan {
    /// Where to listen for containers, or why there is nowhere (no bridge found).
    pub address: std::result::Result<Ipv4Addr, String>,
    /// Container paths mapped onto the workspace, besides its own path.
    pub paths: Vec<String>,
}

/// Where containers reach a running companion, or why they cannot.
pub struct Bridge {
    pub address: Option<Ipv4Addr>,
    /// Where containers reach the HTTP server (Gemini CLI, Qwen Code).
    pub port: Option<u16>,
    /// Where containers reach Claude Code's WebSocket server.
    pub ws_port: Option<u16>,
    pub error: Option<String>,
    /// The workspace's socket for containers (Copilot CLI), when it could be bound.
    pub socket: Option<PathBuf>,
    written: Written,
}

impl Bridge {
    /// Binds the bridge listeners of both servers (HTTP on `port`, WebSocket on `ws_port` where
    /// free), or records why containers cannot reach them: both or neither, never half.
    pub async fn bind(
        plan: &ContainerPlan,
        port: u16,
        ws_port: u16,
    ) -> (Bridge, Option<TcpListener>, Option<TcpListener>) {
        let bound = match &plan.address {
            Ok(addr) => match bind_for_containers(*addr, port).await {
                Ok(http) => bind_for_containers(*addr, ws_port)
                    .await
                    .map(|ws| (*addr, http, ws)),
                Err(e) => Err(e),
            },
            Err(e) => Err(e.clone()),
        };
        match bound {
            Ok((address, (http, cport), (ws, cws_port))) => (
                Bridge {
                    address: Some(address),
                    port: Some(cport),
                    ws_port: Some(cws_port),
                    error: None,
                    socket: None,
                    written: Written::default(),
                },
                http,
                ws,
            ),
            Err(error) => {
                tracing::warn!("{error}");
                let bridge = Bridge {
                    address: plan.address.clone().ok(),
                    port: None,
                    ws_port: None,
                    error: Some(error),
                    socket: None,
                    written: Written::default(),
                };
                (bridge, None, None)
            }
        }
    }

    /// Where containers reach the HTTP server (address, port), when they can.
    pub fn endpoint(&self) -> Option<(Ipv4Addr, u16)> {
        Some((self.address?, self.port?))
    }

    /// (Re)writes the container discovery files at every place the workspace is seen, when
    /// containers can reach the servers; files of places no longer listed go.
    pub fn announce(&mut self, places: Vec<ContainerDirs>, token: &Token, pid: u32, ws: &Path) {
        let Some(port) = self.port else {
            return;
        };
        // Rewritten in place (atomically), never removed first: a container starting meanwhile
        // must still find them.
        let mut written = Written::default();
        for place in places {
            let w = discovery::write_for_container(
                &place,
                &Announcement {
                    pid,
                    port,
                    ws_port: self.ws_port,
                    amp_port: None,
                    socket: self.socket.as_deref(),
                    workspace_path: &place.container_path,
                    roots: &[],
                    token,
                    trusted: false,
                    at_ms: 0,
                },
            );
            written.extend(w);
        }
        let gone: Vec<PathBuf> = self
            .written
            .files
            .iter()
            .filter(|f| !written.files.contains(f))
            .cloned()
            .collect();
        discovery::remove(&gone);
        self.written = written;
        if let Some(addr) = self.address {
            tracing::info!(
                "workspace {} reachable from containers on {addr}:{port}",
                ws.display()
            );
        }
    }

    pub fn remove_files(&self) {
        self.written.remove();
    }

    pub fn status(&self, paths: Vec<String>) -> ContainerStatus {
        ContainerStatus {
            address: self.address,
            port: self.port,
            ws_port: self.ws_port,
            paths,
            discovery_files: self.written.present().0,
            error: self.error.clone().or_else(|| {
                let gone = self.written.present().1;
                self.written
                    .failures
                    .iter()
                    .chain(&gone)
                    .next()
                    .map(|(p, e)| format!("{}: {e}", p.display()))
            }),
        }
    }
}

/// Binds `at` even when no interface has that address yet (Linux `IP_FREEBIND`): Docker may
/// start after Redline, and Podman makes its bridge when a container needs it. Connections
/// arrive once the address exists. `redline container enable` checks the address first.
fn bind_even_if_down(at: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let one: libc::c_int = 1;
        // SAFETY: a valid socket descriptor, and a c_int option value of the size given.
        let rc = unsafe {
            libc::setsockopt(
                socket.as_raw_fd(),
                libc::IPPROTO_IP,
                libc::IP_FREEBIND,
                (&one as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    socket.bind(at)?;
    socket.listen(1024)
}

/// Binds the container listener on `address`, on the loopback port if it is free there (so
/// both sides announce one port), else on any. 127.0.0.1 itself needs no second listener.
async fn bind_for_containers(
    address: Ipv4Addr,
    port: u16,
) -> std::result::Result<(Option<TcpListener>, u16), String> {
    if address == Ipv4Addr::LOCALHOST {
        return Ok((None, port));
    }
    let at = |p| SocketAddr::new(IpAddr::V4(address), p);
    let listener = match bind_even_if_down(at(port)) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => bind_even_if_down(at(0))
            .map_err(|e| format!("cannot listen on {address} for containers: {e}"))?,
        Err(e) => {
            return Err(format!(
                "cannot listen on {address}:{port} for containers: {e}"
            ))
        }
    };
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {address} for containers: {e}"))?
        .port();
    Ok((Some(listener), bound))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_container_listener_takes_the_loopback_port_when_free_else_another() {
        // All of 127/8 is this host's on Linux: 127.0.0.2 stands in for a bridge.
        let bridge = Ipv4Addr::new(127, 0, 0, 2);
        let taken = tokio::net::TcpListener::bind((bridge, 0)).await.unwrap();
        let port = taken.local_addr().unwrap().port();
        let (listener, other) = bind_for_containers(bridge, port).await.unwrap();
        assert!(listener.is_some());
        assert_ne!(other, port, "the port is taken there: another one");
        drop(taken);
        drop(listener);
        let (_listener, same) = bind_for_containers(bridge, port).await.unwrap();
        assert_eq!(same, port, "free: the same port as loopback");
        let (none, lo) = bind_for_containers(Ipv4Addr::LOCALHOST, port)
            .await
            .unwrap();
        assert!(
            none.is_none() && lo == port,
            "127.0.0.1 is the loopback listener itself"
        );
        // An address no interface has (yet): listened on all the same.
        let (later, _) = bind_for_containers(Ipv4Addr::new(192, 0, 2, 123), 0)
            .await
            .unwrap();
        assert!(later.is_some());
    }
}
