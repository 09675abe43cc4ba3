//! The review lifecycle over real sockets: decisions reach the session that asked, exactly once,
//! with the path as sent; closeDiff sends nothing; sessions that end take their reviews along.

use crate::common::mcp::Sse;
use crate::common::{start, WAIT};
use redline_core::review::{Outcome, ReviewEvent};
use redline_core::runtime::companion::Decision;
use serde_json::json;

async fn resolved(events: &mut tokio::sync::broadcast::Receiver<ReviewEvent>) -> Outcome {
    loop {
        match tokio::time::timeout(WAIT, events.recv())
            .await
            .unwrap()
            .unwrap()
        {
            ReviewEvent::Resolved { outcome, .. } => return outcome,
            _ => continue,
        }
    }
}

#[tokio::test]
async fn accept_with_edits_reaches_the_session_that_asked_exactly_once() {
    let f = start().await;
    let mut asker = f.client();
    asker.connect("2025-06-18").await;
    let mut bystander = f.client();
    bystander.connect("2025-06-18").await;
    let mut asker_stream = asker.stream().await;
    let mut bystander_stream = bystander.stream().await;
    // The path with a `..` in it must come back exactly as sent.
    let sent = format!("{}/sub/../a.txt", f.ws.display());
    asker
        .call(
            "openDiff",
            json!({"filePath": sent, "newContent": "one\nTWO\n"}),
        )
        .await;
    let id = f.instance.reviews().list()[0].id;
    f.instance
        .reviews()
        .decide(id, Decision::accept(Some("one\nedited ✓".into())))
        .await
        .unwrap();
    let m = asker_stream.next_decision().await.unwrap();
    assert_eq!(
        m,
        json!({"jsonrpc": "2.0", "method": "ide/diffAccepted",
               "params": {"filePath": sent, "content": "one\nedited ✓"}})
    );
    // Deciding twice is refused; the CLI hears once.
    let again = f
        .instance
        .reviews()
        .decide(id, Decision::reject())
        .await
        .unwrap_err();
    assert_eq!(again.code(), redline_core::FaultCode::NoSuchReview);
    // The bystander's next decision event is its own reject, not the asker's accept.
    let bid = f.propose(&mut bystander, "b.txt", "b").await;
    f.instance
        .reviews()
        .decide(bid, Decision::reject())
        .await
        .unwrap();
    let m = bystander_stream.next_decision().await.unwrap();
    assert_eq!(m["method"], "ide/diffRejected");
    assert_eq!(m["params"], json!({"filePath": f.file("b.txt")}));
    assert_eq!(
        std::fs::read_to_string(f.ws.join("a.txt")).unwrap(),
        "one\ntwo\n",
        "never written"
    );
    assert!(!f.ws.join("b.txt").exists(), "never written");
}

#[tokio::test]
async fn close_diff_sends_no_notification_and_accept_diff_decides() {
    let f = start().await;
    let mut c = f.session().await;
    let mut stream = c.stream().await;
    c.call(
        "openDiff",
        json!({"filePath": f.file("a.txt"), "newContent": "x\n"}),
    )
    .await;
    c.call("closeDiff", json!({"filePath": f.file("a.txt")}))
        .await;
    // The next decision on the stream must be the one for b.txt: closeDiff sent nothing.
    c.call(
        "openDiff",
        json!({"filePath": f.file("b.txt"), "newContent": "y\n"}),
    )
    .await;
    let r = c
        .call("acceptDiff", json!({"filePath": f.file("b.txt")}))
        .await;
    assert!(r["result"].get("isError").is_none(), "{r}");
    let m = stream.next_decision().await.unwrap();
    assert_eq!(m["method"], "ide/diffAccepted");
    assert_eq!(
        m["params"],
        json!({"filePath": f.file("b.txt"), "content": "y\n"})
    );
    c.call(
        "openDiff",
        json!({"filePath": f.file("c.txt"), "newContent": "z\n"}),
    )
    .await;
    c.call("rejectDiff", json!({"filePath": f.file("c.txt")}))
        .await;
    let m = stream.next_decision().await.unwrap();
    assert_eq!(m["method"], "ide/diffRejected");
    assert!(f.instance.reviews().list().is_empty());
}

#[tokio::test]
async fn an_empty_accept_is_refused_and_nothing_is_lost() {
    let f = start().await;
    let mut c = f.session().await;
    let id = f.propose(&mut c, "a.txt", "x\n").await;
    let e = f
        .instance
        .reviews()
        .decide(id, Decision::accept(Some(String::new())))
        .await
        .unwrap_err();
    assert_eq!(e.code(), redline_core::FaultCode::EmptyContent);
    assert_eq!(f.instance.reviews().list().len(), 1, "still pending");
}

