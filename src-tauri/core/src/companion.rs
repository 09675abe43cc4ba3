//! One active workspace: its server, token, discovery files and context updates.

use crate::container::{self, ContainerDirs, ContainerStatus};
use crate::context::{self, ContextFile};
use crate::dirs::Dirs;
use crate::discovery::{self, Announcement, Written};
use crate::error::{Error, Result};
use crate::host::Hosts;
use crate::http::guard::Guard;
use crate::http::server;
use crate::http::session::{sse_event, Sessions};
use crate::limits::Limits;
use crate::review::{Outcome, ReviewEvent, ReviewId, ReviewQueue};
use crate::token::Token;
use crate::workspace::Workspace;
use crate::ws;
use bytes::Bytes;
use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

/// The user's decision on a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Accept with this text, or the review's current text.
    Accept(Option<String>),
    Reject,
}

/// What the server's handlers share about their workspace.
pub struct Shared {
    pub workspace: Workspace,
    pub reviews: Arc<ReviewQueue>,
    pub sessions: Sessions,
    /// Claude Code's WebSocket connections.
    pub connections: ws::session::Connections,
    pub trusted: Option<bool>,
    /// Finds the process behind a connection, to name the CLI that asked.
    pub peers: Arc<dyn crate::peer::PeerLookup>,
    last_context: Mutex<Option<serde_json::Value>>,
    /// Container paths mapped onto the workspace (containers on, `--path` given).
    container_paths: RwLock<Vec<String>>,
}

impl Shared {
    pub fn new(workspace: Workspace, reviews: Arc<ReviewQueue>, trusted: Option<bool>) -> Self {
        Shared {
            workspace,
            reviews,
            sessions: Sessions::default(),
            connections: ws::session::Connections::default(),
            trusted,
            peers: Arc::new(crate::peer::OsPeers),
            last_context: Mutex::new(None),
            container_paths: RwLock::new(Vec::new()),
        }
    }

    pub fn container_paths(&self) -> Vec<String> {
        self.container_paths
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The host path a CLI's `filePath` stands for, and whether a container mapping made it.
    pub fn host_path(&self, file_path: &str) -> (String, bool) {
        let paths = self.container_paths();
        match container::to_host(file_path, self.workspace.id(), &paths) {
            Some(host) => (host, true),
            None => (file_path.to_owned(), false),
        }
    }

    /// Settles a review; the queue tells the CLI that asked, in its own protocol. Only one
    /// decision can win.
    pub fn decide(&self, id: ReviewId, decision: Decision) -> Result<()> {
        match decision {
            Decision::Accept(content) => self.reviews.accept(id, content)?,
            Decision::Reject => self.reviews.resolve(id, Outcome::Rejected)?,
        };
        Ok(())
    }

    /// A session is gone: forget it and dismiss its reviews.
    pub fn end_session(&self, id: &str) {
        self.sessions.remove(id);
        let ws = self.workspace.id();
        self.reviews
            .dismiss(|r| r.session == id && r.workspace == ws);
    }

    fn context(&self) -> serde_json::Value {
        let ws = self.workspace.id();
        let files = self
            .reviews
            .list()
            .into_iter()
            .filter(|r| r.workspace == ws)
            .map(|r| ContextFile {
                path: r.path.clone(),
                timestamp: r.updated_at,
                cursor: None,
                selected_text: None,
            });
        context::ide_context(files, self.trusted)
    }

    /// The current context as an event, for a stream that just opened.
    pub fn context_event(&self) -> Bytes {
        sse_event("ide/contextUpdate", self.context())
    }

    /// Sends the context to every session if it changed since last sent.
    fn push_context_if_changed(&self) {
        let now = self.context();
        let mut last = self.last_context.lock().unwrap_or_else(|e| e.into_inner());
        if last.as_ref() != Some(&now) {
            self.sessions
                .broadcast(sse_event("ide/contextUpdate", now.clone()));
            *last = Some(now);
        }
    }
}

/// A workspace's status for `redline status` and the tray.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceStatus {
    pub path: PathBuf,
    pub enabled: bool,
    pub port: Option<u16>,
    /// Claude Code's WebSocket port.
    #[serde(default)]
    pub ws_port: Option<u16>,
    pub token_store: String,
    pub discovery_files: Vec<PathBuf>,
    pub discovery_failures: Vec<String>,
    pub clients: Vec<ClientStatus>,
    pub pending_reviews: usize,
    /// `None`: containers are off for this workspace.
    #[serde(default)]
    pub containers: Option<ContainerStatus>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct ClientStatus {
    pub session: String,
    pub name: String,
    pub version: String,
    /// The process behind the session, once a review found it.
    #[serde(default)]
    pub process: Option<crate::peer::PeerProcess>,
}

/// What a workspace with containers on asks of its companion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerPlan {
    /// Where to listen for containers, or why there is nowhere (no bridge found).
    pub address: std::result::Result<Ipv4Addr, String>,
    /// Container paths mapped onto the workspace, besides its own path.
    pub paths: Vec<String>,
}

