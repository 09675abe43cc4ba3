//! The review of a whole checkpointed turn over the real control socket and the window's
//! channel: the prompt hook checkpoints the workspace, plain file-system calls (as a shell
//! command makes them) edit, create, delete and rename files, and the end-of-turn hook opens ONE
//! review of kind `turn` listing all four; the window opens a file's hunks, undoes one hunk of a
//! CRLF file to exactly its bytes, is refused (nothing written) once the file changed since, and
//! Continue with two comments gives the hook both `path:line` anchors.

use crate::common::{eventually, start, Fixture, WAIT};
use crate::editor::serve_control;
use redline_core::api::turns::{FileStatus, TurnFileView, TurnFiles, TurnPick, TurnUndone};
use redline_core::protocols::hook::turn::TurnRuling;
use redline_core::protocols::hook::{HookCall, HookCli};
use redline_core::review::comment::Comment;
use redline_core::review::ReviewKind;
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::window::link;
use redline_core::surfaces::action::{Call, ReviewReject, TurnFileGet, TurnFilesGet, TurnUndo};
use serde_json::{json, Value};
use std::path::PathBuf;

fn claude(input: Value) -> HookCall {
    HookCall {
        cli: HookCli::of("claude").unwrap(),
        input,
        record_turn: false,
    }
}

async fn turn_start(f: &Fixture) {
    let input = json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": f.ws,
        "hook_event_name": "UserPromptSubmit", "prompt": "go" });
    let answer = control::call(&f.dirs, &Request::TurnStart(claude(input))).await;
    assert!(answer.is_ok(), "{answer:?}");
}

fn turn_end(f: &Fixture) -> tokio::task::JoinHandle<TurnRuling> {
    let dirs = f.dirs.clone();
    let input = json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": f.ws,
        "hook_event_name": "Stop", "stop_hook_active": false });
    let req = Request::TurnReview(claude(input));
    tokio::spawn(async move {
        let v = control::call(&dirs, &req).await.expect("the turn's answer");
        serde_json::from_value(v).expect("a turn ruling")
    })
}

async fn ask<T: serde::de::DeserializeOwned>(window: &link::Link, call: Call) -> T {
    let answer = window.forward(call).await.expect("the action's answer");
    serde_json::from_value(answer).expect("the action's reply")
}

const CRLF_START: &str = "one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\n";
const CRLF_END: &str = "one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX\r\nseven\r\n";
const OLD: &str = "a file long enough\nthat git detects\nits move\nas a rename\nof it\n";

