//! The HTTP server under hostile input, slow peers and exhaustion, on real sockets: JSON-RPC
//! faults, sessions that are unknown, missing or too many, slowloris, idle floods, and stops
//! that a half-sent request must not hold up.

use crate::common::{eventually, raw, start, start_with, Fixture, WAIT};
use redline_core::net::limits::Limits;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn post(f: &Fixture, session: Option<&str>, body: &str) -> String {
    let mut headers = vec![
        format!("host: 127.0.0.1:{}", f.port),
        format!("authorization: Bearer {}", f.token),
    ];
    headers.extend(session.map(|s| format!("mcp-session-id: {s}")));
    crate::common::raw_post(&headers, body)
}

fn error_code(body: &str) -> Option<i64> {
    let v: Value = serde_json::from_str(body.trim()).ok()?;
    v["error"]["code"].as_i64()
}

#[tokio::test]
async fn faults_are_json_rpc_errors_not_parser_text() {
    let f = start().await;
    let mut c = f.session().await;
    let s = c.session.clone();
    let s = s.as_deref();
    for (body, code) in [
        ("{not json", -32700),
        ("", -32700),
        (r#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#, -32600),
        (r#"{"id":1,"method":"tools/list"}"#, -32600),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#,
            -32600,
        ),
        ("42", -32600),
        (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, -32600),
        (r#"{"jsonrpc":"2.0","id":{},"method":"tools/list"}"#, -32600),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}"#,
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#,
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":3}}"#,
            -32602,
        ),
    ] {
        let (status, resp) = raw(f.port, &post(&f, s, body)).await;
        assert_eq!(status, 400, "{body} -> {resp}");
        assert_eq!(error_code(&resp), Some(code), "{body} -> {resp}");
        assert!(
            !resp.contains("serde") && !resp.contains("line 1"),
            "{resp}"
        );
    }
    // The session still works after all that.
    let r = c.rpc("tools/list", json!({})).await;
    assert!(r["result"]["tools"].is_array(), "{r}");
}

#[tokio::test]
async fn an_unknown_or_ended_session_is_404_for_every_method() {
    let f = start().await;
    let mut c = f.session().await;
    let live = c.session.clone().unwrap();
    let resp = c.request(reqwest::Method::DELETE).send().await.unwrap();
    assert!(resp.status().is_success());
    for id in [live.as_str(), "no-such-session"] {
        c.session = Some(id.to_owned());
        for method in [
            reqwest::Method::GET,
            reqwest::Method::DELETE,
            reqwest::Method::POST,
        ] {
            let mut req = c.request(method.clone());
            if method == reqwest::Method::POST {
                req = req.json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
            }
            let status = req.send().await.unwrap().status();
            assert_eq!(status, 404, "{method} with session {id}");
        }
    }
}

#[tokio::test]
async fn a_request_without_a_session_can_neither_open_nor_end_reviews() {
    let f = start().await;
    let mut a = f.client();
    a.connect("2025-06-18").await;
    let id = f.propose(&mut a, "a.txt", "mine\n").await;
    let path = f.file("a.txt");
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}});
    for (name, args) in [
        ("closeDiff", json!({"filePath": path})),
        ("rejectDiff", json!({"filePath": path})),
        (
            "openDiff",
            json!({"filePath": f.file("b.txt"), "newContent": "x"}),
        ),
    ] {
        for with_meta in [false, true] {
            let mut params = json!({"name": name, "arguments": args});
            if with_meta {
                params["_meta"] = meta.clone();
            }
            let body = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": params});
            let (status, resp) = raw(f.port, &post(&f, None, &body.to_string())).await;
            assert_eq!(status, 400, "{name} {with_meta}: {resp}");
            assert_eq!(error_code(&resp), Some(-32600), "{resp}");
        }
    }
    // A's review is untouched, and nothing was queued for b.txt.
    let left: Vec<_> = f
        .instance
        .reviews()
        .list()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(left, vec![id]);
    // The same call inside A's session but naming a newer revision is served as A, once.
    let body = json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": {"name": "closeDiff", "arguments": {"filePath": path}, "_meta": meta}});
    let (status, resp) = raw(f.port, &post(&f, a.session.as_deref(), &body.to_string())).await;
    assert_eq!(status, 200, "{resp}");
    assert!(resp.contains("mine"), "{resp}");
    assert!(f.instance.reviews().list().is_empty());
    // A is still connected: the request did not end A's session.
    let r = a.rpc("tools/list", json!({})).await;
    assert!(r["result"]["tools"].is_array(), "{r}");
}

#[tokio::test]
async fn sessions_are_capped_and_the_abandoned_are_reaped() {
    let limits = Limits {
        max_sessions: 4,
        streamless_session: Duration::from_millis(400),
        ..Limits::default()
    };
    let f = start_with(limits).await;
    // One CLI that keeps its stream open is never evicted.
    let mut kept = f.session().await;
    let _stream = kept.stream().await;
    for _ in 0..200 {
        f.session().await;
        let status = f.instance.status().await;
        assert!(status.workspaces[0].clients.len() <= 4);
    }
    let listed = |s: &redline_core::api::status::Status| -> Vec<String> {
        s.workspaces[0]
            .clients
            .iter()
            .map(|c| c.session.clone())
            .collect()
    };
    eventually("abandoned sessions are reaped", || async {
        listed(&f.instance.status().await) == vec![kept.session.clone().unwrap()]
    })
    .await;
    let r = kept.rpc("tools/list", json!({})).await;
    assert!(r["result"]["tools"].is_array(), "{r}");
}

