//! Claude Code's WebSocket server over real sockets: the upgrade's guards, JSON-RPC faults, every
//! tool's exact result, blocking openDiff settled once by each kind of end, and the lock file.

use crate::common::claude::{upgrade, Claude};
use crate::common::tool;
use crate::common::{raw, start, Fixture, WAIT};
use futures::{SinkExt, StreamExt};
use redline_core::review::{Outcome, ReviewEvent};
use redline_core::runtime::companion::Decision;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// A file's URL as editors send it to Claude Code: `file:///C:/x/a.txt` on Windows.
fn url(path: &str) -> String {
    if cfg!(windows) {
        format!("file:///{}", path.replace('\\', "/"))
    } else {
        format!("file://{path}")
    }
}

fn upgrade_request(f: &Fixture, extra: &str) -> String {
    crate::common::raw_upgrade(extra).replace("{port}", &f.ws_port.to_string())
}

#[tokio::test]
async fn every_refused_upgrade_is_a_bare_status() {
    let f = start().await;
    let host = format!("host: 127.0.0.1:{}\r\n", f.ws_port);
    let auth = format!("x-claude-code-ide-authorization: {}\r\n", f.token);
    let mut cases = crate::common::token_refusals(&host, &f.token);
    cases.extend([
        (
            "token twice",
            format!("{host}{auth}x-claude-code-ide-authorization: x\r\n"),
            401,
        ),
        (
            "bearer header instead",
            format!("{host}authorization: Bearer {}\r\n", f.token),
            401,
        ),
        (
            "origin",
            format!("{host}{auth}origin: http://127.0.0.1:{}\r\n", f.ws_port),
            403,
        ),
        (
            "rebinding host",
            format!("host: evil.example:{}\r\n{auth}", f.ws_port),
            403,
        ),
        ("other port", format!("host: 127.0.0.1:1\r\n{auth}"), 403),
        ("no host", auth.clone(), 403),
    ]);
    for (what, headers, want) in cases {
        let (status, body) = raw(f.ws_port, &upgrade_request(&f, &headers)).await;
        assert_eq!(status, want, "{what}");
        assert_eq!(body, "", "{what}: a refusal leaks nothing");
    }
    // Past the guard, a plain GET that is no upgrade and another path are bare too.
    let plain = format!("GET / HTTP/1.1\r\n{host}{auth}connection: close\r\n\r\n");
    let (status, body) = raw(f.ws_port, &plain).await;
    assert!((400..500).contains(&status), "{status}");
    assert_eq!(body, "");
    let other = upgrade_request(&f, &format!("{host}{auth}")).replacen("GET /", "GET /mcp", 1);
    assert_eq!(raw(f.ws_port, &other).await, (404, String::new()));
    // localhost is accepted, and the token opens it.
    let mut ok = tokio::net::TcpStream::connect(("127.0.0.1", f.ws_port))
        .await
        .unwrap();
    let req = upgrade_request(&f, &format!("host: localhost:{}\r\n{auth}", f.ws_port));
    tokio::io::AsyncWriteExt::write_all(&mut ok, req.as_bytes())
        .await
        .unwrap();
    let mut buf = vec![0u8; 1024];
    let n = tokio::io::AsyncReadExt::read(&mut ok, &mut buf)
        .await
        .unwrap();
    let head = String::from_utf8_lossy(&buf[..n]).to_lowercase();
    assert!(head.starts_with("http/1.1 101"), "{head}");
    assert!(head.contains("sec-websocket-protocol: mcp"), "{head}");
}

