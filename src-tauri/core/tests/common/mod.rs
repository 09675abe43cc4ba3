//! A companion started on real sockets in temp dirs, one client per protocol to drive it
//! (`mcp` over HTTP, `claude` over the WebSocket), and raw requests for what no client sends.
#![allow(dead_code)]

pub mod claude;
pub mod mcp;
pub mod tool;
pub use mcp::Mcp;

use redline_core::platform::dirs::Dirs;
use redline_core::runtime::instance::{Instance, World};
use serde_json::json;
use std::path::PathBuf;
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
    Dirs::under(root)
}

/// An instance with one enabled workspace holding `a.txt`.
pub async fn start() -> Fixture {
    start_with(redline_core::net::limits::Limits::default()).await
}

/// As `start`, with other server limits.
pub async fn start_with(limits: redline_core::net::limits::Limits) -> Fixture {
    start_full(
        limits,
        Arc::new(redline_core::workspace::container::OsInterfaces),
    )
    .await
}

/// As `start`, with the host's network interfaces as given.
pub async fn start_on(
    interfaces: Arc<dyn redline_core::workspace::container::Interfaces>,
) -> Fixture {
    start_full(redline_core::net::limits::Limits::default(), interfaces).await
}

async fn start_full(
    limits: redline_core::net::limits::Limits,
    interfaces: Arc<dyn redline_core::workspace::container::Interfaces>,
) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let ws = root.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("a.txt"), "one\ntwo\n").unwrap();
    let dirs = dirs_in(&root);
    let instance = Instance::start_with_limits(
        World {
            interfaces,
            ..World::isolated(dirs.clone())
        },
        limits,
    )
    .await
    .unwrap();
    instance.workspaces().add(&ws, false).await.unwrap();
    let pin = instance.workspaces().pin(&ws).await.unwrap();
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
    /// Another Redline over the same directories (the first one shut down or crashed), seeing
    /// the host's network interfaces as given.
    pub async fn restart(
        &self,
        interfaces: Arc<dyn redline_core::workspace::container::Interfaces>,
    ) -> Arc<Instance> {
        Instance::start(World {
            interfaces,
            ..World::isolated(self.dirs.clone())
        })
        .await
        .unwrap()
    }

    pub fn client(&self) -> Mcp {
        Mcp::new(
            reqwest::Client::new(),
            format!("http://127.0.0.1:{}/mcp", self.port),
            self.token.clone(),
        )
    }

    /// A client with a live session, as the CLIs open one (revision 2025-06-18).
    pub async fn session(&self) -> Mcp {
        let mut c = self.client();
        c.connect("2025-06-18").await;
        c
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
            .reviews()
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

/// The upgrades the WebSocket guard refuses for the token (401), to `Host: host` (a header line
/// ending in CRLF): none, a wrong one, a prefix of `token`.
pub fn token_refusals(host: &str, token: &str) -> Vec<(&'static str, String, u16)> {
    let auth = |t: &str| format!("{host}x-claude-code-ide-authorization: {t}\r\n");
    vec![
        ("no token", host.to_owned(), 401),
        ("wrong token", auth(&"0".repeat(64)), 401),
        ("token prefix", auth(&token[..63]), 401),
    ]
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

/// Polls `cond` until it holds or the deadline passes.
pub async fn eventually<F, Fut>(what: &str, mut cond: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + WAIT;
    while !cond().await {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
