//! The protocol-free service of one workspace: proposes reviews (path mapping, confinement,
//! original, quota) and settles them; each protocol adapter only translates its wire format.

use crate::error::{Error, Result};
use crate::platform::peer::PeerLookup;
use crate::review::context::{self, ContextFile};
use crate::review::editor::{EditorState, Mention};
use crate::review::editor_context::{EditorContext, Owner};
use crate::review::original;
use crate::review::quota;
use crate::review::registry::Registry;
use crate::review::{ClientInfo, Outcome, Proposal, Reply, Review, ReviewId, ReviewQueue};
use crate::workspace::container;
use crate::workspace::Workspace;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

/// The user's decision on a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Accept with this text, or the review's current text.
    Accept(Option<String>),
    /// As `Accept`, for text made against proposal `revision`: refused (`superseded`) once the
    /// CLI has re-proposed the file, so edits of the old proposal never answer the new one.
    AcceptRevision {
        revision: u64,
        content: Option<String>,
    },
    Reject,
}

/// Settles a review through the queue alone, which tells the CLI that asked: no companion is
/// needed, so a decision never waits on a workspace starting or stopping.
pub fn settle(reviews: &ReviewQueue, id: ReviewId, decision: Decision) -> Result<()> {
    match decision {
        Decision::Accept(content) => reviews.accept(id, content, None)?,
        Decision::AcceptRevision { revision, content } => {
            reviews.accept(id, content, Some(revision))?
        }
        Decision::Reject => reviews.resolve(id, Outcome::Rejected)?,
    };
    Ok(())
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
    /// Why the proposal cannot be edited (the CLI writes its own); `None`: it can be.
    pub read_only: Option<String>,
}

