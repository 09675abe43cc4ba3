//! Amp's WebSocket server over real sockets: the lock Amp finds it by, the token in the URL
//! (a wrong one closed as Amp reads it), the requests Amp makes and the editor's selection and
//! visible files in Amp's own messages.

use crate::common::{raw, start, Fixture, WAIT};
use futures::{SinkExt, StreamExt};
use redline_core::clients::AMP;
use redline_core::review::editor::Message as EditorMessage;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The workspace's Amp lock: its path and body.
fn lock(f: &Fixture) -> (std::path::PathBuf, Value) {
    let dir = f.dirs.discovery(&AMP);
    let entry = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .expect("an Amp lock");
    let body = serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
    (entry.path(), body)
}

async fn connect(port: u64, token: &str) -> Ws {
    let url = format!("ws://127.0.0.1:{port}/?auth={token}");
    let (ws, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url))
        .await
        .expect("upgrade in time")
        .expect("upgraded");
    ws
}

/// The next text frame, as JSON; `None` once closed (with the close frame's reason).
async fn next(ws: &mut Ws) -> Result<Value, String> {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a frame in time");
        match frame {
            Some(Ok(Message::Text(t))) => return Ok(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Close(c))) => {
                return Err(c.map(|c| c.reason.to_string()).unwrap_or_default())
            }
            Some(Ok(_)) => continue,
            other => return Err(format!("{other:?}")),
        }
    }
}

/// The next notification named `name`, skipping the others.
async fn notified(ws: &mut Ws, name: &str) -> Value {
    loop {
        let v = next(ws).await.expect("open");
        if let Some(p) = v["serverNotification"].get(name) {
            return p.clone();
        }
    }
}

#[tokio::test]
async fn amp_finds_the_server_by_its_lock_and_follows_the_editor() {
    let f = start().await;
    let (path, body) = lock(&f);
    let port = body["port"].as_u64().unwrap();
    assert_eq!(path.file_name().unwrap(), format!("{port}.json").as_str());
    assert_eq!(body["workspaceFolders"], json!([f.ws]));
    assert_eq!(body["ideName"], "Redline");
    assert_eq!(body["authToken"], f.token);
    assert_eq!(body["pid"], std::process::id());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    let mut ws = connect(port, &f.token).await;
    let meta = notified(&mut ws, "pluginMetadata").await;
    assert_eq!(meta["ideName"], "redline");
    ws.send(Message::text(
        json!({"clientRequest": {"id": "1", "ping": {"message": "beepboop"}}}).to_string(),
    ))
    .await
    .unwrap();
    assert_eq!(
        next(&mut ws).await.unwrap(),
        json!({"serverResponse": {"id": "1", "ping": {"message": "beepboop"}}})
    );

    // The editor selects "ne\ntw" in a.txt: Amp gets the file and the range, 0-based.
    std::fs::write(f.ws.join("b.txt"), "b\n").unwrap();
    let said = EditorMessage::parse(
        &json!({"type": "context", "files": [
            {"path": f.file("b.txt")},
            {"path": f.file("a.txt"), "active": true,
             "selection": {"start": {"line": 1, "col": 2}, "end": {"line": 2, "col": 3}, "text": "ne\ntw"}},
        ]})
        .to_string(),
    )
    .unwrap();
    f.instance.editor_message(None, said).await.unwrap();
    let a = url::Url::from_file_path(f.ws.join("a.txt"))
        .unwrap()
        .to_string();
    let sel = notified(&mut ws, "selectionDidChange").await;
    assert_eq!(sel["uri"], a, "{sel}");
    assert_eq!(
        sel["selections"],
        json!([{"range": {"startLine": 0, "startCharacter": 1, "endLine": 1, "endCharacter": 2},
                "content": "ne\ntw"}])
    );
    let visible = notified(&mut ws, "visibleFilesDidChange").await;
    assert_eq!(visible["uris"][0], a, "the active file first: {visible}");

    // A connection that opens later is told what the editor said, at once.
    let mut late = connect(port, &f.token).await;
    let sel = notified(&mut late, "selectionDidChange").await;
    assert_eq!(sel["selections"][0]["content"], "ne\ntw");
}

#[tokio::test]
async fn a_wrong_token_is_closed_as_amp_reads_it_and_a_browser_is_refused() {
    let f = start().await;
    let port = lock(&f).1["port"].as_u64().unwrap();
    for token in ["", "0", &f.token[..f.token.len() - 1]] {
        let mut ws = connect(port, token).await;
        assert_eq!(
            next(&mut ws).await,
            Err("Authentication failed".into()),
            "token {token:?}"
        );
    }
    // The token twice: refused too, whichever comes first.
    let url = format!("ws://127.0.0.1:{port}/?auth={}&auth=x", f.token);
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    assert_eq!(next(&mut ws).await, Err("Authentication failed".into()));

    let upgrade = |extra: &str| {
        format!(
            "GET /?auth={} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nconnection: Upgrade, close\r\n\
             upgrade: websocket\r\nsec-websocket-version: 13\r\n\
             sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n",
            f.token
        )
    };
    let (status, body) = raw(port as u16, &upgrade("origin: http://evil.example\r\n")).await;
    assert_eq!((status, body.as_str()), (403, ""));
    let evil_host = upgrade("").replace(&format!("127.0.0.1:{port}"), "evil.example");
    assert_eq!(raw(port as u16, &evil_host).await.0, 403);
}

#[tokio::test]
async fn a_rotated_token_closes_amps_connections_and_the_lock_carries_the_new_one() {
    let f = start().await;
    let port = lock(&f).1["port"].as_u64().unwrap();
    let mut ws = connect(port, &f.token).await;
    notified(&mut ws, "pluginMetadata").await;
    f.instance.workspaces().rotate_token(&f.ws).await.unwrap();
    loop {
        if next(&mut ws).await.is_err() {
            break;
        }
    }
    let fresh = lock(&f).1["authToken"].as_str().unwrap().to_owned();
    assert_ne!(fresh, f.token);
    let mut ws = connect(port, &fresh).await;
    notified(&mut ws, "pluginMetadata").await;
}