#[tokio::test]
async fn faults_are_json_rpc_errors_and_the_connection_goes_on() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    c.send_raw("{not json").await;
    let m = c.next().await.unwrap();
    assert_eq!(m["error"]["code"], -32700, "{m}");
    assert_eq!(m["id"], Value::Null);
    c.send_raw("[1, 2]").await;
    assert_eq!(c.next().await.unwrap()["error"]["code"], -32600);
    c.send_raw(r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#)
        .await;
    let m = c.next().await.unwrap();
    assert_eq!(
        (m["id"].clone(), m["error"]["code"].clone()),
        (json!(7), json!(-32600))
    );
    c.send_raw(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#)
        .await;
    assert_eq!(c.next().await.unwrap()["error"]["code"], -32600);
    c.send_raw(r#"{"jsonrpc":"2.0","id":8,"method":3}"#).await;
    assert_eq!(c.next().await.unwrap()["error"]["code"], -32600);

    let m = c.rpc("no/such/method", json!({})).await;
    assert_eq!(m["error"]["code"], -32601, "{m}");
    let m = c.call("noSuchTool", json!({})).await;
    assert_eq!(m["error"]["code"], -32602, "{m}");
    assert!(m["error"]["message"]
        .as_str()
        .unwrap()
        .contains("noSuchTool"));
    let m = c
        .call("openDiff", json!({"new_file_path": f.file("a.txt")}))
        .await;
    assert_eq!(m["error"]["code"], -32602, "{m}");
    assert!(m["error"]["message"]
        .as_str()
        .unwrap()
        .contains("new_file_contents"));
    let m = c.rpc("tools/call", json!({"arguments": {}})).await;
    assert_eq!(m["error"]["code"], -32602, "{m}");
    let m = c.call("close_tab", json!({"tab_name": 5})).await;
    assert_eq!(m["error"]["code"], -32602, "{m}");

    // Still serving: MCP ping, and a WebSocket ping gets its pong.
    assert_eq!(c.rpc("ping", json!({})).await["result"], json!({}));
    c.ws.send(Message::Ping(b"hi".to_vec().into()))
        .await
        .unwrap();
    loop {
        match tokio::time::timeout(WAIT, c.ws.next()).await.unwrap() {
            Some(Ok(Message::Pong(p))) => {
                assert_eq!(&p[..], b"hi");
                break;
            }
            Some(Ok(_)) => continue,
            other => panic!("no pong: {other:?}"),
        }
    }
    assert!(f.instance.reviews().list().is_empty());
}

#[tokio::test]
async fn initialize_and_tools_list_and_the_client_label() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let old = c
        .rpc(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "claude-code", "version": "2.1.330"}}),
        )
        .await;
    assert_eq!(
        old["result"],
        json!({"protocolVersion": "2025-06-18",
               "capabilities": {"tools": {"listChanged": false}},
               "serverInfo": {"name": "redline", "title": "Redline",
                              "version": env!("CARGO_PKG_VERSION")}})
    );
    let tools = c.rpc("tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "openDiff",
            "close_tab",
            "closeAllDiffTabs",
            "getDiagnostics",
            "getCurrentSelection",
            "getLatestSelection",
            "getOpenEditors",
            "getWorkspaceFolders",
            "checkDocumentDirty",
            "saveDocument",
            "openFile"
        ]
    );
    let status = f.instance.status().await;
    let clients = &status.workspaces[0].clients;
    assert_eq!(clients.len(), 1);
    assert_eq!(
        (clients[0].name.as_str(), clients[0].version.as_str()),
        ("Claude Code", "2.1.330")
    );
    assert_eq!(status.workspaces[0].ws_port, Some(f.ws_port));
}

/// Claude Code 2.1.332's MCP client knows `2026-07-28` and probes `server/discover` (on its HTTP
/// and stdio servers; its IDE connection still opens with `initialize` 2025-11-25, see
/// tests/interop/claude/README.md); a connection that settles on `2026-07-28` or later
/// registers no handler for custom notifications, so `selection_changed` and `at_mentioned`
/// would be dropped without a word. Redline answers the probe "method not found" (the client
/// then falls back to `initialize`) and settles on the revision in Claude Code's data, whatever
/// later one is offered.
#[tokio::test]
async fn a_client_offering_2026_07_28_settles_on_2025_11_25_and_still_hears_mentions() {
    let f = start().await;
    let mut c = Claude::over(upgrade(&f, &f.token).await);
    let meta = json!({"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "claude-code", "version": "2.1.332"},
        "io.modelcontextprotocol/clientCapabilities": {}}});
    let discover = c.rpc("server/discover", meta).await;
    assert_eq!(discover["error"]["code"], -32601, "{discover}");
    assert!(discover.get("result").is_none(), "{discover}");
    for offered in ["2026-07-28", "2099-01-01"] {
        let init = c
            .rpc(
                "initialize",
                json!({"protocolVersion": offered, "capabilities": {},
                       "clientInfo": {"name": "claude-code", "version": "2.1.332"}}),
            )
            .await;
        assert_eq!(
            init["result"]["protocolVersion"], "2025-11-25",
            "offered {offered}: {init}"
        );
    }
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    c.send(json!({"jsonrpc": "2.0", "method": "ide_connected", "params": {"pid": 1}}))
        .await;
    let (call, id) = c.open_diff(&f, "a.txt", "one\nTWO\n", "t").await;
    f.instance.mention(id, 0, 1).await.unwrap();
    assert_eq!(
        c.next().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "at_mentioned",
               "params": {"filePath": f.file("a.txt"), "lineStart": 0, "lineEnd": 1}})
    );
    f.instance
        .reviews()
        .decide(id, Decision::reject())
        .await
        .unwrap();
    assert_eq!(tool::texts(&c.response(call).await), ["DIFF_REJECTED"]);
}

