//! A pre-edit hook's review that ends without the user's decision (replaced by another review of
//! the same file, withdrawn when its workspace is turned off) answers deny with why, never pass:
//! only the user's accept lets an edit through.

use crate::common::{eventually, start, Fixture, WAIT};
use redline_core::protocols::hook::{HookCall, HookCli, HookRuling};
use serde_json::json;

fn claude_write(f: &Fixture, content: &str) -> HookCall {
    HookCall {
        cli: HookCli::of("claude").unwrap(),
        input: json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": f.ws,
            "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": { "file_path": f.ws.join("a.txt"), "content": content } }),
        record_turn: false,
    }
}

/// The ruling of a hook call, awaited in the background.
async fn asked(f: &Fixture, content: &str) -> tokio::task::JoinHandle<Option<HookRuling>> {
    let waiting = match f.instance.hook(claude_write(f, content), None).await {
        Ok(w) => w,
        Err(v) => panic!("no review opened: {v:?}"),
    };
    let instance = f.instance.clone();
    tokio::spawn(async move {
        waiting
            .ruling(instance.reviews(), std::future::pending())
            .await
    })
}

fn denied(v: Option<HookRuling>) -> String {
    match v {
        Some(HookRuling::Deny { reason }) => reason,
        other => panic!("not a deny: {other:?}"),
    }
}

#[tokio::test]
async fn a_review_replaced_by_another_is_a_deny_with_why() {
    let f = start().await;
    std::fs::write(f.ws.join("a.txt"), "one\ntwo\n").unwrap();
    // opencode's apply_patch changing one file twice: its second review replaces the first
    // one's, which closes it undecided (a patch Redline refuses outright is a deny too).
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** End Patch";
    let call = HookCall {
        cli: HookCli::of("opencode").unwrap(),
        input: json!({ "tool": "apply_patch", "sessionID": "s", "callID": "c", "cwd": f.ws,
            "args": { "patchText": patch } }),
        record_turn: false,
    };
    let ruling = match f.instance.hook(call, None).await {
        Ok(waiting) => {
            let instance = f.instance.clone();
            tokio::time::timeout(
                WAIT,
                waiting.ruling(instance.reviews(), std::future::pending()),
            )
            .await
            .expect("a ruling without anyone deciding")
        }
        Err(v) => Some(v),
    };
    let reason = denied(ruling);
    assert!(!reason.is_empty());
    assert_eq!(
        std::fs::read_to_string(f.ws.join("a.txt")).unwrap(),
        "one\ntwo\n"
    );
    eventually("no review left", || async {
        f.instance.reviews().list().is_empty()
    })
    .await;
}

#[tokio::test]
async fn a_review_withdrawn_with_its_workspace_is_a_deny_with_why() {
    let f = start().await;
    std::fs::write(f.ws.join("a.txt"), "one\n").unwrap();
    let pending = asked(&f, "two\n").await;
    eventually("the review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    f.instance
        .workspaces()
        .set_enabled(&f.ws, false)
        .await
        .unwrap();
    let reason = denied(tokio::time::timeout(WAIT, pending).await.unwrap().unwrap());
    assert!(reason.contains("withdrawn"), "{reason}");
}
