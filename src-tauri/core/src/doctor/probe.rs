//! The end-to-end check: connect to the server a discovery file names, with its token, as the
//! CLI would (MCP `initialize` over HTTP, or a WebSocket upgrade then `initialize`).

use serde::Serialize;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TIMEOUT: Duration = Duration::from_secs(5);
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
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "redline-doctor", "version": env!("CARGO_PKG_VERSION")}
        }
    })
}

async fn connect(port: u16) -> Result<TcpStream, Probe> {
    match tokio::time::timeout(TIMEOUT, TcpStream::connect(("127.0.0.1", port))).await {
        Ok(Ok(s)) => Ok(s),
        Ok(Err(e)) => Err(Probe::Unreachable {
            error: e.to_string(),
        }),
        Err(_) => Err(Probe::Unreachable {
            error: "no answer within 5 s".into(),
        }),
    }
}

/// Reads until the peer closes (or `done` says enough), within the timeout and size bound.
async fn read_until(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    done: impl Fn(&[u8]) -> bool,
) -> Result<(), Probe> {
    let read = async {
        let mut chunk = [0u8; 8192];
        while !done(buf) && buf.len() < MAX_ANSWER {
            let n = stream.read(&mut chunk).await?;
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        Ok::<(), std::io::Error>(())
    };
    match tokio::time::timeout(TIMEOUT, read).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(Probe::Unreachable {
            error: e.to_string(),
        }),
        Err(_) => Err(Probe::Unreachable {
            error: "no answer within 5 s".into(),
        }),
    }
}

/// An HTTP/1.1 response: status, headers (lower-cased names), body (de-chunked).
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

fn parse_head(head: &[u8]) -> Option<(u16, Vec<(String, String)>)> {
    let text = std::str::from_utf8(head).ok()?;
    let mut lines = text.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Some((status, headers))
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = body.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&body[..eol])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok());
        let Some(size) = size.filter(|s| *s > 0) else {
            break;
        };
        let start = eol + 2;
        let end = (start + size).min(body.len());
        out.extend_from_slice(&body[start..end]);
        body = body.get(end + 2..).unwrap_or(&[]);
    }
    out
}

