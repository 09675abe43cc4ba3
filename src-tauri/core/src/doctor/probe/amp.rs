//! The probe as Amp connects: a WebSocket upgrade with the token in the URL, then a ping.

use super::{connect, no_answer, Probe, MAX_ANSWER, TIMEOUT};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{
    self, client::IntoClientRequest, handshake::client::Request, Message,
};
use tokio_tungstenite::WebSocketStream;

/// What the probe's ping says, and what the echo must say back.
const PING: &str = "redline-doctor";

/// `ws://127.0.0.1:PORT/?auth=TOKEN`, then Amp's `ping`: the server names itself in the
/// `pluginMetadata` it sends first, and must echo the ping.
pub async fn amp_ping(port: u16, token: &str) -> Probe {
    tokio::time::timeout(TIMEOUT, exchange(port, token))
        .await
        .unwrap_or_else(|_| no_answer())
}

/// Each step stops the probe with its verdict if it fails: the request, the connection, the
/// upgrade, then the ping and its echo.
async fn exchange(port: u16, token: &str) -> Probe {
    let req = match request(port, token) {
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
    let ping = json!({"clientRequest": {"id": "1", "ping": {"message": PING}}});
    if let Err(e) = ws.send(Message::text(ping.to_string())).await {
        return Probe::Unreachable {
            error: e.to_string(),
        };
    }
    read_echo(&mut ws).await
}

fn unexpected(detail: String) -> Probe {
    Probe::Unexpected { detail }
}

/// The upgrade request as Amp sends it: the token in the URL's query.
fn request(port: u16, token: &str) -> Result<Request, Probe> {
    let mut url = url::Url::parse(&format!("ws://127.0.0.1:{port}/"))
        .map_err(|e| unexpected(e.to_string()))?;
    url.query_pairs_mut().append_pair("auth", token);
    url.as_str()
        .into_client_request()
        .map_err(|e| unexpected(e.to_string()))
}

/// The WebSocket handshake, bounded to the largest answer doctor reads.
async fn upgrade(req: Request, stream: TcpStream) -> Result<WebSocketStream<TcpStream>, Probe> {
    let config = tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_ANSWER))
        .max_frame_size(Some(MAX_ANSWER));
    match tokio_tungstenite::client_async_with_config(req, stream, Some(config)).await {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::Error::Http(resp)) => Err(unexpected(format!(
            "HTTP {} to the WebSocket upgrade",
            resp.status().as_u16()
        ))),
        Err(tungstenite::Error::Io(e)) => Err(Probe::Unreachable {
            error: e.to_string(),
        }),
        Err(_) => Err(unexpected("no answer to the WebSocket upgrade".into())),
    }
}

/// Reads frames until the ping's echo, noting the server's name from its `pluginMetadata`; a
/// close for a wrong token is the token refused.
async fn read_echo(ws: &mut WebSocketStream<TcpStream>) -> Probe {
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
