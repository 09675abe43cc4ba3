//! One active workspace: its protocol-free service with each protocol's server wired to it, its
//! token, discovery files and context updates. The protocol folders never see this module.

use crate::api::status::{ClientStatus, Pin, WorkspaceStatus};
use crate::discovery::{self, Announcement, Written};
use crate::error::Result;
use crate::net::limits::Limits;
use crate::platform::clock::Clock;
use crate::platform::dirs::Dirs;
use crate::platform::token::Token;
use crate::review::context;
use crate::review::service::Service;
use crate::review::{ReviewEvent, ReviewQueue};
use crate::runtime::bridge::{Bridge, ContainerPlan};
use crate::runtime::folders::FolderLocks;
use crate::workspace::container::ContainerDirs;
use crate::workspace::Workspace;
use bind::Bound;
use server::{Server, Terms};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

pub use crate::review::service::{settle, Decision};

mod amp;
mod bind;
mod copilot;
mod http;
mod listeners;
mod server;
mod websocket;

/// A running companion: the workspace's service, with each protocol's server wired to it.
pub struct Companion {
    /// The workspace's protocol-free service.
    pub service: Arc<Service>,
    /// Every protocol's server, each announcing itself.
    servers: Vec<Box<dyn Server>>,
    /// The locks written for Copilot CLI sessions running in a subfolder.
    folder_locks: FolderLocks,
    trusted: bool,
    /// Redline's own PID, announced in every file.
    pid: u32,
    terms: Terms,
    written: Written,
    containers: Option<Bridge>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

/// A companion told to stop, its servers still closing their connections (each bounded by
/// `limits::DRAIN`).
pub struct Stopping {
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Stopping {
    /// Resolves once every connection has closed.
    pub async fn finished(self) {
        for task in self.tasks {
            let _ = task.await;
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
        let Bound {
            mut servers,
            bridge: side,
            port,
            ws_port,
        } = bind::servers(&workspace, containers, dirs).await?;
        let registries = servers.iter().map(|s| s.registry()).collect();
        let service = Arc::new(Service::new(workspace, reviews, trusted, registries));
        for p in containers.iter().flat_map(|plan| &plan.paths) {
            service.add_container_path(p.clone());
        }
        let terms = Terms {
            token: Arc::new(RwLock::new(token)),
            limits,
            cancel: CancellationToken::new(),
        };
        let tasks = servers
            .iter_mut()
            .flat_map(|s| s.serve(&service, &terms))
            .collect();
        tokio::spawn(context_updates(service.clone(), terms.cancel.clone()));
        let mut companion = Companion {
            service,
            servers,
            folder_locks: FolderLocks::default(),
            trusted: trusted == Some(true),
            pid,
            terms,
            written: Written::default(),
            containers: side,
            tasks,
        };
        companion.written = companion.with_announcement(|a| discovery::write(dirs, a));
        tracing::info!(
            "workspace {} listening on 127.0.0.1:{port} (Claude Code: {ws_port})",
            companion.service.workspace.id().display()
        );
        companion.announce_to_containers(dirs);
        Ok(companion)
    }

    /// Every container path the workspace is seen at: its own, then the mapped ones.
    fn container_places(&self, dirs: &Dirs) -> Vec<ContainerDirs> {
        let host = self.service.workspace.id();
        std::iter::once(host.to_string_lossy().into_owned())
            .chain(self.service.container_paths())
            .map(|p| ContainerDirs::new(dirs, host, &p))
            .collect()
    }

    /// (Re)writes the container discovery files, when containers can reach the server.
    fn announce_to_containers(&mut self, dirs: &Dirs) {
        let places = self.container_places(dirs);
        let token = self.token();
        if let Some(bridge) = self.containers.as_mut() {
            bridge.announce(places, &token, self.pid, self.service.workspace.id());
        }
    }

    /// Maps one more container path onto the workspace and announces it; false if known.
    pub fn add_container_path(&mut self, container_path: String, dirs: &Dirs) -> bool {
        if !self.service.add_container_path(container_path) {
            return false;
        }
        self.announce_to_containers(dirs);
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

    /// Runs `f` with what this companion announces now (each server its own part, with the
    /// token of the moment), for the discovery files and Copilot's folder locks alike.
    fn with_announcement<R>(&self, f: impl FnOnce(&Announcement<'_>) -> R) -> R {
        let token = self.token();
        let joined = self.service.workspace.joined();
        let mut a = Announcement {
            pid: self.pid,
            // Every companion has an HTTP server, which sets it.
            port: 0,
            ws_port: None,
            amp_port: None,
            socket: None,
            workspace_path: &joined,
            roots: &self.service.workspace.roots,
            token: &token,
            trusted: self.trusted,
            at_ms: Clock::now_ms(&crate::platform::clock::SystemClock),
        };
        for server in &self.servers {
            server.announce(&mut a);
        }
        f(&a)
    }

    pub fn token(&self) -> Token {
        self.terms
            .token
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// What `redline env` exports for this workspace: its servers' ports and its token.
    pub fn pin(&self) -> Pin {
        self.with_announcement(|a| Pin {
            port: a.port,
            ws_port: a.ws_port,
            workspace_path: a.workspace_path.to_owned(),
            auth_token: a.token.expose().to_owned(),
        })
    }

    /// Keeps one Copilot CLI lock for each of `folders` (subfolders of the workspace where a
    /// session runs) and none for any other (`runtime::folders`).
    pub fn set_folders(&mut self, folders: &BTreeSet<PathBuf>, dirs: &Dirs) {
        let mut locks = std::mem::take(&mut self.folder_locks);
        self.with_announcement(|a| locks.set(folders, a, dirs));
        self.folder_locks = locks;
    }

    /// Swaps in a new token and rewrites the discovery files with it; each server drops what
    /// the old token let in, if it must (Claude Code's connections).
    pub fn rotate(&mut self, token: Token, dirs: &Dirs) {
        *self.terms.token.write().unwrap_or_else(|e| e.into_inner()) = token;
        let mut locks = std::mem::take(&mut self.folder_locks);
        self.with_announcement(|a| locks.renew(a, dirs));
        self.folder_locks = locks;
        for server in &self.servers {
            server.rotated();
        }
        self.written.remove();
        self.written = self.with_announcement(|a| discovery::write(dirs, a));
        self.announce_to_containers(dirs);
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
        self.written.remove();
        self.folder_locks.remove_all();
        if let Some(bridge) = &self.containers {
            bridge.remove_files();
        }
        for r in self.service.pending() {
            // A `redline propose`/`diff` waiting hears that nobody decided (exit 2), not "no".
            if r.origin.session().is_none() {
                self.service.dismiss_local(r.id);
            } else {
                let _ = self.service.decide(r.id, Decision::reject());
            }
        }
        self.terms.cancel.cancel();
        Stopping { tasks: self.tasks }
    }

    pub fn status(&self, token_store: &str) -> WorkspaceStatus {
        let ws = self.service.workspace.id();
        let (here, gone) = self.written.present();
        let mut status = WorkspaceStatus {
            path: ws.to_owned(),
            enabled: true,
            missing: false,
            port: None,
            ws_port: None,
            amp_port: None,
            token_store: token_store.to_owned(),
            // Listed only while there as written: a file removed or replaced since is said so.
            discovery_files: here
                .into_iter()
                .chain(self.folder_locks.present())
                .collect(),
            discovery_failures: self
                .written
                .failures
                .iter()
                .map(|(p, e)| format!("{}: {e}", p.display()))
                .collect(),
            discovery_gone: gone
                .iter()
                .map(|(p, e)| format!("{}: {e}", p.display()))
                .collect(),
            clients: self
                .service
                .connected()
                .into_iter()
                .map(|(session, c)| ClientStatus {
                    session,
                    name: c.name,
                    version: c.version,
                    process: c.process,
                })
                .collect(),
            pending_reviews: self.service.pending().len(),
            containers: self
                .containers
                .as_ref()
                .map(|bridge| bridge.status(self.service.container_paths())),
        };
        for server in &self.servers {
            server.report(&mut status);
        }
        status
    }
}

/// Debounces review and editor changes in this workspace into `ide/contextUpdate`s.
async fn context_updates(service: Arc<Service>, cancel: CancellationToken) {
    let mut events = service.reviews.subscribe();
    let mut editor = service.editor.subscribe();
    let ws = service.workspace.id().to_owned();
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
                service.push_context_if_changed();
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
