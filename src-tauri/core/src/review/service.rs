//! The protocol-free service of one workspace: proposes reviews (path mapping, confinement,
//! original, quota) and settles them; each protocol adapter only translates its wire format.

use crate::error::{Error, Result};
use crate::platform::peer::PeerLookup;
use crate::review::client::ClientInfo;
use crate::review::context::{Context, ContextFile};
use crate::review::editor::EditorState;
use crate::review::editor_context::{EditorContext, Owner};
use crate::review::id::ReviewId;
use crate::review::origin::Origin;
use crate::review::original;
use crate::review::outcome::Outcome;
use crate::review::pending::Review;
use crate::review::queue::{Proposal, Reply, ReviewQueue};
use crate::review::quota;
use crate::review::read_only::ReadOnly;
use crate::review::registry::Registry;
use crate::review::selection::{Mention, Selection};
use crate::review::Sendable;
use crate::workspace::container;
use crate::workspace::Workspace;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

pub use crate::review::decision::{settle, Decision};
use crate::review::ReviewError;
use crate::workspace::WorkspaceError;

/// A CLI's proposal, with paths exactly as the CLI sent them (its messages and notifications
/// echo them, container paths included).
pub struct Ask {
    /// Who proposes it: a CLI's session, or one of Redline's commands.
    pub origin: Origin,
    pub client: ClientInfo,
    pub file_path: String,
    /// The file to read the original from; `None`: the proposal is a new file.
    pub original_from: Option<String>,
    pub proposal: String,
    /// Why the proposal cannot be edited (the CLI writes its own); `None`: it can be.
    pub read_only: Option<ReadOnly>,
    /// Whoever asked hears a rejection's reason.
    pub reason_heard: bool,
}

/// What every protocol's handlers share about their workspace.
pub struct Service {
    pub workspace: Workspace,
    pub reviews: Arc<ReviewQueue>,
    pub trusted: Option<bool>,
    /// Finds the process behind a connection, to name the CLI that asked.
    pub peers: Arc<dyn PeerLookup>,
    /// Every protocol's connected CLIs.
    registries: Vec<Arc<dyn Registry>>,
    last_context: Mutex<Option<Context>>,
    /// What the user's editor shows in this workspace.
    pub editor: EditorContext,
    /// Container paths mapped onto the workspace (containers on, `--path` given).
    container_paths: RwLock<Vec<String>>,
}

impl Service {
    pub fn new(
        workspace: Workspace,
        reviews: Arc<ReviewQueue>,
        trusted: Option<bool>,
        registries: Vec<Arc<dyn Registry>>,
    ) -> Self {
        Service {
            workspace,
            reviews,
            trusted,
            peers: Arc::new(crate::platform::peer::OsPeers),
            registries,
            last_context: Mutex::new(None),
            editor: EditorContext::default(),
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
            Err(Error::Workspace(WorkspaceError::OutsideWorkspace { roots, .. })) => {
                Err(WorkspaceError::OutsideWorkspace {
                    path: file_path.to_owned(),
                    roots,
                }
                .into())
            }
            Err(e) => Err(e),
        }
    }

    /// Queues a review of `ask`; `reply` tells the CLI the outcome, once.
    pub async fn propose(&self, ask: Ask, reply: Reply) -> Result<ReviewId> {
        let original = match &ask.original_from {
            Some(from) => self.original(from).await?,
            None => None,
        };
        self.propose_read(ask, original, reply)
    }

    /// The text of the file a CLI names, confined to the workspace (`None`: it does not exist).
    pub async fn original(&self, file_path: &str) -> Result<Option<original::Original>> {
        original::read(&self.workspace, &self.resolve(file_path)?.0, file_path).await
    }

    /// As `propose`, with the original the caller read already (through `original`): a hook
    /// works its proposal out from the very text the review shows.
    pub fn propose_read(
        &self,
        ask: Ask,
        original: Option<original::Original>,
        reply: Reply,
    ) -> Result<ReviewId> {
        let (path, container) = self.resolve(&ask.file_path)?;
        let incoming = original.as_ref().map_or(0, |o| o.text.len()) + ask.proposal.len();
        let ws = self.workspace.id();
        quota::admit(&self.reviews, ws, &ask.origin, &ask.file_path, incoming)?;
        let can_mention = ask
            .origin
            .session()
            .is_some_and(|s| self.registries.iter().any(|c| c.can_mention(s)));
        Ok(self.reviews.open(
            Proposal {
                workspace: ws.to_owned(),
                origin: ask.origin,
                client: ask.client,
                file_path: ask.file_path,
                path,
                original,
                proposal: ask.proposal,
                container,
                read_only: ask.read_only,
                can_mention,
                on_disk: None,
                reason_heard: ask.reason_heard,
            },
            reply,
        ))
    }

    /// Settles a review; the queue tells the CLI that asked, in its own protocol. Only one
    /// decision can win.
    pub fn decide(&self, id: ReviewId, decision: Decision) -> Result<()> {
        settle(&self.reviews, id, decision)
    }

