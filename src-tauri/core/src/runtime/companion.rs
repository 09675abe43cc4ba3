//! One active workspace: its protocol-free service with each protocol's server wired to it, its
//! token, discovery files and context updates. The protocol folders never see this module.

use crate::api::status::{ClientStatus, WorkspaceStatus};
use crate::discovery::{self, Announcement, Written};
use crate::error::{Error, Result};
use crate::net::accept;
use crate::net::host::Hosts;
use crate::net::limits::Limits;
use crate::platform::clock::Clock;
use crate::platform::dirs::Dirs;
use crate::platform::token::Token;
use crate::protocols::mcp_http;
use crate::protocols::mcp_http::guard::Guard;
use crate::protocols::mcp_http::session::Sessions;
use crate::protocols::mcp_ws;
use crate::protocols::mcp_ws::connections::Connections;
use crate::review::context;
use crate::review::registry::Registry;
use crate::review::service::Service;
use crate::review::{ReviewEvent, ReviewQueue};
use crate::runtime::bridge::{Bridge, ContainerPlan};
use crate::workspace::container::ContainerDirs;
use crate::workspace::Workspace;
use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

pub use crate::review::service::{settle, Decision};

mod copilot;

/// A running companion: the workspace's service, with each protocol's server wired to it.
pub struct Companion {
    /// The workspace's protocol-free service.
    pub shared: Arc<Service>,
    /// Claude Code's WebSocket connections.
    pub connections: Arc<Connections>,
    /// Copilot CLI's sessions.
    pub copilot: Arc<Sessions>,
    pub port: u16,
    /// Claude Code's WebSocket server.
    pub ws_port: u16,
    /// Copilot CLI's unix socket, when it could be bound.
    pub socket: Option<PathBuf>,
    /// The locks written for Copilot CLI sessions running in a subfolder, by folder.
    folder_locks: BTreeMap<PathBuf, PathBuf>,
    trusted: bool,
    token: Arc<RwLock<Token>>,
    written: Written,
    containers: Option<Bridge>,
    cancel: CancellationToken,
    servers: Vec<tokio::task::JoinHandle<()>>,
}

/// A companion told to stop, its servers still closing their connections (each bounded by
/// `limits::DRAIN`).
pub struct Stopping {
    servers: Vec<tokio::task::JoinHandle<()>>,
}

impl Stopping {
    /// Resolves once every connection has closed.
    pub async fn finished(self) {
        for server in self.servers {
            let _ = server.await;
        }
    }
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
        let io = |e| Error::io(workspace.id(), e);
        let (listener, port) = accept::bind_loopback().await.map_err(io)?;
        let (ws_listener, ws_port) = accept::bind_loopback().await.map_err(io)?;
        let mut listeners = vec![listener];
        let mut ws_listeners = vec![ws_listener];
        let mut side = None;
        if let Some(plan) = containers {
            let (bridge, http, ws) = Bridge::bind(plan, port, ws_port).await;
            listeners.extend(http);
            ws_listeners.extend(ws);
            side = Some(bridge);
        }
        let sessions = Arc::new(Sessions::default());
        let connections = Arc::new(Connections::default());
        let copilot_sessions = Arc::new(Sessions::without_context());
        let clients: Vec<Arc<dyn Registry>> = vec![
            sessions.clone(),
            connections.clone(),
            Arc::new(crate::protocols::copilot::sessions::CopilotSessions(
                copilot_sessions.clone(),
            )),
        ];
        let shared = Arc::new(Service::new(workspace, reviews, trusted, clients));
        for p in containers.iter().flat_map(|plan| &plan.paths) {
            shared.add_container_path(p.clone());
        }
        let token = Arc::new(RwLock::new(token));
        let cancel = CancellationToken::new();
        let server = mcp_http::server::serve_all(
            listeners,
            mcp_http::shared::Shared {
                service: shared.clone(),
                sessions,
            },
            Guard {
                hosts: Hosts {
                    port: Some(port),
                    container_port: side.as_ref().and_then(|s| s.port),
                },
                token: token.clone(),
            },
            limits,
            cancel.clone(),
        );
        let ws_server = mcp_ws::server::serve(
            ws_listeners,
            shared.clone(),
            connections.clone(),
            mcp_ws::guard::Guard {
                hosts: Hosts {
                    port: Some(ws_port),
                    container_port: side.as_ref().and_then(|s| s.ws_port),
                },
                token: token.clone(),
            },
            limits,
            cancel.clone(),
        );
        let mut servers = vec![server, ws_server];
        let (socket, copilot_servers) = copilot::serve(
            dirs,
            port,
            mcp_http::shared::Shared {
                service: shared.clone(),
                sessions: copilot_sessions.clone(),
            },
            side.as_mut(),
            &token,
            limits,
            &cancel,
        );
        servers.extend(copilot_servers);
        tokio::spawn(context_updates(shared.clone(), cancel.clone()));
        let trusted = trusted == Some(true);
        let written = {
            let t = token.read().unwrap_or_else(|e| e.into_inner());
            let joined = shared.workspace.joined();
            let a = announcement(
                &shared,
                &joined,
                pid,
                port,
                ws_port,
                socket.as_deref(),
                trusted,
                &t,
            );
            discovery::write(dirs, &a)
        };
        tracing::info!(
            "workspace {} listening on 127.0.0.1:{port} (Claude Code: {ws_port})",
            shared.workspace.id().display()
        );
        let mut companion = Companion {
            shared,
            connections,
            copilot: copilot_sessions,
            port,
            ws_port,
            socket,
            folder_locks: BTreeMap::new(),
            trusted,
            token,
            written,
            containers: side,
            cancel,
            servers,
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
        let token = self.token();
        if let Some(bridge) = self.containers.as_mut() {
            bridge.announce(places, &token, pid, self.shared.workspace.id());
        }
    }

