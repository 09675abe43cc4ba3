//! A companion started on real sockets in temp dirs, and a small MCP client to drive it.
#![allow(dead_code)]

pub mod claude;

use bytes::Bytes;
use futures::StreamExt;
use redline_core::clock::SystemClock;
use redline_core::dirs::Dirs;
use redline_core::instance::{Instance, World};
use redline_core::keyring::Tokens;
use redline_core::process::OsProcessTable;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub const WAIT: Duration = Duration::from_secs(10);

pub struct Fixture {
    pub instance: Arc<Instance>,
    pub dirs: Dirs,
    pub ws: PathBuf,
    pub port: u16,
    /// Claude Code's WebSocket port.
    pub ws_port: u16,
    pub token: String,
    pub tmp: tempfile::TempDir,
}

pub fn dirs_in(root: &std::path::Path) -> Dirs {
    Dirs {
        config: root.join("config"),
        runtime: root.join("run"),
        gemini: root.join("tmp/gemini/ide"),
        qwen: root.join("home/.qwen/ide"),
        claude: root.join("home/.claude/ide"),
    }
}

/// An instance with one enabled workspace holding `a.txt`.
pub async fn start() -> Fixture {
    start_with(redline_core::limits::Limits::default()).await
}

/// As `start`, with other server limits.
pub async fn start_with(limits: redline_core::limits::Limits) -> Fixture {
    start_full(limits, Arc::new(redline_core::container::OsInterfaces)).await
}

/// As `start`, with the host's network interfaces as given.
pub async fn start_on(interfaces: Arc<dyn redline_core::container::Interfaces>) -> Fixture {
    start_full(redline_core::limits::Limits::default(), interfaces).await
}

async fn start_full(
    limits: redline_core::limits::Limits,
    interfaces: Arc<dyn redline_core::container::Interfaces>,
) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let ws = root.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("a.txt"), "one\ntwo\n").unwrap();
    let dirs = dirs_in(&root);
    let instance = Instance::start_with_limits(
        World {
            dirs: dirs.clone(),
            pid: std::process::id(),
            procs: Arc::new(OsProcessTable),
            clock: Arc::new(SystemClock),
            tokens: Tokens::memory("test".into()),
            interfaces,
        },
        limits,
    )
    .await
    .unwrap();
    instance.add_workspace(&ws).await.unwrap();
    let pin = instance.pin(&ws).await.unwrap();
    Fixture {
        instance,
        dirs,
        ws,
        port: pin.port,
        ws_port: pin.ws_port.expect("a Claude Code port"),
        token: pin.auth_token,
        tmp,
    }
}

impl Fixture {
    pub fn client(&self) -> Mcp {
        Mcp {
            http: reqwest::Client::new(),
            url: format!("http://127.0.0.1:{}/mcp", self.port),
            token: self.token.clone(),
            session: None,
            version: None,
            next_id: 1,
        }
    }

    /// Proposes `content` for the workspace file `name` from `client`; returns the review's id.
    pub async fn propose(&self, client: &mut Mcp, name: &str, content: &str) -> u64 {
        let path = self.file(name);
        let r = client
            .call("openDiff", json!({"filePath": path, "newContent": content}))
            .await;
        assert_eq!(r["result"], json!({"content": []}), "{r}");
        let review = self
            .instance
            .list()
            .into_iter()
            .rev()
            .find(|r| r.file_path == path);
        review.expect("the review is queued").id
    }

    pub fn file(&self, name: &str) -> String {
        self.ws.join(name).to_string_lossy().into_owned()
    }
}

/// An `initialize` as the HTTP CLIs send it.
pub const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// A raw `POST /mcp` with these header lines (no CRLF) on top of the usual ones, and `body`.
pub fn raw_post(headers: &[String], body: &str) -> String {
    let mut r = format!("POST /mcp HTTP/1.1\r\nconnection: close\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\n", body.len());
    for h in headers {
        r.push_str(h);
        r.push_str("\r\n");
    }
    r.push_str("\r\n");
    r.push_str(body);
    r
}

/// A raw WebSocket upgrade of `/` asking for `mcp`, with `extra` header lines (each ending in
/// CRLF).
pub fn raw_upgrade(extra: &str) -> String {
    format!(
        "GET / HTTP/1.1\r\nconnection: Upgrade, close\r\nupgrade: websocket\r\n\
         sec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         sec-websocket-protocol: mcp\r\n{extra}\r\n",
    )
}

/// True if nothing listens on `addr:port`.
pub async fn refused(addr: &str, port: u16) -> bool {
    matches!(
        tokio::net::TcpStream::connect((addr, port)).await,
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused
    )
}

