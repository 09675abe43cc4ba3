//! The "a CLI connected" signal surfaces get ready on: it counts sessions that proved the token,
//! over HTTP and over the WebSocket, and never a probe without the token.

use crate::common::{claude, raw, raw_post, raw_upgrade, start, INIT, WAIT};

#[tokio::test]
async fn counts_real_sessions_of_both_protocols_and_no_probe() {
    let f = start().await;
    let mut started = f.instance.reviews().queue().sessions_started();
    assert_eq!(*started.borrow_and_update(), 0);

    // What any local process can do without the token: connect and leave, initialize or upgrade.
    drop(
        tokio::net::TcpStream::connect(("127.0.0.1", f.port))
            .await
            .unwrap(),
    );
    drop(
        tokio::net::TcpStream::connect(("127.0.0.1", f.ws_port))
            .await
            .unwrap(),
    );
    let host = |port: u16| format!("host: 127.0.0.1:{port}");
    let (status, _) = raw(f.port, &raw_post(&[host(f.port)], INIT)).await;
    assert_eq!(status, 401, "initialize without the token");
    let wrong = format!("authorization: Bearer {}", "0".repeat(64));
    let (status, _) = raw(f.port, &raw_post(&[host(f.port), wrong], INIT)).await;
    assert_eq!(status, 401, "initialize with a wrong token");
    let (status, _) = raw(f.ws_port, &raw_upgrade(&format!("{}\r\n", host(f.ws_port)))).await;
    assert_eq!(status, 401, "upgrade without the token");
    // A request that is not initialize opens no session, even with the token.
    let c = f.client();
    let resp = c
        .post(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await;
    assert!(resp.status().is_client_error(), "{}", resp.status());
    assert!(
        !started.has_changed().unwrap(),
        "a probe started no session"
    );

    // A real initialize over HTTP, as Gemini CLI and Qwen Code send it.
    let _http = f.session().await;
    tokio::time::timeout(WAIT, started.changed())
        .await
        .expect("the HTTP session is signalled")
        .unwrap();
    assert_eq!(*started.borrow_and_update(), 1);

    // A real WebSocket upgrade, as Claude Code makes it (signalled before any message).
    let _ws = claude::upgrade(&f, &f.token).await;
    tokio::time::timeout(WAIT, started.changed())
        .await
        .expect("the WebSocket session is signalled")
        .unwrap();
    assert_eq!(*started.borrow_and_update(), 2);
}