/// The container side of a running companion.
struct ContainerSide {
    address: Option<Ipv4Addr>,
    port: Option<u16>,
    /// Where containers reach Claude Code's WebSocket server.
    ws_port: Option<u16>,
    error: Option<String>,
    written: Written,
}

/// A running companion.
pub struct Companion {
    pub shared: Arc<Shared>,
    pub port: u16,
    /// Claude Code's WebSocket server.
    pub ws_port: u16,
    token: Arc<RwLock<Token>>,
    written: Written,
    containers: Option<ContainerSide>,
    cancel: CancellationToken,
    server: tokio::task::JoinHandle<()>,
    ws_server: tokio::task::JoinHandle<()>,
}

/// Binds `at` even when no interface has that address yet (Linux `IP_FREEBIND`): Docker may
/// start after Redline, and Podman makes its bridge when a container needs it. Connections
/// arrive once the address exists. `redline container enable` checks the address first.
fn bind_even_if_down(at: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
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
) -> std::result::Result<(Option<tokio::net::TcpListener>, u16), String> {
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

/// What the workspace's settings ask of its companion.
pub struct Setup<'a> {
    /// Sent to CLIs as `workspaceState.isTrusted` only when the user set it.
    pub trusted: Option<bool>,
    pub limits: Limits,
    /// Present when containers are on for the workspace.
    pub containers: Option<&'a ContainerPlan>,
}