#[tokio::test]
async fn a_notification_while_no_stream_is_open_arrives_when_one_opens_and_is_never_replayed() {
    let f = start().await;
    let mut c = f.session().await;
    let id = f.propose(&mut c, "a.txt", "x\n").await;
    f.instance
        .reviews()
        .decide(id, Decision::accept(None))
        .await
        .unwrap();
    let mut first = c.stream().await;
    let m = first.next_decision().await.unwrap();
    assert_eq!(m["method"], "ide/diffAccepted");
    drop(first);
    // A reopened stream starts with the context and then only new events.
    let mut second = c.stream().await;
    let m = second.next_message().await.unwrap();
    assert_eq!(m["method"], "ide/contextUpdate");
    let bid = f.propose(&mut c, "b.txt", "y\n").await;
    f.instance
        .reviews()
        .decide(bid, Decision::reject())
        .await
        .unwrap();
    let m = second.next_decision().await.unwrap();
    assert_eq!(m["method"], "ide/diffRejected", "no replayed diffAccepted");
}

#[tokio::test]
async fn delete_ends_the_session_and_dismisses_its_reviews() {
    let f = start().await;
    let mut c = f.session().await;
    let mut other = f.client();
    other.connect("2025-06-18").await;
    c.call(
        "openDiff",
        json!({"filePath": f.file("a.txt"), "newContent": "x\n"}),
    )
    .await;
    other
        .call(
            "openDiff",
            json!({"filePath": f.file("a.txt"), "newContent": "y\n"}),
        )
        .await;
    assert_eq!(f.instance.reviews().list().len(), 2);
    let mut events = f.instance.reviews().queue().subscribe();
    let resp = c.request(reqwest::Method::DELETE).send().await.unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    assert_eq!(resolved(&mut events).await, Outcome::Dismissed);
    let left = f.instance.reviews().list();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].client.name, "test-cli");
    assert_eq!(f.instance.status().await.workspaces[0].clients.len(), 1);
}

#[tokio::test]
async fn delete_right_after_initialize_unlists_the_session_at_once() {
    // A client that leaves before notifications/initialized (doctor's probe, a CLI that gave
    // up) never reaches the handler that learns its id: DELETE alone must end it.
    let f = start().await;
    let mut c = f.client();
    let resp = c
        .post(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "leaves-early", "version": "1"}}}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    c.session = resp
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(f.instance.status().await.workspaces[0].clients.len(), 1);
    let resp = c.request(reqwest::Method::DELETE).send().await.unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    assert_eq!(
        f.instance.status().await.workspaces[0].clients,
        vec![],
        "unlisted as soon as DELETE is answered, not when the reaper comes by"
    );
    let resp = c.request(reqwest::Method::DELETE).send().await.unwrap();
    assert_eq!(resp.status(), 404, "an ended session is gone");
}

#[tokio::test]
async fn a_session_whose_stream_is_gone_for_good_is_ended() {
    let f = start().await;
    let mut c = f.session().await;
    let stream = c.stream().await;
    c.call(
        "openDiff",
        json!({"filePath": f.file("a.txt"), "newContent": "x\n"}),
    )
    .await;
    let mut events = f.instance.reviews().queue().subscribe();
    drop(stream);
    // Dismissed after the reconnect grace, with no request from the client.
    assert_eq!(resolved(&mut events).await, Outcome::Dismissed);
    assert!(f.instance.reviews().list().is_empty());
    let r = c
        .post(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}}))
        .await;
    assert_eq!(r.status(), 404, "the session is gone");
}

#[tokio::test]
async fn context_updates_list_files_under_review_and_events_sees_everything() {
    let f = start().await;
    let http = reqwest::Client::new();
    let events = http
        .get(format!("http://127.0.0.1:{}/events", f.port))
        .bearer_auth(&f.token)
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
    let mut events = Sse::new(events);
    let mut c = f.session().await;
    let mut stream = c.stream().await;
    let m = stream.next_message().await.unwrap();
    assert_eq!(m["method"], "ide/contextUpdate");
    assert_eq!(m["params"], json!({"workspaceState": {"openFiles": []}}));
    c.call(
        "openDiff",
        json!({"filePath": f.file("a.txt"), "newContent": "x\n"}),
    )
    .await;
    let m = stream.next_message().await.unwrap();
    assert_eq!(m["method"], "ide/contextUpdate");
    let files = m["params"]["workspaceState"]["openFiles"]
        .as_array()
        .unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["path"], f.file("a.txt"));
    assert_eq!(files[0]["isActive"], true);
    assert!(m["params"]["workspaceState"].get("isTrusted").is_none());
    // /events carries the same notifications as plain `data:` lines.
    let e = events.next_message().await.unwrap();
    assert_eq!(e["method"], "ide/contextUpdate");
    let e = events.next_message().await.unwrap();
    assert_eq!(
        e["params"]["workspaceState"]["openFiles"][0]["path"],
        f.file("a.txt")
    );
}

