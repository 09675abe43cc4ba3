//! Issue 39's modes in the running instance: serving a workspace checkpoints it (for the CLIs
//! without a prompt hook), a turn's start gets the review window ready as a CLI connecting
//! does, and the turn mode's pre-edit hook records the edit for the turn's review and asks
//! nothing. Checkpoints need the `git` program: the tests that take one are Unix-only, as Wine
//! (where the Windows build's tests run here) has no Windows git.

#[cfg(unix)]
use crate::common::eventually;
use crate::common::{start, WAIT};
use crate::editor::serve_control;
#[cfg(unix)]
use redline_core::checkpoint::Store;
#[cfg(unix)]
use redline_core::protocols::hook::turn::TurnBegun;
use redline_core::protocols::hook::{HookCall, HookCli};
use redline_core::runtime::control::{self, Request};
use serde_json::json;
#[cfg(unix)]
use std::path::Path;

#[cfg(unix)]
/// Whether the store under `data` for `ws` holds a checkpoint (its newest kept by a ref).
fn checkpointed(data: &Path, ws: &Path) -> bool {
    std::process::Command::new("git")
        .env("GIT_DIR", Store::dir_for(data, ws))
        .args(["rev-parse", "--verify", "-q", "refs/redline/latest"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[cfg(unix)]
#[tokio::test]
async fn serving_a_workspace_takes_a_checkpoint_in_the_background() {
    let f = start().await;
    eventually("the served workspace's checkpoint", || async {
        checkpointed(&f.dirs.data, &f.ws)
    })
    .await;
    // Another workspace, added while Redline runs: checkpointed too.
    let other = f.ws.parent().unwrap().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("b.txt"), "b\n").unwrap();
    assert!(!checkpointed(&f.dirs.data, &other));
    f.instance.workspaces().add(&other, false).await.unwrap();
    eventually("the added workspace's checkpoint", || async {
        checkpointed(&f.dirs.data, &other)
    })
    .await;
}

#[cfg(unix)]
#[tokio::test]
async fn a_turns_start_gets_the_review_window_ready_as_a_cli_connecting_does() {
    let f = start().await;
    let mut started = f.instance.reviews().queue().sessions_started();
    let before = *started.borrow_and_update();
    let call = HookCall {
        cli: HookCli::of("claude").unwrap(),
        input: json!({ "session_id": "s1", "cwd": f.ws, "hook_event_name": "UserPromptSubmit",
            "prompt": "hi", "transcript_path": "/dev/null" }),
        record_turn: false,
    };
    let begun = f.instance.turn_start(call).await;
    assert!(matches!(begun, TurnBegun::Recorded { .. }), "{begun:?}");
    tokio::time::timeout(WAIT, started.changed())
        .await
        .expect("the turn's start is signalled")
        .unwrap();
    assert_eq!(*started.borrow_and_update(), before + 1);

    // A prompt outside every workspace gets nothing ready.
    let call = HookCall {
        cli: HookCli::of("claude").unwrap(),
        input: json!({ "session_id": "s2", "cwd": "/", "prompt": "hi" }),
        record_turn: false,
    };
    assert!(matches!(
        f.instance.turn_start(call).await,
        TurnBegun::Pass { .. }
    ));
    assert!(!started.has_changed().unwrap());
}

#[tokio::test]
async fn the_turn_modes_pre_edit_hook_records_and_opens_no_review() {
    let f = start().await;
    serve_control(&f).await;
    let input = json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": f.ws,
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": { "file_path": f.ws.join("a.txt"), "content": "new\n" } });
    let req = Request::HookRecord(HookCall {
        cli: HookCli::of("claude").unwrap(),
        input,
        record_turn: true,
    });
    let answered = tokio::time::timeout(WAIT, control::call(&f.dirs, &req)).await;
    assert_eq!(answered.unwrap().unwrap(), serde_json::Value::Null);
    assert!(f.instance.reviews().list().is_empty());
    // The end of the turn shows the recorded file, start against now.
    std::fs::write(f.ws.join("a.txt"), "new\n").unwrap();
    let stop = HookCall {
        cli: HookCli::of("claude").unwrap(),
        input: json!({ "session_id": "s1", "cwd": f.ws, "hook_event_name": "Stop",
            "stop_hook_active": false, "transcript_path": "/dev/null" }),
        record_turn: false,
    };
    let Ok(_waiting) = f.instance.turn_review(stop, None).await else {
        panic!("the turn's review opens");
    };
    assert_eq!(f.instance.reviews().list().len(), 1);
}
