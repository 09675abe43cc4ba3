//! The MCP surface on a real socket: versions, tool shapes, protocol faults, paths outside.

use crate::common::mcp::messages;
use crate::common::start;
use crate::common::tool;
use serde_json::{json, Value};

#[tokio::test]
async fn negotiates_each_supported_version() {
    let f = start().await;
    for v in ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] {
        let mut c = f.client();
        let init = c.connect(v).await;
        assert_eq!(init["result"]["protocolVersion"], v);
        assert_eq!(init["result"]["serverInfo"]["name"], "redline");
        assert!(init["result"]["capabilities"]["tools"].is_object());
    }
}

/// A later revision offered (2026-07-28 is stateless: no GET stream for the notifications) gets
/// the newest in Gemini CLI's and Qwen Code's data, not an echo.
#[tokio::test]
async fn a_later_revision_offered_gets_the_newest_the_cli_data_allows() {
    let f = start().await;
    for v in ["2026-07-28", "2099-01-01"] {
        let mut c = f.client();
        let init = c.connect(v).await;
        assert_eq!(
            init["result"]["protocolVersion"], "2025-11-25",
            "{v}: {init}"
        );
        let r = c.rpc("tools/list", json!({})).await;
        assert_eq!(tool::names(&r).len(), 4, "{v}: the session works on: {r}");
    }
}

#[tokio::test]
async fn lists_the_four_tools_with_their_schemas() {
    let f = start().await;
    let mut c = f.session().await;
    let r = c.rpc("tools/list", json!({})).await;
    let tools = r["result"]["tools"].as_array().unwrap();
    // rmcp's tool router lists by name.
    assert_eq!(
        tool::names(&r),
        ["acceptDiff", "closeDiff", "openDiff", "rejectDiff"]
    );
    let open = tools.iter().find(|t| t["name"] == "openDiff").unwrap();
    assert_eq!(
        open["inputSchema"]["required"],
        json!(["filePath", "newContent"])
    );
}

#[tokio::test]
async fn open_diff_answers_empty_content_and_close_diff_one_json_text_block() {
    let f = start().await;
    let mut c = f.session().await;
    let path = f.file("a.txt");
    let r = c
        .call(
            "openDiff",
            json!({"filePath": path, "newContent": "one\nTWO\n"}),
        )
        .await;
    assert_eq!(
        r["result"],
        json!({"content": []}),
        "exactly content: [] and nothing else"
    );
    let reviews = f.instance.reviews().list();
    assert_eq!(reviews.len(), 1);
    assert_eq!(reviews[0].file_path, path);
    assert_eq!(reviews[0].client.name, "test-cli");
    assert_eq!(reviews[0].client.version, "9.9.9");
    assert_eq!((reviews[0].added, reviews[0].removed), (1, 1));
    f.instance
        .reviews()
        .update(reviews[0].id, 1, "one\nedited\n".into())
        .unwrap();
    let r = c
        .call(
            "closeDiff",
            json!({"filePath": path, "suppressNotification": true}),
        )
        .await;
    // One text block, not an error, that the CLI parses as JSON.
    assert_eq!(tool::json(&r), json!({"content": "one\nedited\n"}));
    assert!(f.instance.reviews().list().is_empty());
    // Nothing left to close: a tool error the user can read, not a protocol fault.
    let r = c.call("closeDiff", json!({"filePath": path})).await;
    assert!(tool::is_error(&r));
    assert!(tool::text(&r).contains("no diff is open"));
}

#[cfg(unix)]
#[tokio::test]
async fn paths_outside_the_workspace_are_refused_with_a_message() {
    let f = start().await;
    let mut c = f.session().await;
    let outside = f.tmp.path().join("outside.txt");
    std::fs::write(&outside, "secret").unwrap();
    std::os::unix::fs::symlink(&outside, f.ws.join("link.txt")).unwrap();
    for path in [
        outside.to_string_lossy().into_owned(),
        format!("{}/../outside.txt", f.ws.display()),
        f.file("link.txt"),
        "relative/x.txt".to_owned(),
    ] {
        let r = c
            .call("openDiff", json!({"filePath": path, "newContent": "x"}))
            .await;
        assert!(tool::is_error(&r), "{path}");
        let text = tool::text(&r);
        assert!(
            text.contains("outside the workspace") || text.contains("must be absolute"),
            "{text}"
        );
    }
    assert!(f.instance.reviews().list().is_empty(), "nothing queued");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "secret");
}

#[tokio::test]
async fn unknown_tools_and_bad_params_are_json_rpc_errors() {
    let f = start().await;
    let mut c = f.session().await;
    let r = c.call("rm -rf", json!({})).await;
    assert_eq!(r["error"]["code"], -32602);
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unknown tool"));
    for args in [
        json!({"filePath": f.file("a.txt")}),
        json!({"filePath": 7, "newContent": "x"}),
        json!({}),
    ] {
        let r = c.call("openDiff", args.clone()).await;
        assert_eq!(r["error"]["code"], -32602, "{args}");
        assert!(r.get("result").is_none());
    }
    assert!(f.instance.reviews().list().is_empty());
}

#[tokio::test]
async fn malformed_json_rpc_is_refused_without_internals() {
    let f = start().await;
    let c = f.session().await;
    for body in ["{not json", r#"{"jsonrpc":"2.0"}"#, r#"[1,2"#] {
        let resp = c
            .request(reqwest::Method::POST)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        assert!((400..500).contains(&status), "{body}: {status} {text}");
        assert!(!text.contains("src/") && !text.contains(".rs"), "{text}");
    }
}

