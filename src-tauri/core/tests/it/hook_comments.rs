//! A per-edit review of a CLI's pre-edit hook rejected with comments on lines of the proposal:
//! the hook's deny, in the CLI's own output, carries each comment's `path:line` anchor, the line
//! quoted and the text, then the user's words (the one message `review::comment::message` makes).

use crate::common::{eventually, start, WAIT};
use crate::editor::serve_control;
use redline_core::protocols::hook::{claude, HookCall, HookCli, HookRuling};
use redline_core::review::comment::Comment;
use redline_core::runtime::control;
use redline_core::surfaces::action::ReviewReject;
use serde_json::{json, Value};

fn comment(line: u32, quote: &str, text: &str) -> Comment {
    Comment {
        path: "a.txt".into(),
        line,
        quote: quote.into(),
        text: text.into(),
    }
}

#[tokio::test]
async fn an_edit_rejected_with_two_comments_is_denied_with_both_anchors_quotes_and_texts() {
    let f = start().await;
    serve_control(&f).await;
    std::fs::write(f.ws.join("a.txt"), "one\ntwo\nthree\n").unwrap();
    let input = json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": f.ws,
        "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": { "file_path": f.ws.join("a.txt"), "old_string": "two\nthree",
                        "new_string": "TWO\nthree: 3" } });
    let call = HookCall {
        cli: HookCli::of("claude").unwrap(),
        input: input.clone(),
        record_turn: false,
    };
    let waiting = match f.instance.hook(call, None).await {
        Ok(w) => w,
        Err(v) => panic!("no review opened: {v:?}"),
    };
    let instance = f.instance.clone();
    let ruling = tokio::spawn(async move {
        waiting
            .ruling(instance.reviews(), std::future::pending())
            .await
    });
    eventually("the review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    let id = f.instance.reviews().list()[0].id;
    // Lines of the proposal (the right side): line 2 is the edit's `TWO`, line 3 its `three: 3`.
    let reject = ReviewReject {
        id,
        reason: Some("then run the tests".into()),
        comments: Some(vec![
            comment(2, "TWO", "keep it lowercase"),
            comment(3, "three: 3", "no count here: it is a name"),
        ]),
    };
    control::call(&f.dirs, &reject.into()).await.unwrap();
    let ruling = tokio::time::timeout(WAIT, ruling).await.unwrap().unwrap();
    assert!(
        matches!(ruling, Some(HookRuling::Deny { .. })),
        "{ruling:?}"
    );
    let out = claude::answer(&input, &ruling.unwrap());
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let specific = &v["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny");
    assert_eq!(
        specific["permissionDecisionReason"],
        "Review comments on your changes:\n\n- a.txt:2\n  > TWO\n  keep it lowercase\n\n\
         - a.txt:3\n  > three: 3\n  no count here: it is a name\n\nthen run the tests"
    );
    assert_eq!(
        std::fs::read_to_string(f.ws.join("a.txt")).unwrap(),
        "one\ntwo\nthree\n",
        "a rejected edit writes nothing"
    );
}
