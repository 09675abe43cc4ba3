use super::*;

fn key(session: &str) -> TurnKey {
    TurnKey {
        cli: "codex".into(),
        session: session.into(),
    }
}

fn file(p: &str, t: Option<&str>) -> (String, Option<String>) {
    (p.to_owned(), t.map(str::to_owned))
}

#[test]
fn a_file_keeps_the_text_it_had_when_the_turn_first_touched_it() {
    let turns = Turns::default();
    turns.touch(
        key("s"),
        Some("t1"),
        "/w".into(),
        [file("/w/a", Some("a0"))],
    );
    turns.touch(
        key("s"),
        Some("t1"),
        "/w".into(),
        [file("/w/a", Some("a1")), file("/w/new", None)],
    );
    let t = turns.take(&key("s"), Some("t1")).unwrap();
    assert_eq!(
        t.files,
        vec![file("/w/a", Some("a0")), file("/w/new", None)]
    );
    assert!(turns.take(&key("s"), Some("t1")).is_none(), "taken once");
}

#[test]
fn only_files_whose_text_differs_from_the_start_are_changes() {
    let turns = Turns::default();
    turns.touch(
        key("s"),
        None,
        "/w".into(),
        [
            file("/w/same", Some("x")),
            file("/w/edited", Some("x")),
            file("/w/made", None),
            file("/w/gone", Some("g")),
            file("/w/unread", Some("u")),
        ],
    );
    let t = turns.take(&key("s"), None).unwrap();
    let now: HashMap<String, Option<String>> = [
        file("/w/same", Some("x")),
        file("/w/edited", Some("y")),
        file("/w/made", Some("m")),
        file("/w/gone", None),
    ]
    .into_iter()
    .collect();
    let changed: Vec<_> = t.changes(&now).into_iter().map(|c| c.path).collect();
    assert_eq!(changed, ["/w/edited", "/w/made", "/w/gone"]);
}

#[test]
fn another_turn_of_the_session_starts_over_and_a_stale_record_shows_nothing() {
    let turns = Turns::default();
    turns.touch(key("s"), Some("t1"), "/w".into(), [file("/w/a", Some("1"))]);
    turns.touch(key("s"), Some("t2"), "/w".into(), [file("/w/b", Some("2"))]);
    let t = turns.take(&key("s"), Some("t2")).unwrap();
    assert_eq!(t.files, vec![file("/w/b", Some("2"))]);
    turns.touch(key("s"), Some("t3"), "/w".into(), [file("/w/c", Some("3"))]);
    assert!(turns.take(&key("s"), Some("t4")).is_none());
    assert!(turns.is_empty(), "the stale record is dropped");
}

#[test]
fn files_past_the_bound_are_named_as_unrecorded_and_sessions_past_it_drop_the_oldest() {
    let turns = Turns::default();
    let many: Vec<_> = (0..MAX_TURN_FILES + 3)
        .map(|i| file(&format!("/w/{i}"), Some("x")))
        .collect();
    let done = turns.touch(key("s"), None, "/w".into(), many);
    assert_eq!(done.unrecorded.len(), 3);
    let big = "y".repeat(MAX_TURN_BYTES);
    let done = turns.touch(
        key("big"),
        None,
        "/w".into(),
        [
            file("/w/one", Some("z")),
            (String::from("/w/huge"), Some(big)),
        ],
    );
    assert_eq!(done.unrecorded, ["/w/huge"]);
    let t = turns.take(&key("s"), None).unwrap();
    assert_eq!(t.files.len(), MAX_TURN_FILES);
    assert_eq!(t.unrecorded.len(), 3);

    let turns = Turns::default();
    for i in 0..MAX_TURN_SESSIONS {
        turns.touch(key(&i.to_string()), None, "/w".into(), [file("/w/a", None)]);
    }
    // Session 0 is touched again: 1 is now the longest untouched.
    turns.touch(key("0"), None, "/w".into(), [file("/w/b", None)]);
    let done = turns.touch(key("new"), None, "/w".into(), [file("/w/a", None)]);
    assert_eq!(done.evicted, Some(key("1")));
    assert_eq!(turns.len(), MAX_TURN_SESSIONS);
    assert!(turns.take(&key("0"), None).is_some());
}

#[test]
fn all_sessions_together_keep_at_most_the_total_bound_of_text() {
    let turns = Turns::default();
    let part = "z".repeat(MAX_TURNS_BYTES / 2 - 1);
    for s in ["a", "b"] {
        let done = turns.touch(
            key(s),
            None,
            "/w".into(),
            [(String::from("/w/f"), Some(part.clone()))],
        );
        assert!(done.unrecorded.is_empty());
    }
    let done = turns.touch(
        key("c"),
        None,
        "/w".into(),
        [(String::from("/w/f"), Some(part))],
    );
    assert_eq!(done.unrecorded, ["/w/f"]);
    // A session's own text counts once: its next small file still fits.
    let done = turns.touch(key("a"), None, "/w".into(), [file("/w/g", Some("x"))]);
    assert!(done.unrecorded.is_empty());
}

// A turn's review opens no more tabs than a session may queue (checked as it compiles).
const _: () = assert!(MAX_TURN_TABS <= crate::review::quota::MAX_REVIEWS_PER_SESSION);
