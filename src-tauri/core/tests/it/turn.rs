//! The end-of-turn review over the real control socket and the window's channel: the pre-edit
//! hook records each file at the turn's start, the end of the turn shows start against now as
//! turn reviews (read-only, `turn` set), and the window's answer comes back as Done or as the
//! user's words to continue with; nothing changed shows nothing.

use crate::common::{eventually, start, Fixture, WAIT};
use crate::editor::serve_control;
use redline_core::protocols::hook::turn::TurnRuling;
use redline_core::protocols::hook::{HookCall, HookCli};
use redline_core::review::turn::{MAX_TURN_FILES, MAX_TURN_TABS};
use redline_core::review::ReviewKind;
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::window::link;
use redline_core::runtime::window::message::Down;
use redline_core::surfaces::action::{ReviewAccept, ReviewReject};
use serde_json::{json, Value};
use std::path::Path;
use tokio::task::JoinHandle;

fn claude(input: Value, record_turn: bool) -> HookCall {
    HookCall {
        cli: HookCli::of("claude").unwrap(),
        input,
        record_turn,
    }
}

fn write(ws: &Path, name: &str, content: &str) -> Value {
    json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": ws,
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": { "file_path": ws.join(name), "content": content } })
}

/// Claude Code's pre-edit hook for a Write, accepted in the window; Claude then writes it.
async fn written(f: &Fixture, window: &link::Link, name: &str, content: &str, record: bool) {
    let dirs = f.dirs.clone();
    let req = Request::Hook(claude(write(&f.ws, name, content), record));
    let asked = tokio::spawn(async move { control::call(&dirs, &req).await });
    eventually("the edit's review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    let r = &f.instance.reviews().details()[0];
    let answer = window
        .forward(
            ReviewAccept {
                id: r.id,
                revision: Some(r.revision),
                content: None,
            }
            .into(),
        )
        .await;
    assert_eq!(answer, Ok(Value::Null));
    tokio::time::timeout(WAIT, asked)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    std::fs::write(f.ws.join(name), content).unwrap();
}

fn turn_end(f: &Fixture, again: bool) -> JoinHandle<TurnRuling> {
    let dirs = f.dirs.clone();
    let input = json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": f.ws,
        "hook_event_name": "Stop", "stop_hook_active": again });
    let req = Request::TurnReview(claude(input, false));
    tokio::spawn(async move {
        let v = control::call(&dirs, &req).await.expect("the turn's answer");
        serde_json::from_value(v).expect("a turn ruling")
    })
}

async fn answered(h: JoinHandle<TurnRuling>) -> TurnRuling {
    tokio::time::timeout(WAIT, h)
        .await
        .expect("in time")
        .unwrap()
}