#[tokio::test]
async fn accept_with_an_edit_answers_file_saved_and_the_final_text_once() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let (call, id) = c
        .open_diff(&f, "a.txt", "one\nTWO\n", "✻ [Claude Code] a.txt")
        .await;
    let listed = f.instance.reviews().list();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].client.name, "Claude Code");
    assert_eq!(listed[0].client.version, "2.1.330");
    assert_eq!(listed[0].file_path, f.file("a.txt"));
    assert!(!listed[0].new_file);
    assert_eq!(
        f.instance.reviews().review(id).unwrap().original.as_deref(),
        Some("one\ntwo\n")
    );
    // Meanwhile the connection answers other calls.
    assert_eq!(
        tool::texts(&c.call("getDiagnostics", json!({})).await),
        ["[]"]
    );
    f.instance
        .reviews()
        .decide(id, Decision::accept(Some("one\nedited ✓\n".into())))
        .await
        .unwrap();
    let m = c.response(call).await;
    assert_eq!(
        m["result"],
        json!({"content": [{"type": "text", "text": "FILE_SAVED"},
                           {"type": "text", "text": "one\nedited ✓\n"}]})
    );
    let again = f
        .instance
        .reviews()
        .decide(id, Decision::reject())
        .await
        .unwrap_err();
    assert_eq!(again.code(), redline_core::FaultCode::NoSuchReview);
    assert_eq!(
        std::fs::read_to_string(f.ws.join("a.txt")).unwrap(),
        "one\ntwo\n",
        "Redline never writes the file"
    );
    // The CLI then closes the tab: nothing pending, still TAB_CLOSED.
    let m = c
        .call("close_tab", json!({"tab_name": "✻ [Claude Code] a.txt"}))
        .await;
    assert_eq!(tool::texts(&m), ["TAB_CLOSED"]);
}

/// Accepted unedited, the proposal goes back byte for byte: BOM, CRLF, a lone CR, a bare LF,
/// trailing spaces, control characters, no final newline.
#[tokio::test]
async fn accepted_unedited_the_proposal_goes_back_byte_for_byte() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let text = "\u{FEFF}one  \r\ntwo\rthree\n\u{1}\u{7f}\tfour\r\n\r\nlast";
    let (call, id) = c
        .open_diff(&f, "a.txt", text, "✻ [Claude Code] a.txt")
        .await;
    assert_eq!(f.instance.reviews().review(id).unwrap().proposal, text);
    f.instance
        .reviews()
        .decide(id, Decision::accept(None))
        .await
        .unwrap();
    let m = c.response(call).await;
    assert_eq!(tool::texts(&m), ["FILE_SAVED", text]);
}

#[tokio::test]
async fn reject_answers_diff_rejected_and_a_new_file_is_a_new_file_review() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let (call, id) = c.open_diff(&f, "sub/new.txt", "fresh\n", "t1").await;
    let r = f.instance.reviews().review(id).unwrap();
    assert!(r.original.is_none(), "a new-file review");
    assert!(f.instance.reviews().list()[0].new_file);
    f.instance
        .reviews()
        .decide(id, Decision::reject())
        .await
        .unwrap();
    assert_eq!(
        c.response(call).await["result"],
        json!({"content": [{"type": "text", "text": "DIFF_REJECTED"}]})
    );
    assert!(!f.ws.join("sub").exists(), "nothing written");
}