#[tokio::test]
async fn an_idle_stream_gets_keep_alive_traffic() {
    let f = start().await;
    let c = f.session().await;
    let mut stream = c.stream().await;
    let first = stream.next_block(WAIT).await.unwrap();
    assert!(first.starts_with("data: "));
    let wait =
        redline_core::protocols::mcp_http::server::KEEP_ALIVE + std::time::Duration::from_secs(5);
    let next = stream.next_block(wait).await.unwrap();
    assert_eq!(next, ": keep-alive");
}

/// Whether the workspace's server still answers on its port. A refused connection is the plain
/// no; but the other tests of this process bind ports all the time, and one may be given the port
/// just freed: whatever listens there then must not answer this workspace's token.
/// Whether a Copilot CLI probe (a bare connection) would reach `socket`.
fn copilot_reachable(socket: &std::path::Path) -> bool {
    #[cfg(unix)]
    return std::os::unix::net::UnixStream::connect(socket).is_ok();
    #[cfg(windows)]
    return tokio::net::windows::named_pipe::ClientOptions::new()
        .open(socket)
        .is_ok();
}

async fn served(f: &crate::common::Fixture) -> bool {
    if tokio::net::TcpStream::connect(("127.0.0.1", f.port))
        .await
        .is_err()
    {
        return false;
    }
    let asked = f
        .client()
        .request(reqwest::Method::POST)
        .json(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "probe", "version": "0"}}}),
        )
        .timeout(WAIT)
        .send()
        .await;
    asked.is_ok_and(|r| r.status().is_success())
}

#[tokio::test]
async fn turning_a_workspace_off_removes_its_files_and_refuses_connections() {
    let f = start().await;
    let status = f.instance.status().await;
    let files = status.workspaces[0].discovery_files.clone();
    assert_eq!(
        files.len(),
        5,
        "Gemini's, Qwen's, Claude Code's, Amp's and Copilot CLI's"
    );
    // Copilot CLI's socket, or on Windows its named pipe, as its lock names it.
    let copilot_dir = f.dirs.discovery(&redline_core::clients::COPILOT);
    let lock = files.iter().find(|p| p.starts_with(&copilot_dir)).unwrap();
    let lock: serde_json::Value = serde_json::from_slice(&std::fs::read(lock).unwrap()).unwrap();
    let socket = std::path::PathBuf::from(lock["socketPath"].as_str().unwrap());
    assert!(copilot_reachable(&socket), "{}", socket.display());
    assert!(files.iter().all(|p| p.exists()));
    assert!(
        served(&f).await,
        "the probe sees the workspace's server while it is on"
    );
    f.instance
        .workspaces()
        .set_enabled(&f.ws, false)
        .await
        .unwrap();
    assert!(files.iter().all(|p| !p.exists()));
    assert!(!served(&f).await, "the listener is closed");
    assert!(
        !copilot_reachable(&socket),
        "Copilot CLI's socket or pipe went with it"
    );
    f.instance
        .workspaces()
        .set_enabled(&f.ws, true)
        .await
        .unwrap();
    let status = f.instance.status().await;
    assert!(status.workspaces[0]
        .discovery_files
        .iter()
        .all(|p| p.exists()));
    f.instance.shutdown().await;
    assert!(status.workspaces[0]
        .discovery_files
        .iter()
        .all(|p| !p.exists()));
}

#[tokio::test]
async fn turning_a_workspace_off_ends_open_streams_instead_of_waiting_on_them() {
    let f = start().await;
    let c = f.session().await;
    let mut stream = c.stream().await;
    stream.next_message().await.unwrap();
    let events = reqwest::Client::new()
        .get(format!("http://127.0.0.1:{}/events", f.port))
        .bearer_auth(&f.token)
        .send()
        .await
        .unwrap();
    let mut events = Sse::new(events);
    tokio::time::timeout(WAIT, f.instance.workspaces().set_enabled(&f.ws, false))
        .await
        .expect("stopping must not wait for clients to hang up")
        .unwrap();
    assert!(stream.next_block(WAIT).await.is_none(), "the stream ended");
    assert!(events.next_block(WAIT).await.is_none(), "/events ended");
}

#[tokio::test]
async fn stopping_a_workspace_tells_each_waiting_cli_before_its_stream_ends() {
    for how in ["off", "quit"] {
        let f = start().await;
        let mut c = f.session().await;
        let mut stream = c.stream().await;
        f.propose(&mut c, "a.txt", "x\n").await;
        if how == "off" {
            f.instance
                .workspaces()
                .set_enabled(&f.ws, false)
                .await
                .unwrap();
        } else {
            f.instance.shutdown().await;
        }
        // The CLI would otherwise wait on its openDiff for ever.
        let m = stream
            .next_decision()
            .await
            .expect("told before the stream ended");
        assert_eq!(m["method"], "ide/diffRejected", "{how}");
        assert_eq!(m["params"], json!({"filePath": f.file("a.txt")}));
        assert!(
            stream.next_block(WAIT).await.is_none(),
            "then the stream ends"
        );
        assert!(f.instance.reviews().list().is_empty());
    }
}
