//! The probe as Amp connects: a WebSocket upgrade with the token in the URL, then a ping.

use super::{connect, no_answer, Probe, MAX_ANSWER, TIMEOUT};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest, Message};

/// What the probe's ping says, and what the echo must say back.
const PING: &str = "redline-doctor";

/// `ws://127.0.0.1:PORT/?auth=TOKEN`, then Amp's `ping`: the server names itself in the
/// `pluginMetadata` it sends first, and must echo the ping.
pub async fn amp_ping(port: u16, token: &str) -> Probe {
    tokio::time::timeout(TIMEOUT, exchange(port, token))
        .await
        .unwrap_or_else(|_| no_answer())
}

async fn exchange(port: u16, token: &str) -> Probe {
    let unexpected = |detail: String| Probe::Unexpected { detail };
    let mut url = match url::Url::parse(&format!("ws://127.0.0.1:{port}/")) {
        Ok(u) => u,
        Err(e) => return unexpected(e.to_string()),
    };
    url.query_pairs_mut().append_pair("auth", token);
    let req = match url.as_str().into_client_request() {
        Ok(r) => r,
        Err(e) => return unexpected(e.to_string()),
    };
    let stream = match connect(port).await {
        Ok(s) => s,
        Err(p) => return p,
    };
    let config = tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_ANSWER))
        .max_frame_size(Some(MAX_ANSWER));
    let mut ws = match tokio_tungstenite::client_async_with_config(req, stream, Some(config)).await
    {
        Ok((ws, _)) => ws,
        Err(tungstenite::Error::Http(resp)) => {
            return unexpected(format!(
                "HTTP {} to the WebSocket upgrade",
                resp.status().as_u16()
            ))
        }
        Err(tungstenite::Error::Io(e)) => {
            return Probe::Unreachable {
                error: e.to_string(),
            }
        }
        Err(_) => return unexpected("no answer to the WebSocket upgrade".into()),
    };
    let ping = json!({"clientRequest": {"id": "1", "ping": {"message": PING}}});
    if let Err(e) = ws.send(Message::text(ping.to_string())).await {
        return Probe::Unreachable {
            error: e.to_string(),
        };
    }
    let mut server = None;
    while let Some(frame) = ws.next().await {
        match frame {
            Ok(Message::Text(t)) => {
                let Ok(v) = serde_json::from_str::<Value>(&t) else {
                    continue;
                };
                if let Some(meta) = v.pointer("/serverNotification/pluginMetadata") {
                    let name = meta.get("ideName").and_then(Value::as_str).unwrap_or("");
                    let version = meta.get("version").and_then(Value::as_str).unwrap_or("");
                    server = Some((name.to_owned(), version.to_owned()));
                }
                if v.pointer("/serverResponse/ping/message") == Some(&json!(PING)) {
                    let _ = ws.close(None).await;
                    let (server, version) = server.unwrap_or_default();
                    return Probe::Answered { server, version };
                }
            }
            // Amp's servers close a wrong token's connection with this reason.
            Ok(Message::Close(Some(c)))
                if c.reason.as_str() == crate::clients::amp::AUTH_FAILED =>
            {
                return Probe::TokenRefused { status: 401 }
            }
            Ok(Message::Close(_)) => return unexpected("the server closed the WebSocket".into()),
            Ok(_) => {}
            Err(e) => return unexpected(format!("the WebSocket failed: {e}")),
        }
    }
    unexpected("the server closed the connection".into())
}