#[tokio::test]
async fn close_tab_settles_the_pending_open_diff_as_closed_by_the_cli() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let mut events = f.instance.reviews().queue().subscribe();
    let (call, _) = c.open_diff(&f, "a.txt", "x\n", "tab-a").await;
    let close = c
        .request(
            "tools/call",
            json!({"name": "close_tab", "arguments": {"tab_name": "tab-a"}}),
        )
        .await;
    assert_eq!(tool::texts(&c.response(close).await), ["TAB_CLOSED"]);
    assert_eq!(tool::texts(&c.response(call).await), ["TAB_CLOSED"]);
    loop {
        if let ReviewEvent::Resolved { outcome, .. } = events.recv().await.unwrap() {
            assert_eq!(outcome, Outcome::Closed);
            break;
        }
    }
    assert!(f.instance.reviews().list().is_empty());
}

#[tokio::test]
async fn close_all_diff_tabs_closes_only_this_connections_reviews() {
    let f = start().await;
    let mut a = Claude::connect(&f).await;
    let mut b = Claude::connect(&f).await;
    let (a_call, _) = a.open_diff(&f, "a.txt", "from a\n", "ta").await;
    let (a_call2, _) = a.open_diff(&f, "c.txt", "from a too\n", "tc").await;
    let (b_call, b_id) = b.open_diff(&f, "a.txt", "from b\n", "tb").await;
    assert_eq!(f.instance.reviews().list().len(), 3);
    let m = a.call("closeAllDiffTabs", json!({})).await;
    assert_eq!(tool::texts(&m), ["CLOSED_2_DIFF_TABS"]);
    assert_eq!(tool::texts(&a.response(a_call).await), ["TAB_CLOSED"]);
    assert_eq!(tool::texts(&a.response(a_call2).await), ["TAB_CLOSED"]);
    let left = f.instance.reviews().list();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].id, b_id, "b's review stays");
    assert_eq!(
        tool::texts(&a.call("closeAllDiffTabs", json!({})).await),
        ["CLOSED_0_DIFF_TABS"]
    );
    f.instance
        .reviews()
        .decide(b_id, Decision::accept(None))
        .await
        .unwrap();
    assert_eq!(
        tool::texts(&b.response(b_call).await),
        ["FILE_SAVED", "from b\n"]
    );
}

#[tokio::test]
async fn paths_outside_the_workspace_are_tool_errors_with_a_message() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let outside = f.tmp.path().join("secret.txt");
    std::fs::write(&outside, "secret").unwrap();
    let outside = outside.to_string_lossy().into_owned();
    let dotdot = format!("{}/../secret.txt", f.ws.display());
    for (tool, args) in [
        (
            "openDiff",
            json!({"old_file_path": outside, "new_file_path": outside,
                   "new_file_contents": "x", "tab_name": "t"}),
        ),
        (
            "openDiff",
            json!({"old_file_path": dotdot, "new_file_path": f.file("a.txt"),
                   "new_file_contents": "x", "tab_name": "t"}),
        ),
        (
            "openDiff",
            json!({"new_file_path": "relative.txt", "new_file_contents": "x", "tab_name": "t"}),
        ),
        ("checkDocumentDirty", json!({"filePath": outside})),
        ("saveDocument", json!({"filePath": dotdot})),
        ("openFile", json!({"filePath": outside})),
    ] {
        let m = c.call(tool, args).await;
        assert!(tool::is_error(&m), "{tool}: {m}");
        let t = tool::texts(&m);
        assert!(t[0].starts_with("Redline: "), "{t:?}");
        assert!(
            t[0].contains("outside the workspace") || t[0].contains("must be absolute"),
            "{t:?}"
        );
        assert!(!t[0].contains("secret\""), "no content leaks");
    }
    assert!(f.instance.reviews().list().is_empty());
    assert_eq!(
        std::fs::read_to_string(f.tmp.path().join("secret.txt")).unwrap(),
        "secret"
    );
}