#[tokio::test]
async fn a_new_file_a_file_that_is_not_utf8_and_a_directory() {
    let f = start().await;
    let mut c = f.session().await;
    let r = c
        .call(
            "openDiff",
            json!({"filePath": f.file("new/b.rs"), "newContent": "fn main() {}\n"}),
        )
        .await;
    assert_eq!(r["result"], json!({"content": []}));
    let list = f.instance.reviews().list();
    assert!(list[0].new_file);
    assert_eq!(list[0].added, 1);
    // Latin-1 on disk: the review opens, its original marked and shown with U+FFFD; nothing
    // is converted on the way back (the proposal is the CLI's own text).
    std::fs::write(f.ws.join("latin1.txt"), b"caf\xe9\r\n\xff").unwrap();
    let r = c
        .call(
            "openDiff",
            json!({"filePath": f.file("latin1.txt"), "newContent": "caf\u{e9}\r\n"}),
        )
        .await;
    assert_eq!(r["result"], json!({"content": []}));
    let detail = f
        .instance
        .reviews()
        .details()
        .into_iter()
        .find(|r| r.file_path.ends_with("latin1.txt"))
        .unwrap();
    assert!(detail.original_not_utf8);
    assert_eq!(detail.original, "caf\u{FFFD}\r\n\u{FFFD}");
    assert_eq!(detail.original_binary, None);
    assert_eq!(detail.proposal, "caf\u{e9}\r\n");
    // A binary file (a NUL byte): shown as its size against the proposal, not as U+FFFD and
    // control characters; the proposal counted whole, and kept as the CLI sent it.
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    std::fs::write(f.ws.join("logo.png"), png).unwrap();
    let r = c
        .call(
            "openDiff",
            json!({"filePath": f.file("logo.png"), "newContent": "not an image\n"}),
        )
        .await;
    assert_eq!(r["result"], json!({"content": []}));
    let detail = f
        .instance
        .reviews()
        .details()
        .into_iter()
        .find(|r| r.file_path.ends_with("logo.png"))
        .unwrap();
    assert_eq!(detail.original_binary, Some(png.len() as u64));
    assert_eq!(detail.original, "");
    assert!(!detail.new_file);
    assert_eq!((detail.added, detail.removed), (1, 0));
    assert_eq!(detail.proposal, "not an image\n");
    let r = c
        .call(
            "openDiff",
            json!({"filePath": f.ws.to_string_lossy(), "newContent": "x"}),
        )
        .await;
    assert!(tool::is_error(&r));
}

#[tokio::test]
async fn post_responses_carry_no_event_ids() {
    let f = start().await;
    let c = f.session().await;
    let resp = c
        .post(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {}}))
        .await;
    let text = resp.text().await.unwrap();
    assert!(text.starts_with("data: "), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("id:")), "{text}");
    let _ = messages; // shared helper used elsewhere
}

/// Gemini CLI turns IDE diffing on only if tools/list has `openDiff` and `closeDiff`; each tool
/// is listed with the description and schema it has always had.
#[tokio::test]
async fn each_tool_is_listed_as_gemini_cli_has_always_read_it() {
    let f = start().await;
    let mut c = f.session().await;
    let r = c.rpc("tools/list", json!({})).await;
    let listed: Value = serde_json::from_str(include_str!("../data/tools_gemini.json")).unwrap();
    assert_eq!(tool::by_name(&r["result"]), tool::by_name(&listed));
}

#[tokio::test]
async fn an_unknown_tool_and_bad_arguments_are_answered_word_for_word() {
    let f = start().await;
    let mut c = f.session().await;
    let r = c.call("rm -rf", json!({})).await;
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "unknown tool: rm -rf"})
    );
    let r = c.call("closeDiff", json!({"filePath": 7})).await;
    assert_eq!(
        r["error"],
        json!({"code": -32602,
               "message": "invalid arguments for closeDiff: expects filePath (see tools/list)"})
    );
}

/// Gemini CLI and Qwen Code have no message for a mention: the window is told so by a flag, and a
/// mention sent anyway is refused in words that name the review, with nothing sent.
#[tokio::test]
async fn a_review_from_gemini_cli_cannot_take_a_mention_and_the_window_knows() {
    let f = start().await;
    let mut c = f.client();
    c.connect("2025-06-18").await;
    let id = f.propose(&mut c, "b.txt", "b\n").await;
    let detail = f
        .instance
        .reviews()
        .details()
        .into_iter()
        .find(|d| d.id == id);
    assert_eq!(detail.map(|d| d.can_mention), Some(false));
    let refused = f.instance.mention(id, 0, 0).await.unwrap_err();
    assert_eq!(refused.code(), redline_core::FaultCode::CannotTake);
    let words = refused.to_string();
    assert!(
        words.contains(&format!("proposed review {id}")) && words.contains("a mention"),
        "{words}"
    );
    assert!(
        f.instance
            .select(
                id,
                redline_core::review::selection::Selection {
                    start_line: 0,
                    start_character: 0,
                    end_line: 0,
                    end_character: 1,
                },
            )
            .await
            .is_err(),
        "nor a selection"
    );
}
