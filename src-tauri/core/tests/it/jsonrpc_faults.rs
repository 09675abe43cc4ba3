//! One error policy over both transports, on real sockets: each malformed frame gets the same
//! JSON-RPC error, byte for byte, over HTTP and over Claude Code's WebSocket; none carries a
//! parser's or serde's text; an oversized one is refused without a word of JSON.

use crate::common::claude::Claude;
use crate::common::{raw, raw_post, start, Fixture};
use futures::SinkExt;
use tokio_tungstenite::tungstenite::Message;

/// Each frame and the exact error both transports answer it with.
const FAULTS: &[(&str, &str)] = &[
    (
        "{not json",
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    ),
    (
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list""#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    ),
    (
        "[1, 2]",
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}}"#,
    ),
    (
        r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}}"#,
    ),
    (
        r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number"}}"#,
    ),
    (
        r#"{"jsonrpc":"2.0","id":8,"method":3}"#,
        r#"{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"Invalid Request: method must be a string"}}"#,
    ),
    (
        r#"{"jsonrpc":"2.0","id":"x"}"#,
        r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request: no method"}}"#,
    ),
    (
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}"#,
        r#"{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params: params must be an object"}}"#,
    ),
    (
        r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":5}}"#,
        r#"{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"Invalid params for tools/call"}}"#,
    ),
];

/// Over HTTP, in an initialized session: each fault is a 400 with exactly that body.
async fn http_answers(f: &Fixture) -> Vec<(u16, String)> {
    let c = f.session().await;
    let headers = [
        format!("host: 127.0.0.1:{}", f.port),
        format!("authorization: Bearer {}", f.token),
        format!("mcp-session-id: {}", c.session.clone().unwrap()),
        "mcp-protocol-version: 2025-06-18".to_owned(),
    ];
    let mut out = Vec::new();
    for (frame, _) in FAULTS {
        out.push(raw(f.port, &raw_post(&headers, frame)).await);
    }
    out
}

#[tokio::test]
async fn every_malformed_frame_gets_the_same_bytes_over_http_and_the_websocket() {
    let f = start().await;
    let http = http_answers(&f).await;
    let mut ws = Claude::connect(&f).await;
    for ((frame, want), (status, body)) in FAULTS.iter().zip(http) {
        assert_eq!((status, body.as_str()), (400, *want), "HTTP: {frame}");
        ws.send_raw(frame).await;
        let got = ws.next_text().await.expect("an answer, not a close");
        assert_eq!(got, *want, "WebSocket: {frame}");
    }
    // Both still serve.
    assert_eq!(
        ws.rpc("ping", serde_json::json!({})).await["result"],
        serde_json::json!({})
    );
    let mut c = f.session().await;
    assert!(c.rpc("tools/list", serde_json::json!({})).await["result"]["tools"].is_array());
}

#[tokio::test]
async fn wrong_tool_arguments_say_what_is_expected_not_what_serde_found() {
    let f = start().await;
    let mut c = f.session().await;
    let r = c
        .call(
            "openDiff",
            serde_json::json!({"filePath": 7, "newContent": "x"}),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(
        r["error"]["message"],
        "invalid arguments for openDiff: expects filePath, newContent (see tools/list)"
    );
    let mut ws = Claude::connect(&f).await;
    let r = ws
        .call("close_tab", serde_json::json!({"tab_name": 5}))
        .await;
    assert_eq!(
        r["error"],
        serde_json::json!({"code": -32602,
            "message": "invalid arguments for close_tab: expects tab_name (see tools/list)"})
    );
}

#[tokio::test]
async fn an_oversized_frame_is_refused_without_json_on_either_transport() {
    let f = start().await;
    let max = redline_core::protocols::jsonrpc::MAX_MESSAGE_BYTES;
    let req = format!(
        "POST /mcp HTTP/1.1\r\nconnection: close\r\nhost: 127.0.0.1:{}\r\nauthorization: Bearer {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        f.port,
        f.token,
        max + 1
    );
    assert_eq!(
        raw(f.port, &req).await,
        (413, "Payload Too Large\n".to_owned())
    );

    let mut ws = Claude::connect(&f).await;
    // The server may close while the frame is still being written.
    let _ = ws.ws.send(Message::text("x".repeat(max + 1))).await;
    assert_eq!(ws.next_text().await, None, "closed without a text frame");
}
