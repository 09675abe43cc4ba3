//! What Redline says about the editors connected to it: the channels in the status, the
//! selection answered only while its editor is there, and errors under the message's id.

use crate::common::claude::Claude;
use crate::common::tool;
use crate::common::{eventually, start};
use crate::editor::{context_msg, editor, line, send, serve_control};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

#[tokio::test]
async fn the_selection_goes_with_its_editor_for_claude_code_and_copilot_cli() {
    let f = start().await;
    serve_control(&f).await;
    let mut claude = Claude::connect(&f).await;
    #[cfg(unix)]
    let mut copilot = crate::editor::copilot(&f).await;
    let mut ed = editor(&f).await;
    send(&mut ed, &context_msg(&f, 1, "a.txt", "ne\ntw")).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));
    let sel: Value = tool::json(&claude.call("getCurrentSelection", json!({})).await);
    assert_eq!(sel["text"], "ne\ntw", "{sel}");

    drop(ed);
    let mut tabs = Value::Null;
    let deadline = tokio::time::Instant::now() + crate::common::WAIT;
    while tabs != json!([]) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the editor's files stay: {tabs}"
        );
        tabs = tool::json(&claude.call("getOpenEditors", json!({})).await)["tabs"].clone();
    }
    for tool in ["getCurrentSelection", "getLatestSelection"] {
        let sel: Value = tool::json(&claude.call(tool, json!({})).await);
        assert_eq!(sel["success"], false, "{tool} after the editor went: {sel}");
    }
    #[cfg(unix)]
    {
        let answer = copilot.call("get_selection", json!({})).await;
        let sel = tool::json(&answer);
        assert_ne!(
            sel["text"], "ne\ntw",
            "get_selection after the editor went: {sel}"
        );
    }
}

#[tokio::test]
async fn status_lists_each_editor_channel_with_its_workspaces_and_since_when() {
    let f = start().await;
    serve_control(&f).await;
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let mut ed = editor(&f).await;
    let status = f.instance.status().await;
    assert_eq!(status.editors.len(), 1, "{status:?}");
    assert!(status.editors[0].workspaces.is_empty(), "no file sent yet");
    assert!(status.editors[0].since >= before, "{status:?}");
    send(&mut ed, &context_msg(&f, 1, "a.txt", "")).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));
    let status = f.instance.status().await;
    assert_eq!(status.editors[0].workspaces, vec![f.ws.clone()]);
    let json = serde_json::to_value(&status).unwrap();
    assert_eq!(json["editors"][0]["workspaces"][0], f.ws.to_str().unwrap());

    // A second editor is listed apart; each goes when its channel closes.
    let second = editor(&f).await;
    assert_eq!(f.instance.status().await.editors.len(), 2);
    drop(ed);
    eventually("the first editor goes from the status", || async {
        f.instance.status().await.editors.len() == 1
    })
    .await;
    drop(second);
    eventually("the second goes too", || async {
        f.instance.status().await.editors.is_empty()
    })
    .await;
}

#[tokio::test]
async fn an_error_carries_the_messages_id_when_it_has_one() {
    let f = start().await;
    serve_control(&f).await;
    let mut ed = editor(&f).await;
    for (bad, id) in [
        (json!({"type": "bogus", "id": 3}), json!(3)),
        (json!({"type": "context", "id": 4}), json!(4)),
        (json!({"type": "mention", "id": 5, "path": 7}), json!(5)),
        (json!({"type": "bogus"}), Value::Null),
        (json!({"type": "bogus", "id": "x"}), Value::Null),
    ] {
        send(&mut ed, &bad).await;
        let e = line(&mut ed).await;
        assert_eq!((&e["type"], &e["id"]), (&json!("error"), &id), "{bad}: {e}");
        assert_eq!(e["code"], "bad_message", "{bad}: {e}");
    }
    ed.get_mut().write_all(b"not json\n").await.unwrap();
    assert_eq!(line(&mut ed).await["id"], Value::Null);
}
