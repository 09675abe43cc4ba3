//! The running instance against peers and files that misbehave: a decision never waits on
//! another workspace's stop, and checking a review's file on disk never blocks.

use crate::common::tool;
use crate::common::{start, WAIT};
use futures::{SinkExt, StreamExt};
use redline_core::net::limits::DRAIN;
use redline_core::review::selection::Selection;
use redline_core::review::ReviewEvent;
use redline_core::runtime::companion::Decision;
use serde_json::{json, Value};
use std::path::Path;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// The peer's receive buffer: small and fixed (no autotuning), so what the server sends fills
/// it after a few frames.
const PEER_RECEIVE_BUFFER: u32 = 16 * 1024;
/// Answers of about 1 MiB each, far more in all than the peer's buffer and the server's send
/// buffer (at most a few MiB) can hold: the server is left blocked on a send to A.
const ANSWERS: usize = 48;

type Socket = WebSocketStream<TcpStream>;

async fn connect(port: u16, token: &str) -> Socket {
    let mut req = format!("ws://127.0.0.1:{port}")
        .into_client_request()
        .unwrap();
    let h = req.headers_mut();
    h.insert(
        "X-Claude-Code-Ide-Authorization",
        HeaderValue::from_str(token).unwrap(),
    );
    h.insert("Sec-WebSocket-Protocol", HeaderValue::from_static("mcp"));
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(PEER_RECEIVE_BUFFER).unwrap();
    let stream = socket.connect(([127, 0, 0, 1], port).into()).await.unwrap();
    let (ws, _) = tokio_tungstenite::client_async(req, stream).await.unwrap();
    ws
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// Reads until the answer to request `id`, within the deadline.
async fn answer(ws: &mut Socket, id: u64) -> Value {
    let read = async {
        while let Some(frame) = ws.next().await {
            if let Ok(Message::Text(t)) = frame {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["id"] == id {
                    return v;
                }
            }
        }
        panic!("the connection closed before the answer to {id}");
    };
    tokio::time::timeout(WAIT, read)
        .await
        .expect("timed out waiting for an answer")
}

/// Starts a blocking openDiff of `path` from `ws`; returns the review's id once it is queued.
async fn open_diff(
    ws: &mut Socket,
    events: &mut tokio::sync::broadcast::Receiver<ReviewEvent>,
    path: &Path,
    content: &str,
    id: u64,
) -> u64 {
    let path = path.to_string_lossy();
    send(
        ws,
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "openDiff", "arguments": {"old_file_path": path, "new_file_path": path,
            "new_file_contents": content, "tab_name": "t"}}}),
    )
    .await;
    loop {
        match tokio::time::timeout(WAIT, events.recv()).await.unwrap() {
            Ok(ReviewEvent::Added(r)) if r.file_path == path => return r.id,
            Ok(_) => continue,
            Err(e) => panic!("review events: {e}"),
        }
    }
}

/// Workspace A is stopped while its Claude Code peer has stopped reading (its socket buffers
/// full), and an Accept on workspace B is answered while A's stop is still in progress; A's stop
/// then ends within the drain bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accept_is_answered_while_another_workspace_waits_on_a_peer_that_stopped_reading() {
    let f = start().await;
    let a = f.ws.clone();
    let b = f.tmp.path().canonicalize().unwrap().join("b");
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(b.join("b.txt"), "old\n").unwrap();
    f.instance.workspaces().add(&b, false).await.unwrap();
    let pin_b = f.instance.workspaces().pin(&b).await.unwrap();
    let mut events = f.instance.reviews().queue().subscribe();

    // B: a peer waiting on an openDiff, which reads its answers.
    let mut peer_b = connect(pin_b.ws_port.unwrap(), &pin_b.auth_token).await;
    let review_b = open_diff(&mut peer_b, &mut events, &b.join("b.txt"), "new\n", 1).await;

    // A: a peer that opens a review, asks for answers of ~1 MiB each, reads one, then stops
    // reading while the rest pile up on the server's side.
    let mut peer_a = connect(f.ws_port, &f.token).await;
    let big: String = "x".repeat(1023).to_owned() + "\n";
    let big = big.repeat(1024);
    let review_a = open_diff(&mut peer_a, &mut events, &a.join("a.txt"), &big, 1).await;
    let everything = Selection {
        start_line: 0,
        start_character: 0,
        end_line: 1024,
        end_character: 0,
    };
    f.instance.select(review_a, everything).await.unwrap();
    for id in 0..ANSWERS as u64 {
        send(
            &mut peer_a,
            json!({"jsonrpc": "2.0", "id": 100 + id, "method": "tools/call",
                   "params": {"name": "getCurrentSelection", "arguments": {}}}),
        )
        .await;
    }
    let first = answer(&mut peer_a, 100).await;
    assert!(
        first.to_string().len() > big.len(),
        "the answer carries the selection: {}",
        first.to_string().len()
    );

    // Stop A; once its review is settled the stop is under way (it then drains A's peer).
    let instance = f.instance.clone();
    let stopping_a = a.clone();
    let began = tokio::time::Instant::now();
    let stop =
        tokio::spawn(async move { instance.workspaces().set_enabled(&stopping_a, false).await });
    loop {
        match tokio::time::timeout(WAIT, events.recv()).await.unwrap() {
            Ok(ReviewEvent::Resolved { id, .. }) if id == review_a => break,
            Ok(_) => continue,
            Err(e) => panic!("review events: {e}"),
        }
    }

    // The Accept on B is answered at once: not after A's peer drained.
    tokio::time::timeout(
        DRAIN / 2,
        f.instance
            .reviews()
            .decide(review_b, Decision::accept(None)),
    )
    .await
    .expect("the decision waited on another workspace's stop")
    .unwrap();
    assert!(
        !stop.is_finished(),
        "A's stop was over before the decision: this test did not hold it up"
    );
    let saved = answer(&mut peer_b, 1).await;
    assert_eq!(tool::text(&saved), "FILE_SAVED", "{saved}");

    // A's stop ends by the drain bound although its peer never reads again: well before the 30 s
    // a send to a peer may take (PEER_SEND), which is what it would wait for without the bound.
    // The margin is wide because a loaded machine (or Wine) stretches every step before the drain
    // (it failed at 8.2 s against 7.5 s under Wine in CI); what is proven is bounded against not.
    let bound = DRAIN * 3;
    assert!(bound < redline_core::net::limits::PEER_SEND);
    tokio::time::timeout(bound, stop)
        .await
        .expect("A's stop outlived the drain bound")
        .unwrap()
        .unwrap();
    let took = began.elapsed();
    assert!(took < bound, "A's stop took {took:?}");
    eprintln!("A's stop took {took:?} (drain bound {DRAIN:?})");
    drop(peer_a);
}

