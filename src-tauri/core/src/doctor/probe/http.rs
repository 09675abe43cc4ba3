//! The probe over Streamable HTTP, on a port or a unix socket.

use super::{
    answered, connect, initialize, message, no_answer, Probe, MAX_ANSWER, PROTOCOL, TIMEOUT,
};
use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::rt::TokioIo;

/// Where an HTTP server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    Port(u16),
    /// A unix socket (Copilot CLI's transport; a named pipe on Windows), reached as
    /// `http://localhost`.
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
            // On Windows Copilot CLI's "socket" is a named pipe (`\\.\pipe\…`), opened as its
            // client opens it; the HTTP on it is the same.
            #[cfg(windows)]
            Endpoint::Socket(path) => {
                let pipe = tokio::net::windows::named_pipe::ClientOptions::new()
                    .open(path)
                    .map_err(|e| Probe::Unreachable {
                        error: e.to_string(),
                    })?;
                send(pipe, req).await
            }
            #[cfg(not(any(unix, windows)))]
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