impl Companion {
    /// Binds, then announces, then serves: the port in the files is always live.
    pub async fn start(
        workspace: Workspace,
        setup: Setup<'_>,
        token: Token,
        reviews: Arc<ReviewQueue>,
        dirs: &Dirs,
        pid: u32,
    ) -> Result<Companion> {
        let Setup {
            trusted,
            limits,
            containers,
        } = setup;
        let listener = server::bind()
            .await
            .map_err(|e| Error::io(workspace.id(), e))?;
        let port = listener
            .local_addr()
            .map_err(|e| Error::io(workspace.id(), e))?
            .port();
        let ws_listener = ws::server::bind()
            .await
            .map_err(|e| Error::io(workspace.id(), e))?;
        let ws_port = ws_listener
            .local_addr()
            .map_err(|e| Error::io(workspace.id(), e))?
            .port();
        let mut listeners = vec![listener];
        let mut ws_listeners = vec![ws_listener];
        let mut side = None;
        if let Some(plan) = containers {
            let bound = match &plan.address {
                Ok(addr) => match bind_for_containers(*addr, port).await {
                    Ok(http) => bind_for_containers(*addr, ws_port)
                        .await
                        .map(|ws| (*addr, http, ws)),
                    Err(e) => Err(e),
                },
                Err(e) => Err(e.clone()),
            };
            side = Some(match bound {
                Ok((address, (extra, cport), (ws_extra, cws_port))) => {
                    listeners.extend(extra);
                    ws_listeners.extend(ws_extra);
                    ContainerSide {
                        address: Some(address),
                        port: Some(cport),
                        ws_port: Some(cws_port),
                        error: None,
                        written: Written::default(),
                    }
                }
                Err(error) => {
                    tracing::warn!("{error}");
                    ContainerSide {
                        address: plan.address.clone().ok(),
                        port: None,
                        ws_port: None,
                        error: Some(error),
                        written: Written::default(),
                    }
                }
            });
        }
        let shared = Arc::new(Shared::new(workspace, reviews, trusted));
        if let Some(plan) = containers {
            *shared
                .container_paths
                .write()
                .unwrap_or_else(|e| e.into_inner()) = plan.paths.clone();
        }
        let token = Arc::new(RwLock::new(token));
        let cancel = CancellationToken::new();
        let server = server::serve_all(
            listeners,
            shared.clone(),
            Guard {
                hosts: Hosts {
                    port,
                    container_port: side.as_ref().and_then(|s| s.port),
                },
                token: token.clone(),
            },
            limits,
            cancel.clone(),
        );
        let ws_server = ws::server::serve(
            ws_listeners,
            shared.clone(),
            ws::guard::Guard {
                hosts: Hosts {
                    port: ws_port,
                    container_port: side.as_ref().and_then(|s| s.ws_port),
                },
                token: token.clone(),
            },
            limits,
            cancel.clone(),
        );
        tokio::spawn(context_updates(shared.clone(), cancel.clone()));
        let written = {
            let t = token.read().unwrap_or_else(|e| e.into_inner());
            discovery::write(
                dirs,
                &Announcement {
                    pid,
                    port,
                    ws_port: Some(ws_port),
                    workspace_path: &shared.workspace.joined(),
                    roots: &shared.workspace.roots,
                    token: &t,
                },
            )
        };
        tracing::info!(
            "workspace {} listening on 127.0.0.1:{port} (Claude Code: {ws_port})",
            shared.workspace.id().display()
        );
        let mut companion = Companion {
            shared,
            port,
            ws_port,
            token,
            written,
            containers: side,
            cancel,
            server,
            ws_server,
        };
        companion.announce_to_containers(dirs, pid);
        Ok(companion)
    }

    /// Every container path the workspace is seen at: its own, then the mapped ones.
    fn container_places(&self, dirs: &Dirs) -> Vec<ContainerDirs> {
        let host = self.shared.workspace.id();
        std::iter::once(host.to_string_lossy().into_owned())
            .chain(self.shared.container_paths())
            .map(|p| ContainerDirs::new(dirs, host, &p))
            .collect()
    }

    /// (Re)writes the container discovery files, when containers can reach the server.
    fn announce_to_containers(&mut self, dirs: &Dirs, pid: u32) {
        let places = self.container_places(dirs);
        let Some(side) = self.containers.as_mut() else {
            return;
        };
        let Some(port) = side.port else {
            return;
        };
        let token = self.token.read().unwrap_or_else(|e| e.into_inner()).clone();
        // Rewritten in place (atomically), never removed first: a container starting meanwhile
        // must still find them.
        let mut written = Written::default();
        for place in places {
            let w = discovery::write_for_container(
                &place,
                &Announcement {
                    pid,
                    port,
                    ws_port: side.ws_port,
                    workspace_path: &place.container_path,
                    roots: &[],
                    token: &token,
                },
            );
            written.files.extend(w.files);
            written.failures.extend(w.failures);
        }
        let gone: Vec<PathBuf> = side
            .written
            .files
            .iter()
            .filter(|f| !written.files.contains(f))
            .cloned()
            .collect();
        discovery::remove(&gone);
        side.written = written;
        if let Some(addr) = side.address {
            tracing::info!(
                "workspace {} reachable from containers on {addr}:{port}",
                self.shared.workspace.id().display()
            );
        }
    }

    /// Maps one more container path onto the workspace and announces it; false if known.
    pub fn add_container_path(&mut self, container_path: String, dirs: &Dirs, pid: u32) -> bool {
        {
            let mut paths = self
                .shared
                .container_paths
                .write()
                .unwrap_or_else(|e| e.into_inner());
            if paths.contains(&container_path) {
                return false;
            }
            paths.push(container_path);
        }
        self.announce_to_containers(dirs, pid);
        true
    }

