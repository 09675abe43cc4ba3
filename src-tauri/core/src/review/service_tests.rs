//! Tests of the workspace service.

use super::*;
use crate::platform::clock::SystemClock;
use crate::review::Outcome;
use crate::review::ReviewError;
use crate::workspace::WorkspaceError;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts what the service asks of a protocol's registry.
#[derive(Default)]
struct Counted {
    pushes: AtomicUsize,
}

impl Registry for Counted {
    fn list(&self) -> Vec<(String, ClientInfo)> {
        vec![("s".into(), ClientInfo::default())]
    }
    fn push_context(&self, _context: &Context) {
        self.pushes.fetch_add(1, Ordering::SeqCst);
    }
}

fn ask(session: &str, file_path: &str, original_from: Option<&str>) -> Ask {
    Ask {
        origin: Origin::Cli {
            session: session.into(),
        },
        client: ClientInfo::default(),
        file_path: file_path.into(),
        original_from: original_from.map(str::to_owned),
        proposal: "new\n".into(),
        read_only: None,
        reason_heard: false,
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
        matches!(&err, Error::Workspace(WorkspaceError::OutsideWorkspace { path, .. }) if path == escape),
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
    assert!(matches!(
        outside.await,
        Err(Error::Workspace(WorkspaceError::OutsideWorkspace { .. }))
    ));
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
    assert_eq!(s.connected().len(), 2, "every registry's clients");
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
}

/// Owns session "a" and takes mentions and selections for it, recording them.
#[derive(Default)]
struct OwnsA {
    mentions: Mutex<Vec<Mention>>,
    spans: Mutex<Vec<crate::review::selection::Span>>,
}

impl Registry for OwnsA {
    fn list(&self) -> Vec<(String, ClientInfo)> {
        vec![("a".into(), ClientInfo::default())]
    }
    fn can_mention(&self, session: &str) -> bool {
        session == "a"
    }
    fn mention(&self, session: &str, mention: &Mention) -> bool {
        session == "a" && {
            self.mentions.lock().unwrap().push(mention.clone());
            true
        }
    }
    fn select(&self, session: &str, span: &crate::review::selection::Span) -> bool {
        session == "a" && {
            self.spans.lock().unwrap().push(span.clone());
            true
        }
    }
}

#[tokio::test]
async fn a_review_reaches_only_the_registry_owning_its_session_and_says_whether_it_can() {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let owns = Arc::new(OwnsA::default());
    let s = service(&root, vec![Arc::new(Counted::default()), owns.clone()]);
    let path = root.join("a.txt").to_string_lossy().into_owned();
    let mut a = ask("a", &path, None);
    a.proposal = "zero\none\ntwo\n".into();
    let from_a = s.propose(a, Box::new(|_, _| {})).await.unwrap();
    let from_b = s
        .propose(ask("b", &path, None), Box::new(|_, _| {}))
        .await
        .unwrap();
    let (ra, rb) = (
        s.reviews.get(from_a).unwrap(),
        s.reviews.get(from_b).unwrap(),
    );
    assert!(ra.can_mention && ra.detail().can_mention);
    assert!(!rb.can_mention && !rb.summary().can_mention);

    s.mention(&ra, 2, 1).unwrap();
    let sel = Selection {
        start_line: 1,
        start_character: 3,
        end_line: 0,
        end_character: 1,
    };
    s.select(&ra, sel).unwrap();
    assert_eq!(
        *owns.mentions.lock().unwrap(),
        [Mention {
            path: path.clone().into(),
            start: 1,
            end: 2
        }]
    );
    let spans = owns.spans.lock().unwrap().clone();
    assert_eq!(spans.len(), 1);
    assert_eq!(
        (spans[0].selection.start_line, spans[0].text.as_str()),
        (0, "ero\none")
    );

    let refused = s.mention(&rb, 0, 0).unwrap_err();
    assert!(
        matches!(refused, Error::Review(ReviewError::CannotTake { id, what: Sendable::Mention, .. }) if id == from_b),
        "{refused}"
    );
    assert_eq!(refused.code(), crate::error::FaultCode::CannotTake);
    assert!(matches!(
        s.select(&rb, sel).unwrap_err(),
        Error::Review(ReviewError::CannotTake {
            what: Sendable::Selection,
            ..
        })
    ));
    assert_eq!(owns.mentions.lock().unwrap().len(), 1, "b's went nowhere");
}