#[tokio::test]
async fn a_two_file_turn_is_shown_start_against_now_and_continue_carries_the_users_words() {
    let f = start().await;
    serve_control(&f).await;
    let (window, mut events) = link::connect(&f.dirs).await.unwrap();
    std::fs::write(f.ws.join("a.txt"), "start\n").unwrap();
    written(&f, &window, "a.txt", "middle\n", true).await;
    written(&f, &window, "a.txt", "end\n", true).await;
    written(&f, &window, "b.txt", "new\n", true).await;

    let ending = turn_end(&f, false);
    eventually("the turn's two tabs", || async {
        f.instance.reviews().list().len() == 2
    })
    .await;
    let details = f.instance.reviews().details();
    let a = details.iter().find(|d| d.relative_path == "a.txt").unwrap();
    assert_eq!(
        (a.original.as_str(), a.proposal.as_str()),
        ("start\n", "end\n")
    );
    let b = details.iter().find(|d| d.relative_path == "b.txt").unwrap();
    assert!(b.new_file && b.proposal == "new\n");
    assert!(details
        .iter()
        .all(|d| d.kind == ReviewKind::Turn && d.reason_heard));
    assert!(a
        .read_only
        .as_deref()
        .unwrap()
        .contains("Continue with instructions"));
    // The window hears of them with `turn` set, as it hears of every review.
    let mut turn_added = 0;
    while turn_added < 2 {
        let e = tokio::time::timeout(WAIT, events.recv())
            .await
            .unwrap()
            .unwrap();
        if let Down::Added { review } = e {
            turn_added += usize::from(review["kind"] == "turn");
        }
    }

    let answer = window
        .forward(
            ReviewReject {
                id: a.id,
                reason: Some("Also handle the empty file".into()),
                comments: None,
            }
            .into(),
        )
        .await;
    assert_eq!(answer, Ok(Value::Null));
    assert_eq!(
        answered(ending).await,
        TurnRuling::Continue {
            instructions: "Also handle the empty file".into()
        }
    );
    eventually("the other tab goes", || async {
        f.instance.reviews().list().is_empty()
    })
    .await;
    assert_eq!(
        std::fs::read_to_string(f.ws.join("a.txt")).unwrap(),
        "end\n"
    );

    // The model went on and changed b.txt: only that is shown, and Done ends the turn.
    written(&f, &window, "b.txt", "newer\n", true).await;
    let ending = turn_end(&f, true);
    eventually("the tab", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    let b = &f.instance.reviews().details()[0];
    assert_eq!(b.original, "new\n");
    let answer = window
        .forward(
            ReviewAccept {
                id: b.id,
                revision: Some(b.revision),
                content: None,
            }
            .into(),
        )
        .await;
    assert_eq!(answer, Ok(Value::Null));
    assert_eq!(answered(ending).await, TurnRuling::Done);
}

#[tokio::test]
async fn nothing_changed_or_unrecorded_ends_the_turn_at_once_and_a_big_turn_says_what_it_leaves_out(
) {
    let f = start().await;
    serve_control(&f).await;
    let (window, _events) = link::connect(&f.dirs).await.unwrap();
    assert_eq!(answered(turn_end(&f, false)).await, TurnRuling::Done);
    written(&f, &window, "a.txt", "x\n", false).await;
    assert_eq!(answered(turn_end(&f, false)).await, TurnRuling::Done);
    written(&f, &window, "a.txt", "y\n", true).await;
    std::fs::remove_file(f.ws.join("a.txt")).unwrap();
    // Deleted since: the tab shows it going.
    let ending = turn_end(&f, false);
    eventually("the deletion's tab", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    assert_eq!(f.instance.reviews().details()[0].proposal, "");
    let id = f.instance.reviews().details()[0].id;
    window
        .forward(
            ReviewAccept {
                id,
                revision: Some(1),
                content: None,
            }
            .into(),
        )
        .await
        .unwrap();
    assert_eq!(answered(ending).await, TurnRuling::Done);

    // One Codex patch adding more files than a turn records: the rest are named as left out.
    let n = MAX_TURN_FILES + 2;
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..n {
        patch.push_str(&format!("*** Add File: f{i}.txt\n+{i}\n"));
    }
    patch.push_str("*** End Patch\n");
    let input = json!({ "session_id": "c1", "turn_id": "t1", "cwd": f.ws,
        "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
        "tool_input": { "command": patch } });
    let call = HookCall {
        cli: HookCli::of("codex").unwrap(),
        input,
        record_turn: true,
    };
    // The files are recorded before the edit's own reviews open (this many are past the
    // review quota, so it is denied: recorded all the same, as the CLI may go on).
    if let Ok(waiting) = f.instance.hook(call, None).await {
        f.instance.reviews().dismiss_local(waiting.ids());
    }
    for i in 0..n {
        std::fs::write(f.ws.join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
    }
    let stop = json!({ "session_id": "c1", "turn_id": "t1", "cwd": f.ws,
        "hook_event_name": "Stop", "stop_hook_active": false });
    let call = HookCall {
        cli: HookCli::of("codex").unwrap(),
        input: stop,
        record_turn: false,
    };
    let Ok(waiting) = f.instance.turn_review(call, None).await else {
        panic!("a turn review");
    };
    assert_eq!(waiting.ids().len(), MAX_TURN_TABS);
    let said = f.instance.reviews().details()[0].read_only.clone().unwrap();
    let past = n - MAX_TURN_TABS;
    assert!(
        said.contains(&format!(
            "{past} more file(s) the turn touched are not shown"
        )),
        "{said}"
    );
    f.instance.reviews().dismiss_local(waiting.ids());
}