/// Sends raw bytes and returns the status code and body: full control over every header.
pub async fn raw(port: u16, request: &str) -> (u16, String) {
    raw_at("127.0.0.1", port, request).await
}

/// The same, to another address of this host.
pub async fn raw_at(addr: &str, port: u16, request: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect((addr, port)).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

pub struct Mcp {
    pub http: reqwest::Client,
    pub url: String,
    pub token: String,
    pub session: Option<String>,
    /// Sent as `mcp-protocol-version` once negotiated, as the SDK clients do.
    pub version: Option<String>,
    next_id: u64,
}

/// The JSON-RPC messages in a POST response, SSE or JSON.
pub async fn messages(resp: reqwest::Response) -> Vec<Value> {
    let is_sse = resp
        .headers()
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    let text = resp.text().await.unwrap();
    if is_sse {
        text.split("\n\n")
            .filter_map(|ev| {
                let data: String = ev
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                (!data.is_empty()).then(|| serde_json::from_str(&data).unwrap())
            })
            .collect()
    } else if text.trim().is_empty() {
        vec![]
    } else {
        vec![serde_json::from_str(&text).unwrap()]
    }
}

impl Mcp {
    pub fn new(http: reqwest::Client, url: String, token: String) -> Mcp {
        Mcp {
            http,
            url,
            token,
            session: None,
            version: None,
            next_id: 1,
        }
    }

    pub fn request(&self, method: reqwest::Method) -> reqwest::RequestBuilder {
        let mut b = self
            .http
            .request(method, &self.url)
            .bearer_auth(&self.token)
            .header("accept", "application/json, text/event-stream");
        if let Some(v) = &self.version {
            b = b.header("mcp-protocol-version", v);
        }
        if let Some(s) = &self.session {
            b = b.header("mcp-session-id", s);
        }
        b
    }

    pub async fn post(&self, body: Value) -> reqwest::Response {
        self.request(reqwest::Method::POST)
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    /// initialize + notifications/initialized, as the CLIs do.
    pub async fn connect(&mut self, version: &str) -> Value {
        let resp = self
            .post(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": version, "capabilities": {},
                "clientInfo": {"name": "test-cli", "version": "9.9.9"}}}),
            )
            .await;
        assert_eq!(resp.status(), 200);
        self.session = resp
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_owned());
        let init = messages(resp).await.remove(0);
        self.version = init["result"]["protocolVersion"]
            .as_str()
            .map(str::to_owned);
        let resp = self
            .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        assert_eq!(resp.status(), 202, "the GET stream opens only after a 202");
        init
    }

    pub async fn rpc(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let resp = self
            .post(json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
            .await;
        assert_eq!(resp.status(), 200);
        messages(resp).await.pop().unwrap()
    }

    pub async fn call(&mut self, tool: &str, args: Value) -> Value {
        self.rpc("tools/call", json!({"name": tool, "arguments": args}))
            .await
    }

    pub async fn stream(&self) -> Sse {
        let resp = self.request(reqwest::Method::GET).send().await.unwrap();
        assert_eq!(resp.status(), 200);
        Sse::new(resp)
    }
}

type ByteStream = Pin<Box<dyn futures::Stream<Item = reqwest::Result<Bytes>> + Send>>;

pub struct Sse {
    inner: ByteStream,
    buf: String,
}

impl Sse {
    pub fn new(resp: reqwest::Response) -> Self {
        Sse {
            inner: Box::pin(resp.bytes_stream()),
            buf: String::new(),
        }
    }

    /// The next raw SSE block (comments included), or None when the stream ends.
    pub async fn next_block(&mut self, wait: Duration) -> Option<String> {
        loop {
            if let Some(i) = self.buf.find("\n\n") {
                let block = self.buf[..i].to_owned();
                self.buf.drain(..i + 2);
                return Some(block);
            }
            let chunk = tokio::time::timeout(wait, self.inner.next())
                .await
                .expect("timed out waiting for the stream")?;
            self.buf
                .push_str(std::str::from_utf8(&chunk.ok()?).unwrap());
        }
    }

    /// The next JSON-RPC message, skipping keep-alive comments.
    pub async fn next_message(&mut self) -> Option<Value> {
        loop {
            let block = self.next_block(WAIT).await?;
            let data: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            if !data.is_empty() {
                return Some(serde_json::from_str(&data).unwrap());
            }
        }
    }

    /// The next message that is not a context update.
    pub async fn next_decision(&mut self) -> Option<Value> {
        loop {
            let m = self.next_message().await?;
            if m["method"] != "ide/contextUpdate" {
                return Some(m);
            }
        }
    }
}