/// What every protocol's handlers share about their workspace.
pub struct Service {
    pub workspace: Workspace,
    pub reviews: Arc<ReviewQueue>,
    pub trusted: Option<bool>,
    /// Finds the process behind a connection, to name the CLI that asked.
    pub peers: Arc<dyn PeerLookup>,
    /// Every protocol's connected CLIs.
    clients: Vec<Arc<dyn Registry>>,
    last_context: Mutex<Option<Value>>,
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
        clients: Vec<Arc<dyn Registry>>,
    ) -> Self {
        Service {
            workspace,
            reviews,
            trusted,
            peers: Arc::new(crate::platform::peer::OsPeers),
            clients,
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
            Some(from) if *from == ask.file_path => {
                original::read(&self.workspace, &path, from).await?
            }
            Some(from) => original::read(&self.workspace, &self.resolve(from)?.0, from).await?,
            None => None,
        };
        let incoming = original.as_ref().map_or(0, |o| o.text.len()) + ask.proposal.len();
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
                read_only: ask.read_only,
                on_disk: None,
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

    /// A CLI of this workspace started a session: surfaces may get ready for its reviews.
    pub fn session_started(&self) {
        self.reviews.session_started();
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

    /// The workspace's state as `ide/contextUpdate` carries it: the editor's files, its active
    /// one with cursor and selection, and the files under review.
    pub fn context(&self) -> Value {
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
        context::ide_context(editor.chain(reviews), self.trusted)
    }

    /// The editor's state in this workspace changed: the CLIs that follow a selection get it now
    /// (debounced by each), the context follows through `push_context_if_changed`.
    pub fn set_editor(&self, owner: Owner, state: EditorState) {
        let span = state.span();
        if self.editor.set(owner, state) {
            if let Some(span) = span {
                for c in &self.clients {
                    c.push_selection(&span);
                }
            }
        }
    }

    /// The user pointed the CLIs at lines of a file.
    pub fn mention(&self, mention: &Mention) {
        for c in &self.clients {
            c.push_mention(mention);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::clock::SystemClock;
    use crate::review::Outcome;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts what the service asks of a protocol's registry.
    #[derive(Default)]
    struct Counted {
        pushes: AtomicUsize,
        closes: AtomicUsize,
    }

    impl Registry for Counted {
        fn list(&self) -> Vec<(String, ClientInfo)> {
            vec![("s".into(), ClientInfo::default())]
        }
        fn push_context(&self, _context: &Value) {
            self.pushes.fetch_add(1, Ordering::SeqCst);
        }
        fn close_all(&self) {
            self.closes.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn ask(session: &str, file_path: &str, original_from: Option<&str>) -> Ask {
        Ask {
            session: session.into(),
            client: ClientInfo::default(),
            file_path: file_path.into(),
            original_from: original_from.map(str::to_owned),
            proposal: "new\n".into(),
            read_only: None,
        }
    }

    fn service(root: &std::path::Path, clients: Vec<Arc<dyn Registry>>) -> Service {
        let reviews = Arc::new(ReviewQueue::new(Arc::new(SystemClock)));
        Service::new(Workspace::new(root.to_owned()), reviews, None, clients)
    }

    #[tokio::test]
    async fn a_container_path_is_read_from_the_host_and_kept_as_sent() {
        let tmp = tempfile::tempdir().unwrap();
        let root = dunce::canonicalize(tmp.path()).unwrap();
        std::fs::write(root.join("a.txt"), "old\n").unwrap();
        let s = service(&root, vec![]);
        assert!(s.add_container_path("/workspace".into()));
        assert!(!s.add_container_path("/workspace".into()), "known");
        let id = s
            .propose(
                ask("s", "/workspace/a.txt", Some("/workspace/a.txt")),
                Box::new(|_, _| {}),
            )
            .await
            .unwrap();
        let r = s.reviews.get(id).unwrap();
        assert_eq!(r.file_path, "/workspace/a.txt");
        assert_eq!(r.path, root.join("a.txt"));
        assert_eq!(r.original_text(), "old\n");
        assert!(r.container);
        // Escaping through the mapping is refused, in the CLI's own words.
        let escape = "/workspace/../etc/passwd";
        let err = s
            .propose(ask("s", escape, Some(escape)), Box::new(|_, _| {}))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, Error::OutsideWorkspace { path, .. } if path == escape),
            "{err}"
        );
    }

    #[tokio::test]
    async fn the_original_comes_from_where_the_cli_says_or_is_none() {
        let tmp = tempfile::tempdir().unwrap();
        let root = dunce::canonicalize(tmp.path()).unwrap();
        std::fs::write(root.join("old.txt"), "before\n").unwrap();
        let s = service(&root, vec![]);
        let new = root.join("new.txt").to_string_lossy().into_owned();
        let old = root.join("old.txt").to_string_lossy().into_owned();
        let from_old = s
            .propose(ask("s", &new, Some(&old)), Box::new(|_, _| {}))
            .await
            .unwrap();
        assert_eq!(s.reviews.get(from_old).unwrap().original_text(), "before\n");
        let fresh = s
            .propose(ask("t", &new, None), Box::new(|_, _| {}))
            .await
            .unwrap();
        assert!(s.reviews.get(fresh).unwrap().original.is_none());
        // An absolute path on every OS (`/etc/passwd` is not one on Windows).
        let elsewhere = tempfile::tempdir().unwrap();
        let secret = dunce::canonicalize(elsewhere.path())
            .unwrap()
            .join("secret.txt");
        std::fs::write(&secret, "secret\n").unwrap();
        let secret = secret.to_string_lossy().into_owned();
        let outside = s.propose(ask("s", &new, Some(&secret)), Box::new(|_, _| {}));
        assert!(matches!(outside.await, Err(Error::OutsideWorkspace { .. })));
    }

    #[tokio::test]
    async fn sessions_settle_and_dismiss_only_their_own_and_clients_hear_changes_once() {
        let tmp = tempfile::tempdir().unwrap();
        let root = dunce::canonicalize(tmp.path()).unwrap();
        let counted = Arc::new(Counted::default());
        let s = service(&root, vec![counted.clone(), counted.clone()]);
        let outcome = Arc::new(Mutex::new(Vec::new()));
        for (session, name) in [("a", "1.txt"), ("a", "2.txt"), ("b", "3.txt")] {
            let path = root.join(name).to_string_lossy().into_owned();
            let seen = outcome.clone();
            s.propose(
                ask(session, &path, None),
                Box::new(move |_, o| seen.lock().unwrap().push(o)),
            )
            .await
            .unwrap();
        }
        assert_eq!(s.clients().len(), 2, "every registry's clients");
        assert_eq!(s.settle_session("a", Outcome::Rejected), 2);
        assert_eq!(*outcome.lock().unwrap(), [Outcome::Rejected; 2]);
        assert_eq!(s.dismiss_session("b"), 1);
        assert!(s.pending().is_empty());
        s.push_context_if_changed();
        s.push_context_if_changed();
        assert_eq!(
            counted.pushes.load(Ordering::SeqCst),
            2,
            "once per registry"
        );
        s.close_clients();
        assert_eq!(counted.closes.load(Ordering::SeqCst), 2);
    }
}
