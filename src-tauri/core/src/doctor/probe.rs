//! The end-to-end check: connect to the server a discovery file names, with its token, as the
//! CLI would (MCP `initialize` over HTTP on a port or a unix socket, or a WebSocket upgrade then
//! `initialize`; Amp's upgrade then its ping).

mod amp;
mod http;
mod ws;

pub use amp::amp_ping;
pub use http::{http_initialize, Endpoint};
pub use ws::ws_initialize;

use serde::Serialize;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;

const TIMEOUT: Duration = Duration::from_secs(5);
/// The MCP version the probe speaks.
const PROTOCOL: &str = "2025-06-18";
/// An answer to `initialize` is small; anything beyond this is not a companion.
const MAX_ANSWER: usize = 256 * 1024;

/// What the server said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Probe {
    /// It answered `initialize`; `server` is its `serverInfo.name`.
    Answered { server: String, version: String },
    /// It refused the token.
    TokenRefused { status: u16 },
    /// Nothing listens, or it did not answer in time.
    Unreachable { error: String },
    /// It answered, but not as an MCP companion would.
    Unexpected { detail: String },
}

fn initialize() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "redline-doctor", "version": env!("CARGO_PKG_VERSION")}
        }
    })
}

fn no_answer() -> Probe {
    Probe::Unreachable {
        error: "no answer within 5 s".into(),
    }
}

async fn connect(port: u16) -> Result<TcpStream, Probe> {
    TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| Probe::Unreachable {
            error: e.to_string(),
        })
}

/// The JSON-RPC message in a body that is JSON or an SSE stream of `data:` lines.
fn message(body: &[u8]) -> Option<Value> {
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        return Some(v);
    }
    std::str::from_utf8(body)
        .ok()?
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| v.get("id").is_some())
}

fn answered(msg: Option<Value>) -> Probe {
    let info = msg.as_ref().and_then(|m| m.pointer("/result/serverInfo"));
    match info {
        Some(info) => Probe::Answered {
            server: info["name"].as_str().unwrap_or_default().to_owned(),
            version: info["version"].as_str().unwrap_or_default().to_owned(),
        },
        None => Probe::Unexpected {
            detail: match msg.and_then(|m| m.pointer("/error/message").cloned()) {
                Some(e) => format!("initialize failed: {e}"),
                None => "no answer to initialize".into(),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A server on loopback that answers every connection with `reply`, then closes it.
    async fn answering(reply: impl Into<Vec<u8>>) -> u16 {
        let reply = reply.into();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut s, _)) = listener.accept().await {
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf).await;
                let _ = s.write_all(&reply).await;
            }
        });
        port
    }

    const SSE: &str = concat!(
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,",
        "\"result\":{\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}\n\n"
    );

    #[tokio::test]
    async fn what_is_not_a_companion_is_named() {
        let port = answering(&b"SSH-2.0-OpenSSH_9.6\r\n"[..]).await;
        let not_http = Probe::Unexpected {
            detail: "not an HTTP answer".into(),
        };
        assert_eq!(http_initialize(&Endpoint::Port(port), "t").await, not_http);
        // An SSE answer in two chunks.
        let (a, b) = SSE.split_at(20);
        let chunked = answering(format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\
             transfer-encoding: chunked\r\n\r\n{:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n",
            a.len(),
            b.len()
        ))
        .await;
        let answered = Probe::Answered {
            server: "x".into(),
            version: "1".into(),
        };
        assert_eq!(
            http_initialize(&Endpoint::Port(chunked), "t").await,
            answered
        );
        let refused =
            answering(&b"HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n"[..]).await;
        assert_eq!(
            http_initialize(&Endpoint::Port(refused), "t").await,
            Probe::TokenRefused { status: 401 }
        );
        assert_eq!(
            ws_initialize(refused, "t").await,
            Probe::TokenRefused { status: 401 }
        );
        let too_big = answering(format!(
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n{}",
            MAX_ANSWER + 1,
            "x".repeat(MAX_ANSWER + 1)
        ))
        .await;
        assert!(matches!(
            http_initialize(&Endpoint::Port(too_big), "t").await,
            Probe::Unexpected { .. }
        ));
        // Nothing listens on a port just freed.
        let dead = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let dead_port = dead.local_addr().unwrap().port();
        drop(dead);
        for p in [
            http_initialize(&Endpoint::Port(dead_port), "t").await,
            ws_initialize(dead_port, "t").await,
        ] {
            assert!(matches!(p, Probe::Unreachable { .. }), "{p:?}");
        }
    }

    #[test]
    fn an_sse_answer_is_read() {
        assert_eq!(
            answered(message(SSE.as_bytes())),
            Probe::Answered {
                server: "x".into(),
                version: "1".into()
            }
        );
    }
}