    /// The CLI closed review `id` itself (its tab, or an answer given in its terminal): no
    /// decision is sent back. The review as it was, with the user's edits.
    pub fn close(&self, id: ReviewId) -> Result<Arc<Review>, ReviewError> {
        self.reviews.resolve(id, Outcome::Closed)
    }

    /// This workspace's pending reviews.
    pub fn pending(&self) -> Vec<Arc<Review>> {
        let ws = self.workspace.id();
        self.reviews
            .list()
            .into_iter()
            .filter(|r| r.in_workspace(ws))
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
            .dismiss(|r| r.origin.is_session(session) && r.in_workspace(ws))
    }

    /// A local review (`redline propose`/`diff`) ends undecided: its workspace or Redline stopped.
    pub fn dismiss_local(&self, id: ReviewId) -> usize {
        self.reviews.dismiss(|r| r.id == id)
    }

    /// Settles `session`'s pending reviews with `outcome`; how many it settled.
    pub fn settle_session(&self, session: &str, outcome: Outcome) -> usize {
        self.pending()
            .iter()
            .filter(|r| r.origin.is_session(session))
            .filter(|r| self.reviews.resolve(r.id, outcome).is_ok())
            .count()
    }

    /// A CLI of this workspace started a session: surfaces may get ready for its reviews.
    pub fn session_started(&self) {
        self.reviews.session_started();
    }

    /// Every protocol's connected CLIs, for status.
    pub fn connected(&self) -> Vec<(String, ClientInfo)> {
        self.registries.iter().flat_map(|c| c.list()).collect()
    }

    /// The workspace's context: the editor's files, its active one with cursor and selection,
    /// and the files under review.
    pub fn context(&self) -> Context {
        let reviews = self.pending().into_iter().map(|r| ContextFile {
            path: r.path.clone(),
            timestamp: r.updated_at,
            cursor: None,
            selected_text: None,
            active: false,
        });
        let editor = self.editor.get().into_iter().flat_map(|s| {
            let at = s.at;
            s.files
                .into_iter()
                .enumerate()
                .map(move |(i, f)| ContextFile {
                    // Most recently used first: older by a millisecond each.
                    timestamp: at.saturating_sub(i as u64),
                    cursor: f.cursor.map(|c| (c.line, c.col)),
                    selected_text: f.selection.map(|s| s.text),
                    active: f.active,
                    path: f.path,
                })
        });
        Context::new(editor.chain(reviews), self.trusted)
    }

    /// The editor's state in this workspace changed: the CLIs that follow a selection get it now
    /// (debounced by each), the context follows through `push_context_if_changed`.
    pub fn set_editor(&self, owner: Owner, state: EditorState) {
        let span = state.span();
        if self.editor.set(owner, state) {
            if let Some(span) = span {
                for c in &self.registries {
                    c.push_selection(&span);
                }
            }
        }
    }

    /// The editor channel `owner` closed or left this workspace: its files go from the context
    /// and its selection from what the CLIs that ask for one are told (a selection in a review
    /// made since stays).
    pub fn clear_editor(&self, owner: u64) {
        if let Some(span) = self.editor.clear(owner).and_then(|s| s.span()) {
            for c in &self.registries {
                c.forget_selection(&span);
            }
        }
    }

    /// The user pointed every CLI of the workspace at lines of a file.
    pub fn mention_all(&self, mention: &Mention) {
        for c in &self.registries {
            c.push_mention(mention);
        }
    }

    /// "Ask about this part": lines `a..=b` (0-based) of `review` go to the CLI session that
    /// proposed it, if its protocol can take a mention.
    pub fn mention(&self, review: &Review, a: u32, b: u32) -> Result<()> {
        let mention = Mention::of_review(review, a, b);
        self.to_session(review, Sendable::Mention, |c, s| c.mention(s, &mention))
    }

    /// The user's selection in `review`: kept for the CLIs that ask for it and sent to the
    /// session that proposed it, if its protocol can take one.
    pub fn select(&self, review: &Review, selection: Selection) -> Result<()> {
        let span = selection.of_review(review);
        self.to_session(review, Sendable::Selection, |c, s| c.select(s, &span))
    }

    /// Offers something to the registries until the one owning `review`'s session takes it.
    fn to_session(
        &self,
        review: &Review,
        what: Sendable,
        send: impl Fn(&dyn Registry, &str) -> bool,
    ) -> Result<()> {
        let taken = review
            .origin
            .session()
            .is_some_and(|s| self.registries.iter().any(|c| send(c.as_ref(), s)));
        if taken {
            Ok(())
        } else {
            Err(ReviewError::CannotTake {
                id: review.id,
                client: review.client.label(),
                what,
            }
            .into())
        }
    }

    /// Sends the context to every CLI that follows it, if it changed since last sent.
    pub fn push_context_if_changed(&self) {
        let now = self.context();
        let mut last = self.last_context.lock().unwrap_or_else(|e| e.into_inner());
        if last.as_ref() != Some(&now) {
            for c in &self.registries {
                c.push_context(&now);
            }
            *last = Some(now);
        }
    }
}

#[cfg(test)]
#[path = "service_tests.rs"]
mod tests;
