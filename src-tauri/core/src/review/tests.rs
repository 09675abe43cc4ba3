//! Tests of `review`.

use super::*;
use crate::platform::clock::Clock;
use crate::review::ReviewError;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
        origin: Origin::Cli {
            session: session.into(),
        },
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
        can_mention: false,
        reason_heard: false,
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

    // The CLI re-proposed once: the window edits revision 2.
    assert_eq!(q.get(id).unwrap().revision, 2);
    q.update(id, 2, "edited\n".into()).unwrap();
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
        crate::error::FaultCode::NoSuchReview
    );
    assert_eq!(
        q.update(id, 2, "z".into()).unwrap_err().code(),
        crate::error::FaultCode::NoSuchReview
    );
}

#[test]
fn dismisses_a_sessions_reviews_only() {
    let q = queue();
    q.open(proposal("s1", "/ws/a", "1"), silent());
    q.open(proposal("s1", "/ws/b", "2"), silent());
    let keep = q.open(proposal("s2", "/ws/a", "3"), silent());
    assert_eq!(q.dismiss(|r| r.origin.is_session("s1")), 2);
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
        q.accept(id, Some(String::new()), None).unwrap_err().code(),
        crate::error::FaultCode::EmptyContent
    );
    assert!(told.lock().unwrap().is_empty());
    q.accept(id, Some("edited\n".into()), None).unwrap();
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
    q.accept(id, None, None).unwrap();
    assert_eq!(
        *second_told.lock().unwrap(),
        vec![(Outcome::Accepted, "2".to_owned())]
    );

    let (gone, gone_told) = recorder();
    q.open(proposal("s3", "/ws/i", "3"), gone);
    assert_eq!(q.dismiss(|r| r.origin.is_session("s3")), 1);
    assert_eq!(gone_told.lock().unwrap()[0].0, Outcome::Dismissed);
    assert_eq!(q.dismiss(|r| r.origin.is_session("s3")), 0);
    assert_eq!(gone_told.lock().unwrap().len(), 1);
}

#[test]
fn a_read_only_review_takes_no_edits_and_goes_back_as_proposed() {
    let q = queue();
    let (reply, told) = recorder();
    let reason = "Copilot CLI writes its own proposal: edits here can't be sent back.";
    let mut p = proposal("s1", "/ws/r", "");
    p.read_only = Some(ReadOnly::CliWritesItsOwn {
        cli: "Copilot CLI".into(),
    });
    let id = q.open(p, reply);
    let detail = q.get(id).unwrap().detail();
    assert_eq!(detail.read_only.as_deref(), Some(reason));
    assert_eq!(
        q.get(id).unwrap().summary().read_only.as_deref(),
        Some(reason)
    );
    assert_eq!(
        q.update(id, 1, "edited\n".into()).unwrap_err().code(),
        crate::error::FaultCode::ReadOnly
    );
    assert_eq!(
        q.accept(id, Some("edited\n".into()), None)
            .unwrap_err()
            .code(),
        crate::error::FaultCode::ReadOnly
    );
    assert!(told.lock().unwrap().is_empty(), "refusals tell nobody");
    // Empty, as proposed (a removed file): accepted as it is.
    q.accept(id, None, None).unwrap();
    assert_eq!(
        *told.lock().unwrap(),
        vec![(Outcome::Accepted, String::new())]
    );
}

#[test]
fn an_edit_made_against_a_proposal_the_cli_replaced_is_refused() {
    let q = queue();
    let (first, first_told) = recorder();
    let id = q.open(proposal("s1", "/ws/f", "v1\n"), first);
    // The window shows revision 1 and the user starts editing it.
    let shown = q.get(id).unwrap().detail();
    assert_eq!(shown.revision, 1);
    // The CLI re-proposes before the edit arrives.
    let (second, second_told) = recorder();
    assert_eq!(q.open(proposal("s1", "/ws/f", "v2\n"), second), id);
    let err = q
        .update(id, shown.revision, "v1 edited\n".into())
        .unwrap_err();
    assert_eq!(err.code(), crate::error::FaultCode::Superseded);
    let message = err.to_string();
    assert!(
        message.contains(
            "the CLI proposed a new version of /ws/f: your edits were made against the old one"
        ),
        "{message}"
    );
    let r = q.get(id).unwrap();
    assert_eq!((r.revision, r.current.as_str()), (2, "v2\n"));
    // The first proposal's asker was told it closed, with its own text, not the stale edit.
    assert_eq!(
        *first_told.lock().unwrap(),
        vec![(Outcome::Closed, "v1\n".to_owned())]
    );
    // An edit of the new proposal is taken, and is what the CLI gets.
    q.update(id, 2, "v2 edited\n".into()).unwrap();
    q.accept(id, None, None).unwrap();
    assert_eq!(
        *second_told.lock().unwrap(),
        vec![(Outcome::Accepted, "v2 edited\n".to_owned())]
    );
}