#[tokio::test]
async fn the_other_tools_answer_what_redline_knows_and_write_nothing() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let none = tool::json(&c.call("getCurrentSelection", json!({})).await);
    assert_eq!(
        none,
        json!({"success": false, "message": "No active editor found"})
    );
    assert_eq!(
        tool::json(&c.call("getOpenEditors", json!({})).await),
        json!({"tabs": []})
    );
    let ws = f.ws.to_string_lossy().into_owned();
    assert_eq!(
        tool::json(&c.call("getWorkspaceFolders", json!({})).await),
        json!({"success": true, "rootPath": ws,
               "folders": [{"name": "ws", "uri": url(&ws), "path": ws}]})
    );
    assert_eq!(
        tool::texts(
            &c.call(
                "getDiagnostics",
                json!({"uri": url(&format!("{ws}/a.txt"))})
            )
            .await
        ),
        ["[]"]
    );
    let a = f.file("a.txt");
    assert_eq!(
        tool::json(&c.call("checkDocumentDirty", json!({"filePath": a})).await),
        json!({"success": false, "message": format!("Document not open: {a}")})
    );
    let (call, id) = c.open_diff(&f, "a.txt", "x\n", "t").await;
    assert_eq!(
        tool::json(&c.call("getOpenEditors", json!({})).await),
        json!({"tabs": [{"uri": url(&a), "isActive": true, "label": "a.txt",
                         "fileName": a, "isDirty": false, "isUntitled": false}]})
    );
    assert_eq!(
        tool::json(&c.call("checkDocumentDirty", json!({"filePath": a})).await),
        json!({"success": true, "filePath": a, "isDirty": false, "isUntitled": false})
    );
    let saved = tool::json(&c.call("saveDocument", json!({"filePath": a})).await);
    assert_eq!(saved["success"], false);
    assert!(saved["message"].as_str().unwrap().contains("never writes"));
    let opened = tool::json(
        &c.call("openFile", json!({"filePath": a, "preview": false}))
            .await,
    );
    assert_eq!(opened["success"], false);
    assert_eq!(opened["underReview"], true);
    assert_eq!(
        std::fs::read_to_string(f.ws.join("a.txt")).unwrap(),
        "one\ntwo\n"
    );
    f.instance
        .reviews()
        .decide(id, Decision::reject())
        .await
        .unwrap();
    assert_eq!(tool::texts(&c.response(call).await), ["DIFF_REJECTED"]);
}

#[tokio::test]
async fn a_dropped_socket_dismisses_its_reviews_only() {
    let f = start().await;
    let mut a = Claude::connect(&f).await;
    let mut b = Claude::connect(&f).await;
    a.open_diff(&f, "a.txt", "x\n", "t").await;
    let (_, keep) = b.open_diff(&f, "a.txt", "y\n", "t").await;
    let mut events = f.instance.reviews().queue().subscribe();
    drop(a);
    loop {
        if let ReviewEvent::Resolved { outcome, .. } = tokio::time::timeout(WAIT, events.recv())
            .await
            .unwrap()
            .unwrap()
        {
            assert_eq!(outcome, Outcome::Dismissed);
            break;
        }
    }
    let left = f.instance.reviews().list();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].id, keep);
    assert_eq!(f.instance.status().await.workspaces[0].clients.len(), 1);
}

#[tokio::test]
async fn stopping_the_workspace_or_quitting_answers_every_blocked_open_diff_before_closing() {
    for how in ["off", "quit", "rotate"] {
        let f = start().await;
        let mut c = Claude::connect(&f).await;
        let (call, _) = c.open_diff(&f, "a.txt", "x\n", "t").await;
        let (call2, _) = c.open_diff(&f, "c.txt", "y\n", "t2").await;
        match how {
            "off" => f
                .instance
                .workspaces()
                .set_enabled(&f.ws, false)
                .await
                .unwrap(),
            "quit" => f.instance.shutdown().await,
            _ => f.instance.workspaces().rotate_token(&f.ws).await.unwrap(),
        }
        assert_eq!(
            tool::texts(&c.response(call).await),
            ["DIFF_REJECTED"],
            "{how}"
        );
        assert_eq!(
            tool::texts(&c.response(call2).await),
            ["DIFF_REJECTED"],
            "{how}"
        );
        assert!(c.next().await.is_none(), "{how}: then the socket closes");
        assert!(f.instance.reviews().list().is_empty(), "{how}");
    }
}