#[tokio::test]
async fn duplicate_hosts_and_broken_chunks_are_400() {
    let f = start().await;
    let auth = format!("authorization: Bearer {}", f.token);
    let host = format!("host: 127.0.0.1:{}", f.port);
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let dup = format!("POST /mcp HTTP/1.1\r\n{host}\r\n{host}\r\n{auth}\r\nconnection: close\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n{body}", body.len());
    assert_eq!(raw(f.port, &dup).await.0, 400);
    let chunked = format!("POST /mcp HTTP/1.1\r\n{host}\r\n{auth}\r\nconnection: close\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{body}\r\n0\r\n\r\n");
    assert_eq!(raw(f.port, &chunked).await.0, 400);
}

async fn connect(port: u16) -> TcpStream {
    TcpStream::connect(("127.0.0.1", port)).await.unwrap()
}

/// Reads until the server closes the connection (or the deadline, which fails the test).
async fn closed_by_server(s: &mut TcpStream) -> String {
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out))
        .await
        .expect("the server must close the connection")
        .ok();
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn a_dribbled_head_and_an_idle_connection_are_closed() {
    let limits = Limits {
        header_read: Duration::from_millis(300),
        ..Limits::default()
    };
    let f = start_with(limits).await;
    let mut slow = connect(f.port).await;
    slow.write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n")
        .await
        .unwrap();
    closed_by_server(&mut slow).await;
    let mut idle = connect(f.port).await;
    closed_by_server(&mut idle).await;
}

#[tokio::test]
async fn an_idle_flood_leaves_the_control_channel_and_the_server_answering() {
    // The head deadline stays at its default (10 s): room comes from evicting idle peers.
    let limits = Limits {
        max_connections: 16,
        ..Limits::default()
    };
    let f = start_with(limits).await;
    let mut idle = Vec::new();
    for _ in 0..64 {
        idle.push(connect(f.port).await);
    }
    // Half of them dribble a head in too.
    for s in idle.iter_mut().step_by(2) {
        s.write_all(b"POST /mcp HTTP/1.1\r\n").await.unwrap();
    }
    let status = tokio::time::timeout(WAIT, f.instance.status())
        .await
        .unwrap();
    assert_eq!(status.workspaces.len(), 1);
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    for _ in 0..3 {
        let (status, body) = raw(f.port, &post(&f, None, init)).await;
        assert_eq!(status, 200, "{body}");
    }
    // A CLI's open stream is busy, so never evicted by a later flood.
    let mut c = f.session().await;
    let mut stream = c.stream().await;
    for _ in 0..64 {
        idle.push(connect(f.port).await);
    }
    let id = f.propose(&mut c, "a.txt", "still here\n").await;
    f.instance
        .reviews()
        .decide(id, redline_core::runtime::companion::Decision::reject())
        .await
        .unwrap();
    let m = stream.next_decision().await.expect("the stream survived");
    assert_eq!(m["method"], "ide/diffRejected", "{m}");
    drop(idle);
}

#[tokio::test]
async fn a_half_sent_request_holds_up_neither_remove_nor_status_nor_shutdown() {
    let f = start().await;
    let mut held = Vec::new();
    // Head half sent; head sent and body half sent.
    let mut a = connect(f.port).await;
    a.write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n")
        .await
        .unwrap();
    held.push(a);
    let mut b = connect(f.port).await;
    let head = post(&f, None, &"x".repeat(100));
    b.write_all(&head.as_bytes()[..head.len() - 60])
        .await
        .unwrap();
    held.push(b);
    // Let the server take both requests in before the stop.
    let status = tokio::time::timeout(WAIT, f.instance.status())
        .await
        .unwrap();
    assert_eq!(status.workspaces[0].port, Some(f.port));
    tokio::time::timeout(WAIT, f.instance.workspaces().remove(&f.ws))
        .await
        .expect("workspace remove must not wait on a peer")
        .unwrap();
    tokio::time::timeout(WAIT, f.instance.status())
        .await
        .expect("status must answer");
    tokio::time::timeout(WAIT, f.instance.shutdown())
        .await
        .expect("shutdown must not wait on a peer");
    for mut s in held {
        closed_by_server(&mut s).await;
    }
}

#[tokio::test]
async fn a_long_response_outlives_the_header_deadline() {
    let header_read = Duration::from_millis(200);
    let f = start_with(Limits {
        header_read,
        ..Limits::default()
    })
    .await;
    let mut c = f.session().await;
    let mut stream = c.stream().await;
    // Elapsed time is what is under test here: the GET stream must outlive the head deadline.
    tokio::time::sleep(header_read * 5).await;
    let id = f.propose(&mut c, "a.txt", "later\n").await;
    f.instance
        .reviews()
        .decide(id, redline_core::runtime::companion::Decision::reject())
        .await
        .unwrap();
    let m = stream
        .next_decision()
        .await
        .expect("the stream is still open");
    assert_eq!(m["method"], "ide/diffRejected", "{m}");
}