#[test]
fn an_accept_made_against_a_proposal_the_cli_replaced_is_refused() {
    let q = queue();
    let (first, _) = recorder();
    let id = q.open(proposal("s1", "/ws/f", "v1\n"), first);
    let (second, second_told) = recorder();
    assert_eq!(q.open(proposal("s1", "/ws/f", "v2\n"), second), id);
    // The window's Accept of its edits of v1 arrives after v2: refused, v2 stays pending.
    let err = q
        .accept(id, Some("v1 edited\n".into()), Some(1))
        .unwrap_err();
    assert_eq!(err.code(), crate::error::FaultCode::Superseded);
    assert!(second_told.lock().unwrap().is_empty());
    q.accept(id, Some("v2 edited\n".into()), Some(2)).unwrap();
    assert_eq!(
        *second_told.lock().unwrap(),
        vec![(Outcome::Accepted, "v2 edited\n".to_owned())]
    );
}

/// A clock that runs a step the first time it is read once armed: `update` reads it between its
/// look at the review and taking the queue's lock to write, so a re-proposal lands exactly there.
#[derive(Default)]
struct Interleave {
    ms: AtomicU64,
    step: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

impl Clock for Interleave {
    fn now_ms(&self) -> u64 {
        let step = self.step.lock().unwrap().take();
        if let Some(step) = step {
            step();
        }
        self.ms.fetch_add(10, Ordering::SeqCst)
    }
}

#[test]
fn a_re_proposal_landing_inside_an_update_wins_over_the_stale_edit() {
    let clock = Arc::new(Interleave::default());
    let q = Arc::new(ReviewQueue::new(clock.clone()));
    let id = q.open(proposal("s1", "/ws/f", "v1\n"), silent());
    let (second, second_told) = recorder();
    let weak = Arc::downgrade(&q);
    *clock.step.lock().unwrap() = Some(Box::new(move || {
        let q = weak.upgrade().unwrap();
        q.open(proposal("s1", "/ws/f", "v2\n"), second);
    }));
    // Revision 1 is current when `update` looks; the CLI's v2 arrives before it writes.
    let err = q.update(id, 1, "v1 edited\n".into()).unwrap_err();
    assert_eq!(err.code(), crate::error::FaultCode::Superseded, "{err}");
    let r = q.get(id).unwrap();
    assert_eq!((r.revision, r.current.as_str()), (2, "v2\n"));
    assert_eq!((r.stats.added, r.stats.removed), (1, 2), "v2's counts");
    q.accept(id, None, None).unwrap();
    assert_eq!(
        *second_told.lock().unwrap(),
        vec![(Outcome::Accepted, "v2\n".to_owned())]
    );
}

#[test]
fn a_rejection_hands_its_reason_to_the_reply_once() {
    let queue = queue();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let told = heard.clone();
    let id = queue.open(
        proposal("s", "a.rs", "new"),
        Box::new(move |r: &Review, o| {
            told.lock().unwrap().push((o, r.reason.clone()));
        }),
    );
    queue.reject(id, Some("use tabs".into())).unwrap();
    assert_eq!(
        *heard.lock().unwrap(),
        vec![(Outcome::Rejected, Some("use tabs".to_owned()))]
    );
    assert!(matches!(
        queue.reject(id, Some("again".into())),
        Err(ReviewError::NoSuchReview(_))
    ));
}

#[test]
fn the_bounds_hold_for_the_words_and_each_comment_not_for_the_composed_message() {
    use crate::review::comment::{Comment, MAX_COMMENT_CHARS};
    use crate::review::reason::MAX_REASON_CHARS;
    let comment = |path: &str, text: String| Comment {
        path: path.into(),
        line: 3,
        quote: "let x = 1;".into(),
        text,
    };
    let heard = Arc::new(Mutex::new(Vec::new()));
    let told = heard.clone();
    let queue = queue();
    let id = queue.open(
        proposal("s", "a.rs", "new"),
        Box::new(move |r: &Review, o| told.lock().unwrap().push((o, r.reason.clone()))),
    );
    // Each part one past its bound: refused, the review still pending.
    let long_words = Some("w".repeat(MAX_REASON_CHARS + 1));
    let err = queue.reject_commented(id, vec![], long_words).unwrap_err();
    assert!(matches!(err, ReviewError::ReasonTooLong { .. }), "{err}");
    let long_comment = vec![comment("a.rs", "c".repeat(MAX_COMMENT_CHARS + 1))];
    let err = queue.reject_commented(id, long_comment, None).unwrap_err();
    assert!(matches!(err, ReviewError::BadComment(_)), "{err}");
    assert!(
        queue.get(id).is_some(),
        "a refused reject leaves it pending"
    );
    // Each part at its bound: the message is far longer than either, and sent whole.
    let comments = vec![
        comment("a.rs", "a".repeat(MAX_COMMENT_CHARS)),
        comment("b.rs", "b".repeat(MAX_COMMENT_CHARS)),
    ];
    let words = "w".repeat(MAX_REASON_CHARS);
    queue
        .reject_commented(id, comments.clone(), Some(format!(" {words}\r\n")))
        .unwrap();
    let message = crate::review::comment::message(&comments, Some(&words)).unwrap();
    assert!(message.chars().count() > 3 * MAX_REASON_CHARS);
    assert_eq!(
        *heard.lock().unwrap(),
        vec![(Outcome::Rejected, Some(message))]
    );
}