async fn http(port: u16, request: String) -> Result<Response, Probe> {
    let mut stream = connect(port).await?;
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| Probe::Unreachable {
            error: e.to_string(),
        })?;
    let mut buf = Vec::new();
    read_until(&mut stream, &mut buf, |_| false).await?;
    let unexpected = || Probe::Unexpected {
        detail: "not an HTTP answer".into(),
    };
    let end = head_end(&buf).ok_or_else(unexpected)?;
    let (status, headers) = parse_head(&buf[..end]).ok_or_else(unexpected)?;
    let mut resp = Response {
        status,
        headers,
        body: buf[end..].to_vec(),
    };
    if resp
        .header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        resp.body = dechunk(&resp.body);
    }
    Ok(resp)
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
pub async fn http_initialize(port: u16, token: &str) -> Probe {
    let body = initialize().to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let resp = match http(port, request).await {
        Ok(r) => r,
        Err(p) => return p,
    };
    if resp.status == 401 || resp.status == 403 {
        return Probe::TokenRefused {
            status: resp.status,
        };
    }
    if resp.status != 200 {
        return Probe::Unexpected {
            detail: format!("HTTP {} to initialize", resp.status),
        };
    }
    if let Some(session) = resp.header("mcp-session-id") {
        // Finish the handshake as a CLI would, then end the session: a session left half-open
        // would show up as a connected CLI until Redline reaps it.
        let done = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let _ = http(
            port,
            format!(
                "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\
                 mcp-session-id: {session}\r\nmcp-protocol-version: 2025-06-18\r\n\
                 Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{done}",
                done.len()
            ),
        )
        .await;
        let _ = http(
            port,
            format!(
                "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\
                 mcp-session-id: {session}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            ),
        )
        .await;
    }
    answered(message(&resp.body))
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One masked client frame.
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut mask = [0u8; 4];
    let _ = getrandom::fill(&mut mask);
    let mut out = vec![0x80 | opcode];
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n <= 0xffff => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// The first complete server frame in `buf`: (opcode, payload, bytes used).
fn server_frame(buf: &[u8]) -> Option<(u8, Vec<u8>, usize)> {
    let (b0, b1) = (*buf.first()?, *buf.get(1)?);
    let masked = b1 & 0x80 != 0;
    let (len, mut at) = match b1 & 0x7f {
        126 => (u16::from_be_bytes([*buf.get(2)?, *buf.get(3)?]) as usize, 4),
        127 => (
            usize::try_from(u64::from_be_bytes(buf.get(2..10)?.try_into().ok()?)).ok()?,
            10,
        ),
        n => (n as usize, 2),
    };
    let mask = if masked {
        let m: [u8; 4] = buf.get(at..at + 4)?.try_into().ok()?;
        at += 4;
        Some(m)
    } else {
        None
    };
    let data = buf.get(at..at.checked_add(len)?)?;
    let payload = match mask {
        Some(m) => data.iter().enumerate().map(|(i, b)| b ^ m[i % 4]).collect(),
        None => data.to_vec(),
    };
    Some((b0 & 0x0f, payload, at + len))
}

/// A WebSocket upgrade with subprotocol `mcp` and Claude Code's auth header, then `initialize`.
pub async fn ws_initialize(port: u16, token: &str) -> Probe {
    let mut stream = match connect(port).await {
        Ok(s) => s,
        Err(p) => return p,
    };
    let mut key = [0u8; 16];
    let _ = getrandom::fill(&mut key);
    let request = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: {}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mcp\r\n\
         X-Claude-Code-Ide-Authorization: {token}\r\n\r\n",
        base64(&key)
    );
    if let Err(e) = stream.write_all(request.as_bytes()).await {
        return Probe::Unreachable {
            error: e.to_string(),
        };
    }
    let mut buf = Vec::new();
    if let Err(p) = read_until(&mut stream, &mut buf, |b| head_end(b).is_some()).await {
        return p;
    }
    let Some(end) = head_end(&buf) else {
        return Probe::Unexpected {
            detail: "no answer to the WebSocket upgrade".into(),
        };
    };
    let Some((status, headers)) = parse_head(&buf[..end]) else {
        return Probe::Unexpected {
            detail: "not an HTTP answer".into(),
        };
    };
    if status == 401 || status == 403 {
        return Probe::TokenRefused { status };
    }
    if status != 101 {
        return Probe::Unexpected {
            detail: format!("HTTP {status} to the WebSocket upgrade"),
        };
    }
    let protocol = headers
        .iter()
        .find(|(k, _)| k == "sec-websocket-protocol")
        .map(|(_, v)| v.as_str());
    if protocol != Some("mcp") {
        return Probe::Unexpected {
            detail: "the upgrade did not choose the subprotocol mcp".into(),
        };
    }
    let mut rest = buf.split_off(end);
    let msg = initialize().to_string();
    if let Err(e) = stream.write_all(&frame(1, msg.as_bytes())).await {
        return Probe::Unreachable {
            error: e.to_string(),
        };
    }
    loop {
        if let Some((opcode, payload, used)) = server_frame(&rest) {
            rest.drain(..used);
            match opcode {
                1 => {
                    let v = serde_json::from_slice::<Value>(&payload).ok();
                    if v.as_ref().and_then(|v| v.get("id")) == Some(&json!(1)) {
                        let _ = stream.write_all(&frame(8, &1000u16.to_be_bytes())).await;
                        return answered(v);
                    }
                }
                8 => {
                    return Probe::Unexpected {
                        detail: "the server closed the WebSocket".into(),
                    }
                }
                _ => {}
            }
            continue;
        }
        let before = rest.len();
        if let Err(p) = read_until(&mut stream, &mut rest, |b| b.len() > before).await {
            return p;
        }
        if rest.len() == before {
            return Probe::Unexpected {
                detail: "the server closed the connection".into(),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_examples() {
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn frames_round_trip_and_chunks_join() {
        let f = frame(1, &[7u8; 300]);
        let (op, payload, used) = server_frame(&f).unwrap();
        assert_eq!((op, payload, used), (1, vec![7u8; 300], f.len()));
        assert!(server_frame(&f[..f.len() - 1]).is_none());
        assert_eq!(dechunk(b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), b"abcde");
        let sse = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}\n\n";
        assert_eq!(
            answered(message(sse)),
            Probe::Answered {
                server: "x".into(),
                version: "1".into()
            }
        );
    }
}
