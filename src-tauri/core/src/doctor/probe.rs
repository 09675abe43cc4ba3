//! The end-to-end check: connect to the server a discovery file names, with its token, as the
//! CLI would (MCP `initialize` over HTTP on a port or a unix socket, or a WebSocket upgrade then
//! `initialize`).

use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::rt::TokioIo;
use serde::Serialize;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest, http::HeaderValue, Message};

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

/// Where an HTTP server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    Port(u16),
    /// A unix socket (Copilot CLI's transport), reached as `http://localhost`.
    Socket(std::path::PathBuf),
}

impl Endpoint {
    fn host(&self) -> String {
        match self {
            Endpoint::Port(port) => format!("127.0.0.1:{port}"),
            Endpoint::Socket(_) => "localhost".into(),
        }
    }
}

async fn connect(port: u16) -> Result<TcpStream, Probe> {
    TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| Probe::Unreachable {
            error: e.to_string(),
        })
}

/// A failed HTTP exchange: an answer that is not HTTP is `Unexpected`, the rest `Unreachable`.
fn http_fault(e: hyper::Error) -> Probe {
    if e.is_parse() || e.is_incomplete_message() {
        Probe::Unexpected {
            detail: "not an HTTP answer".into(),
        }
    } else {
        Probe::Unreachable {
            error: e.to_string(),
        }
    }
}

/// What a server answered: status, session header, body (at most `MAX_ANSWER` bytes).
struct Answer {
    status: StatusCode,
    session: Option<String>,
    body: Bytes,
}

/// One request on a fresh connection, with the token, within the timeout.
async fn http(
    at: &Endpoint,
    method: Method,
    token: &str,
    session: Option<&str>,
    body: String,
) -> Result<Answer, Probe> {
    let mut req = Request::builder()
        .method(method)
        .uri("/mcp")
        .header(http::header::HOST, at.host())
        .header(http::header::AUTHORIZATION, format!("Bearer {token}"))
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json, text/event-stream");
    if let Some(id) = session {
        req = req
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", PROTOCOL);
    }
    let req = req
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| Probe::Unexpected {
            detail: format!("cannot build the request: {e}"),
        })?;
    let exchange = async {
        match at {
            Endpoint::Port(port) => send(connect(*port).await?, req).await,
            #[cfg(unix)]
            Endpoint::Socket(path) => {
                let stream = tokio::net::UnixStream::connect(path).await.map_err(|e| {
                    Probe::Unreachable {
                        error: e.to_string(),
                    }
                })?;
                send(stream, req).await
            }
            #[cfg(not(unix))]
            Endpoint::Socket(_) => Err(Probe::Unreachable {
                error: "unix sockets are not served on this system".into(),
            }),
        }
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| Err(no_answer()))
}

/// Sends `req` on a fresh connection and reads the answer.
async fn send<S>(stream: S, req: Request<Full<Bytes>>) -> Result<Answer, Probe>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    {
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(http_fault)?;
        // Drives the connection; dropped (so aborted) with the exchange.
        let mut driver = tokio::task::JoinSet::new();
        driver.spawn(conn);
        let resp = sender.send_request(req).await.map_err(http_fault)?;
        let status = resp.status();
        let session = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = Limited::new(resp.into_body(), MAX_ANSWER)
            .collect()
            .await
            .map_err(|e| Probe::Unexpected {
                detail: format!("the answer could not be read: {e}"),
            })?
            .to_bytes();
        Ok(Answer {
            status,
            session,
            body,
        })
    }
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

/// `initialize` over Streamable HTTP with the token, then the session is ended (DELETE).
pub async fn http_initialize(at: &Endpoint, token: &str) -> Probe {
    let resp = match http(at, Method::POST, token, None, initialize().to_string()).await {
        Ok(r) => r,
        Err(p) => return p,
    };
    if matches!(
        resp.status,
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
    ) {
        return Probe::TokenRefused {
            status: resp.status.as_u16(),
        };
    }
    if resp.status != StatusCode::OK {
        return Probe::Unexpected {
            detail: format!("HTTP {} to initialize", resp.status.as_u16()),
        };
    }
    if let Some(session) = resp.session.as_deref() {
        // Finish the handshake as a CLI would, then end the session: a session left half-open
        // would show up as a connected CLI until Redline reaps it.
        let done = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let _ = http(at, Method::POST, token, Some(session), done.into()).await;
        let _ = http(at, Method::DELETE, token, Some(session), String::new()).await;
    }
    answered(message(&resp.body))
}

/// A WebSocket upgrade with subprotocol `mcp` and Claude Code's auth header, then `initialize`.
pub async fn ws_initialize(port: u16, token: &str) -> Probe {
    tokio::time::timeout(TIMEOUT, ws_exchange(port, token))
        .await
        .unwrap_or_else(|_| no_answer())
}

async fn ws_exchange(port: u16, token: &str) -> Probe {
    let mut req = match format!("ws://127.0.0.1:{port}/").into_client_request() {
        Ok(r) => r,
        Err(e) => {
            return Probe::Unexpected {
                detail: e.to_string(),
            }
        }
    };
    let Ok(auth) = HeaderValue::from_str(token) else {
        return Probe::Unexpected {
            detail: "the token cannot be sent in a header".into(),
        };
    };
    req.headers_mut()
        .insert("Sec-WebSocket-Protocol", HeaderValue::from_static("mcp"));
    req.headers_mut()
        .insert("X-Claude-Code-Ide-Authorization", auth);
    let stream = match connect(port).await {
        Ok(s) => s,
        Err(p) => return p,
    };
    let config = tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_ANSWER))
        .max_frame_size(Some(MAX_ANSWER));
    let mut ws = match tokio_tungstenite::client_async_with_config(req, stream, Some(config)).await
    {
        Ok((ws, resp))
            if resp
                .headers()
                .get("sec-websocket-protocol")
                .is_some_and(|p| p == "mcp") =>
        {
            ws
        }
        Ok(_)
        | Err(tungstenite::Error::Protocol(
            tungstenite::error::ProtocolError::SecWebSocketSubProtocolError(_),
        )) => {
            return Probe::Unexpected {
                detail: "the upgrade did not choose the subprotocol mcp".into(),
            }
        }
        Err(tungstenite::Error::Http(resp)) => {
            let status = resp.status().as_u16();
            return match status {
                401 | 403 => Probe::TokenRefused { status },
                _ => Probe::Unexpected {
                    detail: format!("HTTP {status} to the WebSocket upgrade"),
                },
            };
        }
        Err(tungstenite::Error::Io(e)) => {
            return Probe::Unreachable {
                error: e.to_string(),
            }
        }
        Err(_) => {
            return Probe::Unexpected {
                detail: "no answer to the WebSocket upgrade".into(),
            }
        }
    };
    if let Err(e) = ws.send(Message::text(initialize().to_string())).await {
        return Probe::Unreachable {
            error: e.to_string(),
        };
    }
    while let Some(frame) = ws.next().await {
        match frame {
            Ok(Message::Text(t)) => {
                let v = serde_json::from_str::<Value>(&t).ok();
                if v.as_ref().and_then(|v| v.get("id")) == Some(&json!(1)) {
                    let _ = ws.close(None).await;
                    return answered(v);
                }
            }
            Ok(Message::Close(_)) => {
                return Probe::Unexpected {
                    detail: "the server closed the WebSocket".into(),
                }
            }
            Ok(_) => {}
            Err(e) => {
                return Probe::Unexpected {
                    detail: format!("the WebSocket failed: {e}"),
                }
            }
        }
    }
    Probe::Unexpected {
        detail: "the server closed the connection".into(),
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
