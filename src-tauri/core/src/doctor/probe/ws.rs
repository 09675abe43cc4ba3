//! The probe over WebSocket, as Claude Code connects.

use super::{answered, connect, initialize, no_answer, Probe, MAX_ANSWER, TIMEOUT};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest, http::HeaderValue, Message};

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