#[tokio::test]
async fn a_shell_made_turn_is_one_review_with_hunks_undone_exactly_and_comments_sent() {
    let f = start().await;
    serve_control(&f).await;
    let (window, _events) = link::connect(&f.dirs).await.unwrap();
    std::fs::write(f.ws.join("a.txt"), CRLF_START).unwrap();
    std::fs::write(f.ws.join("gone.txt"), "bye\n").unwrap();
    std::fs::write(f.ws.join("old.txt"), OLD).unwrap();
    turn_start(&f).await;
    // "A shell command": plain file-system calls, no edit tool, no pre-edit hook.
    std::fs::write(f.ws.join("a.txt"), CRLF_END).unwrap();
    std::fs::write(f.ws.join("new.txt"), "fresh\n").unwrap();
    std::fs::remove_file(f.ws.join("gone.txt")).unwrap();
    std::fs::rename(f.ws.join("old.txt"), f.ws.join("moved.txt")).unwrap();

    let ending = turn_end(&f);
    eventually("the turn's one review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    let review = f.instance.reviews().details().remove(0);
    assert_eq!(review.kind, ReviewKind::Turn);
    assert!(review.turn_id.is_some());
    let id = review.id;

    // The first file is opened ahead as the review opens (a few git processes): once it is, it
    // comes with the list (a list asked before it is, comes without it and takes nothing).
    let mut listed: TurnFiles = ask(&window, TurnFilesGet { id }.into()).await;
    let ahead = tokio::time::Instant::now();
    while listed.first.is_none() {
        assert!(
            ahead.elapsed() < WAIT,
            "the first file was never opened ahead"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        listed = ask(&window, TurnFilesGet { id }.into()).await;
    }
    let status = |p: &str| {
        let file = listed
            .files
            .iter()
            .find(|t| t.path == std::path::Path::new(p));
        file.map(|t| (t.status, t.from.clone()))
    };
    assert_eq!(status("a.txt"), Some((FileStatus::Modified, None)));
    assert_eq!(status("new.txt"), Some((FileStatus::Added, None)));
    assert_eq!(status("gone.txt"), Some((FileStatus::Deleted, None)));
    assert_eq!(
        status("moved.txt"),
        Some((FileStatus::Renamed, Some(PathBuf::from("old.txt"))))
    );
    assert_eq!((listed.files.len(), listed.unlisted), (4, 0));
    // `redline review show` prints the whole turn's diff (it printed nothing before).
    let shown = f.instance.review_show(id).await.unwrap();
    assert!(shown.contains("+++ b/new.txt"), "{shown}");
    assert!(shown.contains("rename from old.txt"), "{shown}");
    assert!(shown.contains("deleted file mode"), "{shown}");

    let a = TurnFileGet {
        id,
        path: "a.txt".into(),
    };
    let opened: TurnFileView = ask(&window, a.clone().into()).await;
    assert_eq!(
        listed.first.as_ref(),
        Some(&opened),
        "the first file, with the list"
    );
    assert_eq!(opened.start.as_deref(), Some(CRLF_START));
    assert_eq!(opened.end.as_deref(), Some(CRLF_END));
    assert_eq!(opened.hunks.len(), 2, "two changes three lines apart");

    let first = TurnUndo {
        id,
        picks: vec![TurnPick {
            path: "a.txt".into(),
            hunks: Some(vec![opened.hunks[0]]),
        }],
    };
    let undone: TurnUndone = ask(&window, first.into()).await;
    assert!(matches!(undone, TurnUndone::Done { .. }), "{undone:?}");
    let now = "one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nSIX\r\nseven\r\n";
    assert_eq!(std::fs::read(f.ws.join("a.txt")).unwrap(), now.as_bytes());
    // The review now shows the file as the undo left it: one hunk is left.
    let reopened: TurnFileView = ask(&window, a.into()).await;
    assert_eq!(reopened.hunks.len(), 1);

    // The file changes behind the review's back: its undo is refused and writes nothing.
    let behind = "someone else wrote this\n";
    std::fs::write(f.ws.join("a.txt"), behind).unwrap();
    let second = TurnUndo {
        id,
        picks: vec![TurnPick {
            path: "a.txt".into(),
            hunks: Some(reopened.hunks.clone()),
        }],
    };
    let refused: TurnUndone = ask(&window, second.into()).await;
    let TurnUndone::Refused { why } = refused else {
        panic!("not refused: {refused:?}");
    };
    assert!(why.contains("a.txt"), "{why}");
    assert_eq!(std::fs::read_to_string(f.ws.join("a.txt")).unwrap(), behind);

    let comment = |path: &str, line, quote: &str, text: &str| Comment {
        path: path.into(),
        line,
        quote: quote.into(),
        text: text.into(),
    };
    let reject = ReviewReject {
        id,
        reason: Some("and add a test".into()),
        comments: Some(vec![
            comment("a.txt", 6, "SIX", "keep it lower case"),
            comment("new.txt", 1, "fresh", "name it better"),
        ]),
    };
    assert_eq!(window.forward(reject.into()).await, Ok(Value::Null));
    let ruling = tokio::time::timeout(WAIT, ending).await.unwrap().unwrap();
    let TurnRuling::Continue { instructions } = ruling else {
        panic!("not a Continue: {ruling:?}");
    };
    for anchor in [
        "a.txt:6",
        "new.txt:1",
        "keep it lower case",
        "name it better",
    ] {
        assert!(instructions.contains(anchor), "{anchor} in {instructions}");
    }
}

/// The first file is opened ahead while the window is shown the review; an undo made before the
/// window opens it is seen: the file opened is the workspace as the undo left it, not the view
/// read ahead (the file undone whole is no longer in the turn).
#[tokio::test]
async fn the_first_file_opened_ahead_is_not_shown_after_an_undo() {
    let f = start().await;
    serve_control(&f).await;
    let (window, _events) = link::connect(&f.dirs).await.unwrap();
    std::fs::write(f.ws.join("a.txt"), CRLF_START).unwrap();
    std::fs::write(f.ws.join("b.txt"), "bee\n").unwrap();
    turn_start(&f).await;
    std::fs::write(f.ws.join("a.txt"), CRLF_END).unwrap();
    std::fs::write(f.ws.join("b.txt"), "BEE\n").unwrap();

    let ending = turn_end(&f);
    eventually("the turn's one review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    let id = f.instance.reviews().details().remove(0).id;
    let listed: TurnFiles = ask(&window, TurnFilesGet { id }.into()).await;
    assert_eq!(
        listed.files[0].path,
        PathBuf::from("a.txt"),
        "the first file"
    );
    let whole = TurnUndo {
        id,
        picks: vec![TurnPick {
            path: "a.txt".into(),
            hunks: None,
        }],
    };
    let undone: TurnUndone = ask(&window, whole.into()).await;
    assert!(matches!(undone, TurnUndone::Done { .. }), "{undone:?}");
    let a = TurnFileGet {
        id,
        path: "a.txt".into(),
    };
    let opened = window.forward(a.into()).await;
    assert!(opened.is_err(), "a.txt is no longer changed: {opened:?}");
    let b = TurnFileGet {
        id,
        path: "b.txt".into(),
    };
    let other: TurnFileView = ask(&window, b.into()).await;
    assert_eq!(other.end.as_deref(), Some("BEE\n"));

    let reject = ReviewReject {
        id,
        reason: Some("stop".into()),
        comments: None,
    };
    assert_eq!(window.forward(reject.into()).await, Ok(Value::Null));
    tokio::time::timeout(WAIT, ending).await.unwrap().unwrap();
}