    /// Why containers cannot reach this server, when they are on and cannot.
    pub fn container_error(&self) -> Option<&str> {
        self.containers.as_ref()?.error.as_deref()
    }

    /// Where containers reach this server (address, port), when they can.
    pub fn container_endpoint(&self) -> Option<(Ipv4Addr, u16)> {
        let side = self.containers.as_ref()?;
        Some((side.address?, side.port?))
    }

    pub fn token(&self) -> Token {
        self.token.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Swaps in a new token and rewrites the discovery files with it. Claude Code connections,
    /// authenticated once at the upgrade with the old token, are closed.
    pub fn rotate(&mut self, token: Token, dirs: &Dirs, pid: u32) {
        *self.token.write().unwrap_or_else(|e| e.into_inner()) = token.clone();
        self.shared.connections.close_all();
        discovery::remove(&self.written.files);
        self.written = discovery::write(
            dirs,
            &Announcement {
                pid,
                port: self.port,
                ws_port: Some(self.ws_port),
                workspace_path: &self.shared.workspace.joined(),
                roots: &self.shared.workspace.roots,
                token: &token,
            },
        );
        self.announce_to_containers(dirs, pid);
    }

    pub fn discovery(&self) -> &Written {
        &self.written
    }

    /// Stops serving and removes the files. Each CLI still waiting on a review of this workspace
    /// is told it was rejected first: otherwise its openDiff would wait for ever.
    pub async fn stop(self) {
        discovery::remove(&self.written.files);
        if let Some(side) = &self.containers {
            discovery::remove(&side.written.files);
        }
        let ws = self.shared.workspace.id().to_owned();
        for r in self.shared.reviews.list() {
            if r.workspace == ws {
                let _ = self.shared.decide(r.id, Decision::Reject);
            }
        }
        self.cancel.cancel();
        let _ = self.server.await;
        let _ = self.ws_server.await;
    }

    pub fn status(&self, token_store: &str) -> WorkspaceStatus {
        let ws = self.shared.workspace.id();
        WorkspaceStatus {
            path: ws.to_owned(),
            enabled: true,
            port: Some(self.port),
            ws_port: Some(self.ws_port),
            token_store: token_store.to_owned(),
            discovery_files: self.written.files.clone(),
            discovery_failures: self
                .written
                .failures
                .iter()
                .map(|(p, e)| format!("{}: {e}", p.display()))
                .collect(),
            clients: self
                .shared
                .sessions
                .list()
                .into_iter()
                .chain(self.shared.connections.list())
                .map(|(session, c)| ClientStatus {
                    session,
                    name: c.name,
                    version: c.version,
                    process: c.process,
                })
                .collect(),
            pending_reviews: self
                .shared
                .reviews
                .list()
                .iter()
                .filter(|r| r.workspace == ws)
                .count(),
            containers: self.containers.as_ref().map(|side| ContainerStatus {
                address: side.address,
                port: side.port,
                ws_port: side.ws_port,
                paths: self.shared.container_paths(),
                discovery_files: side.written.files.clone(),
                error: side.error.clone().or_else(|| {
                    side.written
                        .failures
                        .first()
                        .map(|(p, e)| format!("{}: {e}", p.display()))
                }),
            }),
        }
    }
}

/// Debounces review changes in this workspace into `ide/contextUpdate`s.
async fn context_updates(shared: Arc<Shared>, cancel: CancellationToken) {
    let mut events = shared.reviews.subscribe();
    let ws = shared.workspace.id().to_owned();
    let mut due: Option<tokio::time::Instant> = None;
    loop {
        let wait = async {
            match due {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = wait => {
                due = None;
                shared.push_context_if_changed();
            }
            event = events.recv() => {
                let ours = match &event {
                    Ok(ReviewEvent::Added(r) | ReviewEvent::Updated(r)) => r.workspace == ws,
                    Ok(ReviewEvent::Resolved { workspace, .. }) => *workspace == ws,
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                };
                if ours && due.is_none() {
                    due = Some(tokio::time::Instant::now() + context::DEBOUNCE);
                }
            }
        }
    }
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
