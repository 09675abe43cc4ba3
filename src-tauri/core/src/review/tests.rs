//! Tests of `review`.

use super::*;
use std::sync::atomic::{AtomicU64, Ordering};

struct FakeClock(AtomicU64);
impl Clock for FakeClock {
    fn now_ms(&self) -> u64 {
        self.0.fetch_add(10, Ordering::SeqCst)
    }
}

fn silent() -> Reply {
    Box::new(|_, _| {})
}

type Told = Arc<Mutex<Vec<(Outcome, String)>>>;

/// A reply that records what it was told.
fn recorder() -> (Reply, Told) {
    let told = Arc::new(Mutex::new(Vec::new()));
    let sink = told.clone();
    let reply: Reply = Box::new(move |r: &Review, o| {
        sink.lock().unwrap().push((o, r.current.clone()));
    });
    (reply, told)
}

fn queue() -> ReviewQueue {
    ReviewQueue::new(Arc::new(FakeClock(AtomicU64::new(1000))))
}

fn proposal(session: &str, file: &str, text: &str) -> Proposal {
    Proposal {
        workspace: "/ws".into(),
        session: session.into(),
        client: ClientInfo {
            name: "cli".into(),
            version: "1".into(),
            ..Default::default()
        },
        file_path: file.into(),
        path: PathBuf::from(file),
        original: Some("a\nb\n".into()),
        proposal: text.into(),
        container: false,
        read_only: None,
        on_disk: None,
    }
}

#[test]
fn lifecycle_add_replace_update_resolve_with_events() {
    let q = queue();
    let mut events = q.subscribe();
    let id = q.open(proposal("s1", "/ws/f", "a\nB\n"), silent());
    let r = q.get(id).unwrap();
    assert_eq!((r.stats.added, r.stats.removed), (1, 1));
    assert_eq!(r.created_at, 1000);
    assert!(matches!(events.try_recv().unwrap(), ReviewEvent::Added(r) if r.id == id));

    // Same session and file: replaced in place.
    assert_eq!(q.open(proposal("s1", "/ws/f", "x\n"), silent()), id);
    assert_eq!(q.get(id).unwrap().current, "x\n");
    assert!(matches!(
        events.try_recv().unwrap(),
        ReviewEvent::Updated(_)
    ));
    // Another session: a review of its own.
    let other = q.open(proposal("s2", "/ws/f", "y\n"), silent());
    assert_ne!(other, id);
    let _ = events.try_recv();

    q.update(id, "edited\n".into()).unwrap();
    let r = q.get(id).unwrap();
    assert_eq!(r.current, "edited\n");
    assert_eq!(r.proposal, "x\n");
    assert!(r.updated_at > r.created_at);
    let _ = events.try_recv();

    assert_eq!(q.find(Path::new("/ws"), "s2", "/ws/f").unwrap().id, other);
    assert_eq!(q.find(Path::new("/ws"), "s9", "/ws/f").unwrap().id, id);
    assert!(q.find(Path::new("/ws"), "s1", "/ws/g").is_none());

    let done = q.resolve(id, Outcome::Accepted).unwrap();
    assert_eq!(done.current, "edited\n");
    assert!(matches!(
        events.try_recv().unwrap(),
        ReviewEvent::Resolved { outcome: Outcome::Accepted, id: i, .. } if i == id
    ));
    assert_eq!(
        q.resolve(id, Outcome::Rejected).unwrap_err().code(),
        "no_such_review"
    );
    assert_eq!(
        q.update(id, "z".into()).unwrap_err().code(),
        "no_such_review"
    );
}

#[test]
fn dismisses_a_sessions_reviews_only() {
    let q = queue();
    q.open(proposal("s1", "/ws/a", "1"), silent());
    q.open(proposal("s1", "/ws/b", "2"), silent());
    let keep = q.open(proposal("s2", "/ws/a", "3"), silent());
    assert_eq!(q.dismiss(|r| r.session == "s1"), 2);
    let left: Vec<_> = q.list().iter().map(|r| r.id).collect();
    assert_eq!(left, vec![keep]);
}

#[test]
fn each_asker_is_told_once_with_the_final_text_outside_the_lock() {
    let q = Arc::new(queue());
    let (reply, told) = recorder();
    let id = q.open(proposal("s1", "/ws/f", "x\n"), reply);
    // An empty accept is refused and tells nobody.
    assert_eq!(
        q.accept(id, Some(String::new())).unwrap_err().code(),
        "empty_content"
    );
    assert!(told.lock().unwrap().is_empty());
    q.accept(id, Some("edited\n".into())).unwrap();
    assert!(q.resolve(id, Outcome::Rejected).is_err());
    assert_eq!(
        *told.lock().unwrap(),
        vec![(Outcome::Accepted, "edited\n".to_owned())]
    );

    // A reply may call back into the queue: it runs outside the lock.
    let inner = q.clone();
    let reentrant: Reply = Box::new(move |_, _| {
        let _ = inner.list();
    });
    let id = q.open(proposal("s1", "/ws/g", "y\n"), reentrant);
    q.resolve(id, Outcome::Rejected).unwrap();

    // Replaced in place: the first asker hears "closed", the second the decision.
    let (first, first_told) = recorder();
    let (second, second_told) = recorder();
    let id = q.open(proposal("s2", "/ws/h", "1"), first);
    assert_eq!(q.open(proposal("s2", "/ws/h", "2"), second), id);
    assert_eq!(first_told.lock().unwrap()[0].0, Outcome::Closed);
    q.accept(id, None).unwrap();
    assert_eq!(
        *second_told.lock().unwrap(),
        vec![(Outcome::Accepted, "2".to_owned())]
    );

    let (gone, gone_told) = recorder();
    q.open(proposal("s3", "/ws/i", "3"), gone);
    assert_eq!(q.dismiss(|r| r.session == "s3"), 1);
    assert_eq!(gone_told.lock().unwrap()[0].0, Outcome::Dismissed);
    assert_eq!(q.dismiss(|r| r.session == "s3"), 0);
    assert_eq!(gone_told.lock().unwrap().len(), 1);
}

#[test]
fn a_read_only_review_takes_no_edits_and_goes_back_as_proposed() {
    let q = queue();
    let (reply, told) = recorder();
    let reason = "Copilot CLI writes its own proposal: edits here can't be sent back.";
    let mut p = proposal("s1", "/ws/r", "");
    p.read_only = Some(reason.into());
    let id = q.open(p, reply);
    let detail = q.get(id).unwrap().detail();
    assert_eq!(detail.read_only.as_deref(), Some(reason));
    assert_eq!(
        q.get(id).unwrap().summary().read_only.as_deref(),
        Some(reason)
    );
    assert_eq!(
        q.update(id, "edited\n".into()).unwrap_err().code(),
        "read_only"
    );
    assert_eq!(
        q.accept(id, Some("edited\n".into())).unwrap_err().code(),
        "read_only"
    );
    assert!(told.lock().unwrap().is_empty(), "refusals tell nobody");
    // Empty, as proposed (a removed file): accepted as it is.
    q.accept(id, None).unwrap();
    assert_eq!(
        *told.lock().unwrap(),
        vec![(Outcome::Accepted, String::new())]
    );
}