#[tokio::test]
async fn a_message_over_the_bound_ends_the_connection() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let huge = "x".repeat(redline_core::protocols::mcp_ws::guard::MAX_MESSAGE_BYTES + 1);
    // The server may close while the frame is still being written.
    let _ = c.ws.send(Message::text(huge)).await;
    assert!(c.read().await.is_none(), "closed");
    assert!(f.instance.status().await.workspaces[0].clients.is_empty());
}

#[tokio::test]
async fn an_idle_connection_gets_pings() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let wait = redline_core::protocols::mcp_ws::session::PING + std::time::Duration::from_secs(5);
    let ping = tokio::time::timeout(wait, async {
        loop {
            match c.ws.next().await {
                Some(Ok(Message::Ping(_))) => return true,
                Some(Ok(_)) => continue,
                _ => return false,
            }
        }
    })
    .await;
    assert_eq!(ping, Ok(true));
}

#[tokio::test]
async fn the_lock_file_announces_the_port_and_goes_with_the_workspace() {
    let f = start().await;
    let lock = f
        .dirs
        .discovery(&redline_core::clients::CLAUDE)
        .join(format!("{}.lock", f.ws_port));
    let status = f.instance.status().await;
    assert!(status.workspaces[0].discovery_files.contains(&lock));
    let body: Value = serde_json::from_slice(&std::fs::read(&lock).unwrap()).unwrap();
    assert_eq!(
        body,
        json!({"pid": std::process::id(), "workspaceFolders": [f.ws.to_string_lossy()],
               "ideName": "Redline", "transport": "ws", "runningInWindows": cfg!(windows),
               "authToken": f.token})
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&lock), 0o600);
        assert_eq!(
            mode(&f.dirs.discovery(&redline_core::clients::CLAUDE)),
            0o700
        );
    }
    // A rotated token is in the rewritten lock.
    f.instance.workspaces().rotate_token(&f.ws).await.unwrap();
    let body: Value = serde_json::from_slice(&std::fs::read(&lock).unwrap()).unwrap();
    let token = f.instance.workspaces().token(&f.ws).await.unwrap();
    assert_eq!(body["authToken"], token);
    assert_ne!(token, f.token);
    f.instance
        .workspaces()
        .set_enabled(&f.ws, false)
        .await
        .unwrap();
    assert!(!lock.exists());
    // Closed: refused; or, when a parallel test's listener took the freed port since (seen in
    // CI), what answers there does not take this workspace's token.
    if !crate::common::refused("127.0.0.1", f.ws_port).await {
        let ours = crate::common::claude::upgrade_at("127.0.0.1", "127.0.0.1", f.ws_port, &token);
        assert!(
            ours.await.is_err(),
            "the workspace's listener still takes its token"
        );
    }
}

#[tokio::test]
async fn ask_about_lines_and_the_selection_reach_the_claude_that_opened_the_review() {
    let f = start().await;
    let mut asker = Claude::connect(&f).await;
    let mut other = Claude::connect(&f).await;
    let (call, id) = asker
        .open_diff(&f, "a.txt", "zero\none\ntwo\nthree\n", "t")
        .await;
    f.instance.mention(id, 2, 1).await.unwrap();
    let m = asker.next().await.unwrap();
    assert_eq!(
        m,
        json!({"jsonrpc": "2.0", "method": "at_mentioned",
               "params": {"filePath": f.file("a.txt"), "lineStart": 1, "lineEnd": 2}})
    );
    // Several selections in a row: one selection_changed, the latest.
    for end in 1..=5 {
        let sel = redline_core::review::selection::Selection {
            start_line: 1,
            start_character: 0,
            end_line: 2,
            end_character: end.min(3),
        };
        f.instance.select(id, sel).await.unwrap();
    }
    let m = asker.next().await.unwrap();
    let expected = json!({
        "text": "one\ntwo", "filePath": f.file("a.txt"),
        "fileUrl": url(&f.file("a.txt")),
        "selection": {"start": {"line": 1, "character": 0}, "end": {"line": 2, "character": 3},
                      "isEmpty": false}});
    assert_eq!(m["method"], "selection_changed");
    assert_eq!(m["params"], expected);
    // The next message is the answer to a ping: no second selection_changed was queued.
    let ping = asker.request("ping", json!({})).await;
    assert_eq!(asker.next().await.unwrap()["id"], ping);
    let mut current = expected.clone();
    current["success"] = json!(true);
    assert_eq!(
        tool::json(&other.call("getCurrentSelection", json!({})).await),
        current
    );
    // The other connection heard none of it.
    let pong = other.request("ping", json!({})).await;
    assert_eq!(other.next().await.unwrap()["id"], pong);

    // The window is told this review's CLI can be asked, not left to compare names.
    let detail = f
        .instance
        .reviews()
        .details()
        .into_iter()
        .find(|d| d.id == id);
    assert_eq!(detail.map(|d| d.can_mention), Some(true));
    f.instance
        .reviews()
        .decide(id, Decision::reject())
        .await
        .unwrap();
    assert_eq!(tool::texts(&asker.response(call).await), ["DIFF_REJECTED"]);
    assert_eq!(
        f.instance.mention(id, 0, 0).await.unwrap_err().code(),
        redline_core::FaultCode::NoSuchReview
    );
}

