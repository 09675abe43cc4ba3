//! The probe over WebSocket, as Claude Code connects.

use super::{answered, connect, initialize, no_answer, Probe, MAX_ANSWER, TIMEOUT};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{
    self, client::IntoClientRequest, handshake::client::Request, http::HeaderValue, Message,
};
use tokio_tungstenite::WebSocketStream;

/// A WebSocket upgrade with subprotocol `mcp` and Claude Code's auth header, then `initialize`.
pub async fn ws_initialize(port: u16, token: &str) -> Probe {
    tokio::time::timeout(TIMEOUT, ws_exchange(port, token))
        .await
        .unwrap_or_else(|_| no_answer())
}

/// Each step stops the probe with its verdict if it fails: the request, the connection, the
/// upgrade, then `initialize` and its answer.
async fn ws_exchange(port: u16, token: &str) -> Probe {
    let req = match upgrade_request(port, token) {
        Ok(r) => r,
        Err(p) => return p,
    };
    let stream = match connect(port).await {
        Ok(s) => s,
        Err(p) => return p,
    };
    let mut ws = match upgrade(req, stream).await {
        Ok(ws) => ws,
        Err(p) => return p,
    };
    if let Err(e) = ws.send(Message::text(initialize().to_string())).await {
        return Probe::Unreachable {
            error: e.to_string(),
        };
    }
    read_answer(&mut ws).await
}

/// The upgrade request as Claude Code sends it: subprotocol `mcp` and the token in its header.
fn upgrade_request(port: u16, token: &str) -> Result<Request, Probe> {
    let mut req = format!("ws://127.0.0.1:{port}/")
        .into_client_request()
        .map_err(|e| Probe::Unexpected {
            detail: e.to_string(),
        })?;
    let Ok(auth) = HeaderValue::from_str(token) else {
        return Err(Probe::Unexpected {
            detail: "the token cannot be sent in a header".into(),
        });
    };
    req.headers_mut()
        .insert("Sec-WebSocket-Protocol", HeaderValue::from_static("mcp"));
    req.headers_mut()
        .insert("X-Claude-Code-Ide-Authorization", auth);
    Ok(req)
}

/// The WebSocket handshake, bounded to the largest answer doctor reads; a server that does not
/// choose `mcp`, refuses the token or answers otherwise is the probe's verdict.
async fn upgrade(req: Request, stream: TcpStream) -> Result<WebSocketStream<TcpStream>, Probe> {
    let config = tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_ANSWER))
        .max_frame_size(Some(MAX_ANSWER));
    match tokio_tungstenite::client_async_with_config(req, stream, Some(config)).await {
        Ok((ws, resp))
            if resp
                .headers()
                .get("sec-websocket-protocol")
                .is_some_and(|p| p == "mcp") =>
        {
            Ok(ws)
        }
        Ok(_)
        | Err(tungstenite::Error::Protocol(
            tungstenite::error::ProtocolError::SecWebSocketSubProtocolError(_),
        )) => Err(Probe::Unexpected {
            detail: "the upgrade did not choose the subprotocol mcp".into(),
        }),
        Err(tungstenite::Error::Http(resp)) => {
            let status = resp.status().as_u16();
            Err(match status {
                401 | 403 => Probe::TokenRefused { status },
                _ => Probe::Unexpected {
                    detail: format!("HTTP {status} to the WebSocket upgrade"),
                },
            })
        }
        Err(tungstenite::Error::Io(e)) => Err(Probe::Unreachable {
            error: e.to_string(),
        }),
        Err(_) => Err(Probe::Unexpected {
            detail: "no answer to the WebSocket upgrade".into(),
        }),
    }
}

/// Reads frames until the answer to `initialize` (id 1), skipping anything else the server sends.
async fn read_answer(ws: &mut WebSocketStream<TcpStream>) -> Probe {
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
