//! One active workspace: its server, token, discovery files and context updates.

use crate::accept;
use crate::bridge::{Bridge, ContainerPlan};
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
use std::net::Ipv4Addr;
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

/// Settles a review through the queue alone, which tells the CLI that asked: no companion is
/// needed, so a decision never waits on a workspace starting or stopping.
pub fn settle(reviews: &ReviewQueue, id: ReviewId, decision: Decision) -> Result<()> {
    match decision {
        Decision::Accept(content) => reviews.accept(id, content)?,
        Decision::Reject => reviews.resolve(id, Outcome::Rejected)?,
    };
    Ok(())
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
        settle(&self.reviews, id, decision)
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

/// A running companion.
pub struct Companion {
    pub shared: Arc<Shared>,
    pub port: u16,
    /// Claude Code's WebSocket server.
    pub ws_port: u16,
    token: Arc<RwLock<Token>>,
    written: Written,
    containers: Option<Bridge>,
    cancel: CancellationToken,
    server: tokio::task::JoinHandle<()>,
    ws_server: tokio::task::JoinHandle<()>,
}

/// A companion told to stop, its servers still closing their connections (each bounded by
/// `limits::DRAIN`).
pub struct Stopping {
    servers: [tokio::task::JoinHandle<()>; 2],
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
        let token = self.token();
        if let Some(bridge) = self.containers.as_mut() {
            bridge.announce(places, &token, pid, self.shared.workspace.id());
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
        self.containers.as_ref()?.endpoint()
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
        self.halt().finished().await
    }

    /// The part of `stop` that waits on nothing: files removed, reviews rejected, servers told
    /// to close. What is left, waiting for peers to go, is the returned `Stopping`'s, so a
    /// caller holding a lock can release it first.
    pub fn halt(self) -> Stopping {
        discovery::remove(&self.written.files);
        if let Some(bridge) = &self.containers {
            bridge.remove_files();
        }
        let ws = self.shared.workspace.id().to_owned();
        for r in self.shared.reviews.list() {
            if r.workspace == ws {
                let _ = self.shared.decide(r.id, Decision::Reject);
            }
        }
        self.cancel.cancel();
        Stopping {
            servers: [self.server, self.ws_server],
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
            containers: self
                .containers
                .as_ref()
                .map(|bridge| bridge.status(self.shared.container_paths())),
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
