//! The protocol-free service of one workspace: proposes reviews (path mapping, confinement,
//! original, quota) and settles them; each protocol adapter only translates its wire format.

use crate::clients::Clients;
use crate::container;
use crate::context::{self, ContextFile};
use crate::error::{Error, Result};
use crate::original;
use crate::peer::PeerLookup;
use crate::quota;
use crate::review::{ClientInfo, Outcome, Proposal, Reply, Review, ReviewId, ReviewQueue};
use crate::workspace::Workspace;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

/// The user's decision on a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Accept with this text, or the review's current text.
    Accept(Option<String>),
    Reject,
}

/// A CLI's proposal, with paths exactly as the CLI sent them (its messages and notifications
/// echo them, container paths included).
pub struct Ask {
    pub session: String,
    pub client: ClientInfo,
    pub file_path: String,
    /// The file to read the original from; `None`: the proposal is a new file.
    pub original_from: Option<String>,
    pub proposal: String,
}

/// What every protocol's handlers share about their workspace.
pub struct Service {
    pub workspace: Workspace,
    pub reviews: Arc<ReviewQueue>,
    pub trusted: Option<bool>,
    /// Finds the process behind a connection, to name the CLI that asked.
    pub peers: Arc<dyn PeerLookup>,
    /// Every protocol's connected CLIs.
    clients: Vec<Arc<dyn Clients>>,
    last_context: Mutex<Option<Value>>,
    /// Container paths mapped onto the workspace (containers on, `--path` given).
    container_paths: RwLock<Vec<String>>,
}

impl Service {
    pub fn new(
        workspace: Workspace,
        reviews: Arc<ReviewQueue>,
        trusted: Option<bool>,
        clients: Vec<Arc<dyn Clients>>,
    ) -> Self {
        Service {
            workspace,
            reviews,
            trusted,
            peers: Arc::new(crate::peer::OsPeers),
            clients,
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

    /// Maps one more container path onto the workspace; false if it was known.
    pub fn add_container_path(&self, container_path: String) -> bool {
        let mut paths = self
            .container_paths
            .write()
            .unwrap_or_else(|e| e.into_inner());
        if paths.contains(&container_path) {
            return false;
        }
        paths.push(container_path);
        true
    }

    /// The host file a path the CLI sent stands for, confined to the workspace, and whether a
    /// container mapping made it. Errors name the path as sent: a CLI in a container knows no
    /// other.
    pub fn resolve(&self, file_path: &str) -> Result<(PathBuf, bool)> {
        let paths = self.container_paths();
        let (host, container) = match container::to_host(file_path, self.workspace.id(), &paths) {
            Some(host) => (host, true),
            None => (file_path.to_owned(), false),
        };
        match self.workspace.resolve(&host) {
            Ok(p) => Ok((p, container)),
            Err(Error::OutsideWorkspace { roots, .. }) => Err(Error::OutsideWorkspace {
                path: file_path.to_owned(),
                roots,
            }),
            Err(e) => Err(e),
        }
    }

    /// Queues a review of `ask`; `reply` tells the CLI the outcome, once.
    pub async fn propose(&self, ask: Ask, reply: Reply) -> Result<ReviewId> {
        let (path, container) = self.resolve(&ask.file_path)?;
        let original = match &ask.original_from {
            Some(from) if *from == ask.file_path => original::read(&path, from).await?,
            Some(from) => original::read(&self.resolve(from)?.0, from).await?,
            None => None,
        };
        let incoming = original.as_ref().map_or(0, String::len) + ask.proposal.len();
        let ws = self.workspace.id();
        quota::admit(&self.reviews, ws, &ask.session, &ask.file_path, incoming)?;
        Ok(self.reviews.open(
            Proposal {
                workspace: ws.to_owned(),
                session: ask.session,
                client: ask.client,
                file_path: ask.file_path,
                path,
                original,
                proposal: ask.proposal,
                container,
            },
            reply,
        ))
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

    /// The CLI closed review `id` itself (its tab, or an answer given in its terminal): no
    /// decision is sent back. The review as it was, with the user's edits.
    pub fn close(&self, id: ReviewId) -> Result<Arc<Review>> {
        self.reviews.resolve(id, Outcome::Closed)
    }

    /// This workspace's pending reviews.
    pub fn pending(&self) -> Vec<Arc<Review>> {
        let ws = self.workspace.id();
        self.reviews
            .list()
            .into_iter()
            .filter(|r| r.workspace == ws)
            .collect()
    }

    /// The pending review of `file_path` from `session`, as `closeDiff` and the like name it.
    pub fn find(&self, session: &str, file_path: &str) -> Option<Arc<Review>> {
        self.reviews.find(self.workspace.id(), session, file_path)
    }

    /// A session is gone: its reviews go with it; how many there were.
    pub fn dismiss_session(&self, session: &str) -> usize {
        let ws = self.workspace.id();
        self.reviews
            .dismiss(|r| r.session == session && r.workspace == ws)
    }

    /// Settles `session`'s pending reviews with `outcome`; how many it settled.
    pub fn settle_session(&self, session: &str, outcome: Outcome) -> usize {
        self.pending()
            .iter()
            .filter(|r| r.session == session)
            .filter(|r| self.reviews.resolve(r.id, outcome).is_ok())
            .count()
    }

    /// Every protocol's connected CLIs, for status.
    pub fn clients(&self) -> Vec<(String, ClientInfo)> {
        self.clients.iter().flat_map(|c| c.list()).collect()
    }

    /// The token changed: connections that proved the old one once go.
    pub fn close_clients(&self) {
        for c in &self.clients {
            c.close_all();
        }
    }

    /// The workspace's state as `ide/contextUpdate` carries it: the files under review.
    pub fn context(&self) -> Value {
        let files = self.pending().into_iter().map(|r| ContextFile {
            path: r.path.clone(),
            timestamp: r.updated_at,
            cursor: None,
            selected_text: None,
        });
        context::ide_context(files, self.trusted)
    }

    /// Sends the context to every CLI that follows it, if it changed since last sent.
    pub fn push_context_if_changed(&self) {
        let now = self.context();
        let mut last = self.last_context.lock().unwrap_or_else(|e| e.into_inner());
        if last.as_ref() != Some(&now) {
            for c in &self.clients {
                c.push_context(&now);
            }
            *last = Some(now);
        }
    }
}
