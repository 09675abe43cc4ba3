//! The one Claude Code test client: MCP (JSON-RPC 2.0) over the companion's WebSocket, answers
//! kept by id.

use super::{Fixture, WAIT};
use futures::{SinkExt, StreamExt};
use redline_core::review::ReviewEvent;
use serde_json::{json, Value};
use std::collections::VecDeque;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Upgrades as Claude Code does: to `addr`, with `Host: <host>:<port>`, the token and the `mcp`
/// subprotocol; the server must pick `mcp`.
pub async fn upgrade_at(
    addr: &str,
    host: &str,
    port: u16,
    token: &str,
) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let mut req = format!("ws://{host}:{port}").into_client_request()?;
    let h = req.headers_mut();
    h.insert(
        "X-Claude-Code-Ide-Authorization",
        HeaderValue::from_str(token).expect("a token is a header value"),
    );
    h.insert("Sec-WebSocket-Protocol", HeaderValue::from_static("mcp"));
    let stream = TcpStream::connect((addr, port)).await?;
    let (ws, resp) = tokio_tungstenite::client_async(req, MaybeTlsStream::Plain(stream)).await?;
    assert_eq!(resp.headers()["sec-websocket-protocol"], "mcp");
    Ok(ws)
}

/// Upgrades on the fixture's loopback port with `token`.
pub async fn upgrade(f: &Fixture, token: &str) -> Socket {
    upgrade_at("127.0.0.1", "127.0.0.1", f.ws_port, token)
        .await
        .expect("the upgrade")
}

pub struct Claude {
    pub ws: Socket,
    next_id: u64,
    /// Messages read while waiting for another one.
    inbox: VecDeque<Value>,
}

impl Claude {
    /// A client on an upgraded socket that has not said hello yet.
    pub fn over(ws: Socket) -> Claude {
        Claude {
            ws,
            next_id: 0,
            inbox: VecDeque::new(),
        }
    }

    /// Connects to the fixture and says hello as Claude Code does.
    pub async fn connect(f: &Fixture) -> Claude {
        let mut c = Claude::over(upgrade(f, &f.token).await);
        c.hello().await;
        c
    }

    /// initialize, notifications/initialized and ide_connected, as Claude Code sends them.
    pub async fn hello(&mut self) -> Value {
        let init = self
            .rpc(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "claude-code", "version": "2.1.330"}}),
            )
            .await;
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        self.send(json!({"jsonrpc": "2.0", "method": "ide_connected", "params": {"pid": 1}}))
            .await;
        init
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).await.unwrap();
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// The next JSON message, or None when the server closed the connection.
    pub async fn next(&mut self) -> Option<Value> {
        if let Some(v) = self.inbox.pop_front() {
            return Some(v);
        }
        self.read().await
    }

    /// The next text frame as sent, byte for byte, or None when the server closed.
    pub async fn next_text(&mut self) -> Option<String> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("timed out waiting for the server");
            match frame {
                Some(Ok(Message::Text(t))) => return Some(t.as_str().to_owned()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    pub async fn read(&mut self) -> Option<Value> {
        let t = self.next_text().await?;
        Some(serde_json::from_str(&t).unwrap())
    }

    /// Sends a request; returns its id.
    pub async fn request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    /// The response to request `id`, keeping others for later.
    pub async fn response(&mut self, id: u64) -> Value {
        if let Some(i) = self.inbox.iter().position(|m| m["id"] == id) {
            return self.inbox.remove(i).unwrap();
        }
        loop {
            let m = self
                .read()
                .await
                .expect("connection closed before the answer");
            if m["id"] == id {
                return m;
            }
            self.inbox.push_back(m);
        }
    }

    pub async fn rpc(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params).await;
        self.response(id).await
    }

    pub async fn call(&mut self, tool: &str, args: Value) -> Value {
        self.rpc("tools/call", json!({"name": tool, "arguments": args}))
            .await
    }

    /// Starts a blocking openDiff of `name`; returns the request id once the review is queued.
    pub async fn open_diff(
        &mut self,
        f: &Fixture,
        name: &str,
        content: &str,
        tab: &str,
    ) -> (u64, u64) {
        let mut events = f.instance.reviews().queue().subscribe();
        let path = f.file(name);
        let id = self
            .request(
                "tools/call",
                json!({"name": "openDiff", "arguments": {
                "old_file_path": path, "new_file_path": path,
                "new_file_contents": content, "tab_name": tab}}),
            )
            .await;
        let review = loop {
            match tokio::time::timeout(WAIT, events.recv())
                .await
                .unwrap()
                .unwrap()
            {
                ReviewEvent::Added(r) | ReviewEvent::Updated(r) if r.file_path == path => {
                    break r.id
                }
                _ => continue,
            }
        };
        (id, review)
    }
}