#[tokio::test]
async fn claude_code_connections_are_capped() {
    let f = start().await;
    let max = redline_core::net::limits::Limits::default().max_sessions;
    let mut open = Vec::new();
    for _ in 0..max {
        open.push(upgrade(&f, &f.token).await);
    }
    // A connection counts once its session runs, just after the 101 went out.
    let count = || async { f.instance.status().await.workspaces[0].clients.len() };
    tokio::time::timeout(WAIT, async {
        while count().await < max {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("every connection registered");
    let host = format!("host: 127.0.0.1:{}\r\n", f.ws_port);
    let auth = format!("x-claude-code-ide-authorization: {}\r\n", f.token);
    let (status, body) = raw(f.ws_port, &upgrade_request(&f, &format!("{host}{auth}"))).await;
    assert_eq!((status, body.as_str()), (503, ""));
    drop(open.pop());
    tokio::time::timeout(WAIT, async {
        while count().await >= max {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("a dropped connection frees its place");
    open.push(upgrade(&f, &f.token).await);
}

/// Each tool is listed, in this order, with the description and schema Claude Code has always
/// been shown.
#[tokio::test]
async fn each_tool_is_listed_as_claude_code_has_always_read_it() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let r = c.rpc("tools/list", json!({})).await;
    let listed: Value = serde_json::from_str(include_str!("../data/tools_claude.json")).unwrap();
    assert_eq!(r["result"], listed);
}

#[tokio::test]
async fn an_unknown_tool_and_bad_arguments_are_json_rpc_errors_word_for_word() {
    let f = start().await;
    let mut c = Claude::connect(&f).await;
    let r = c.call("open_diff", json!({})).await;
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "unknown tool: open_diff"})
    );
    let r = c
        .call("checkDocumentDirty", json!({"file_path": "/x"}))
        .await;
    assert_eq!(
        r["error"],
        json!({"code": -32602,
               "message": "invalid arguments for checkDocumentDirty: expects filePath (see tools/list)"})
    );
    let r = c.call("closeAllDiffTabs", json!(5)).await;
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "invalid arguments for closeAllDiffTabs"})
    );
    // No arguments at all, or null, are none.
    let r = c
        .rpc("tools/call", json!({"name": "closeAllDiffTabs"}))
        .await;
    assert_eq!(tool::texts(&r), ["CLOSED_0_DIFF_TABS"]);
    let r = c
        .rpc(
            "tools/call",
            json!({"name": "closeAllDiffTabs", "arguments": null}),
        )
        .await;
    assert_eq!(tool::texts(&r), ["CLOSED_0_DIFF_TABS"]);
    // The tools that read no arguments answer whatever they are sent.
    let r = c.call("getDiagnostics", json!({"uri": 5})).await;
    assert_eq!(tool::texts(&r), ["[]"]);
    let r = c.call("getWorkspaceFolders", json!("x")).await;
    assert_eq!(tool::json(&r)["success"], true);
}