/// "Changed on disk?" is asked from the UI thread: it reads as the original was read, so a FIFO,
/// a huge file or a deleted one answers at once instead of blocking or filling memory.
#[tokio::test]
async fn the_disk_check_never_blocks_on_what_replaced_the_file() {
    let f = start().await;
    let mut client = f.client();
    client.connect("2025-06-18").await;
    let id = f.propose(&mut client, "a.txt", "new\n").await;
    let file = f.ws.join("a.txt");
    let changed = |instance: std::sync::Arc<redline_core::runtime::instance::Instance>| {
        // A thread of its own: the old check blocked for ever on a FIFO.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(instance.reviews().disk_changed(id)));
        rx.recv_timeout(WAIT)
            .expect("the disk check blocked")
            .unwrap()
    };
    assert!(!changed(f.instance.clone()), "unchanged");
    std::fs::write(&file, "edited\n").unwrap();
    assert!(changed(f.instance.clone()), "edited");
    std::fs::write(&file, "one\ntwo\n").unwrap();
    assert!(!changed(f.instance.clone()), "as it was");
    std::fs::remove_file(&file).unwrap();
    assert!(changed(f.instance.clone()), "deleted");
    // FIFOs are Unix's; Windows has no named pipe in the file system.
    #[cfg(unix)]
    {
        let c = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(changed(f.instance.clone()), "a FIFO");
        std::fs::remove_file(&file).unwrap();
    }
    std::fs::File::create(&file)
        .unwrap()
        .set_len(redline_core::review::original::MAX_ORIGINAL_BYTES + 1)
        .unwrap();
    assert!(changed(f.instance.clone()), "too big to be the original");
}

/// What shows the workspaces (the tray's menu) hears of every change, whichever surface made it,
/// and of nothing else.
#[tokio::test]
async fn every_change_to_the_workspaces_is_heard_and_a_look_is_not() {
    let fx = start().await;
    let mut changes = fx.instance.workspaces().changes();
    changes.borrow_and_update();
    fn heard(changes: &mut tokio::sync::watch::Receiver<()>, what: &str) {
        let changed = changes.has_changed().unwrap();
        changes.borrow_and_update();
        assert!(changed, "{what} was not heard");
    }

    let second = fx.tmp.path().join("second");
    std::fs::create_dir_all(&second).unwrap();
    let second = fx.instance.workspaces().add(&second, false).await.unwrap();
    heard(&mut changes, "an added workspace");
    fx.instance.status().await;
    assert!(
        !changes.has_changed().unwrap(),
        "a status alone was heard as a change"
    );

    fx.instance
        .workspaces()
        .rotate_token(&second)
        .await
        .unwrap();
    heard(&mut changes, "a rotated token");
    fx.instance
        .workspaces()
        .set_enabled(&second, false)
        .await
        .unwrap();
    heard(&mut changes, "a workspace turned off");
    fx.instance
        .workspaces()
        .set_enabled(&second, true)
        .await
        .unwrap();
    heard(&mut changes, "a workspace turned on");

    // Its folder goes: the next look stops it, and that is a change.
    std::fs::remove_dir_all(&second).unwrap();
    fx.instance.status().await;
    heard(&mut changes, "a workspace whose folder went");
    fx.instance.workspaces().remove(&second).await.unwrap();
    heard(&mut changes, "a removed workspace");
}