    /// Maps one more container path onto the workspace and announces it; false if known.
    pub fn add_container_path(&mut self, container_path: String, dirs: &Dirs, pid: u32) -> bool {
        if !self.shared.add_container_path(container_path) {
            return false;
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
        self.containers.as_ref()?.endpoint()
    }

    /// Runs `f` with what this server announces now (its ports, socket, token), for the
    /// discovery files and Copilot's folder locks alike.
    fn with_announcement<R>(&self, pid: u32, f: impl FnOnce(&Announcement<'_>) -> R) -> R {
        let token = self.token();
        let joined = self.shared.workspace.joined();
        f(&announcement(
            &self.shared,
            &joined,
            pid,
            self.port,
            self.ws_port,
            self.socket.as_deref(),
            self.trusted,
            &token,
        ))
    }

    pub fn token(&self) -> Token {
        self.token.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Swaps in a new token and rewrites the discovery files with it. Claude Code connections,
    /// authenticated once at the upgrade with the old token, are closed.
    pub fn rotate(&mut self, token: Token, dirs: &Dirs, pid: u32) {
        *self.token.write().unwrap_or_else(|e| e.into_inner()) = token;
        let folders: BTreeSet<PathBuf> = self.folder_locks.keys().cloned().collect();
        self.set_folders(&BTreeSet::new(), dirs, pid);
        self.set_folders(&folders, dirs, pid);
        self.shared.close_clients();
        discovery::remove(&self.written.files);
        self.written = self.with_announcement(pid, |a| discovery::write(dirs, a));
        self.announce_to_containers(dirs, pid);
    }

    pub fn discovery(&self) -> &Written {
        &self.written
    }

    /// Stops serving and removes the files. Each CLI still waiting on a review of this workspace
    /// is told it was rejected first: otherwise its openDiff would wait for ever.
    pub async fn stop(self) {
        self.halt().finished().await
    }

    /// The part of `stop` that waits on nothing: files removed, reviews rejected, servers told
    /// to close. What is left, waiting for peers to go, is the returned `Stopping`'s, so a
    /// caller holding a lock can release it first.
    pub fn halt(self) -> Stopping {
        discovery::remove(&self.written.files);
        discovery::remove(&self.folder_locks.values().cloned().collect::<Vec<_>>());
        if let Some(bridge) = &self.containers {
            bridge.remove_files();
        }
        for r in self.shared.pending() {
            let _ = self.shared.decide(r.id, Decision::Reject);
        }
        self.cancel.cancel();
        Stopping {
            servers: self.servers,
        }
    }

    pub fn status(&self, token_store: &str) -> WorkspaceStatus {
        let ws = self.shared.workspace.id();
        WorkspaceStatus {
            path: ws.to_owned(),
            enabled: true,
            port: Some(self.port),
            ws_port: Some(self.ws_port),
            token_store: token_store.to_owned(),
            discovery_files: self
                .written
                .files
                .iter()
                .chain(self.folder_locks.values())
                .cloned()
                .collect(),
            discovery_failures: self
                .written
                .failures
                .iter()
                .map(|(p, e)| format!("{}: {e}", p.display()))
                .collect(),
            clients: self
                .shared
                .clients()
                .into_iter()
                .map(|(session, c)| ClientStatus {
                    session,
                    name: c.name,
                    version: c.version,
                    process: c.process,
                })
                .collect(),
            pending_reviews: self.shared.pending().len(),
            containers: self
                .containers
                .as_ref()
                .map(|bridge| bridge.status(self.shared.container_paths())),
        }
    }
}

/// What the workspace's discovery files say.
#[allow(clippy::too_many_arguments)]
pub(super) fn announcement<'a>(
    shared: &'a Service,
    workspace_path: &'a str,
    pid: u32,
    port: u16,
    ws_port: u16,
    socket: Option<&'a Path>,
    trusted: bool,
    token: &'a Token,
) -> Announcement<'a> {
    Announcement {
        pid,
        port,
        ws_port: Some(ws_port),
        socket,
        workspace_path,
        roots: &shared.workspace.roots,
        token,
        trusted,
        at_ms: Clock::now_ms(&crate::platform::clock::SystemClock),
    }
}

/// Debounces review and editor changes in this workspace into `ide/contextUpdate`s.
async fn context_updates(shared: Arc<Service>, cancel: CancellationToken) {
    let mut events = shared.reviews.subscribe();
    let mut editor = shared.editor.subscribe();
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
            Ok(()) = editor.changed(), if due.is_none() => {
                due = Some(tokio::time::Instant::now() + context::DEBOUNCE);
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
