//! A workspace's WebSocket server for Amp: `ws://127.0.0.1:PORT/?auth=TOKEN`, loopback only (Amp
//! connects to `localhost` and nothing moves it, so a container's Amp cannot use it anyway).
//! Origin and Host are checked before the upgrade (a bare status); a wrong token is told as Amp
//! expects it, a close with "Authentication failed", and nothing else is sent.

use super::connections::{AmpConnections, AmpLink};
use super::wire;
use crate::clients::amp::AUTH_FAILED;
use crate::net::accept;
use crate::net::host::Hosts;
use crate::net::limits::{Limits, PEER_SEND};
use crate::platform::token::Token;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use http::{header, HeaderMap, StatusCode, Uri};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Amp's frames are a few hundred bytes; one past this ends the connection.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// A WebSocket ping this often keeps an idle connection alive.
const PING: Duration = Duration::from_secs(30);
/// Frames waiting to go out on one connection; past it a notification is dropped.
const OUTBOX: usize = 64;

static NEXT: AtomicU64 = AtomicU64::new(1);

/// A bare status, nothing else: nothing about Redline, the workspace or the token.
fn refuse(status: StatusCode) -> Response {
    status.into_response()
}

/// What an upgrade must show.
#[derive(Clone)]
pub struct Guard {
    pub hosts: Hosts,
    pub token: Arc<RwLock<Token>>,
}

#[derive(Clone)]
struct AppState {
    connections: Arc<AmpConnections>,
    guard: Guard,
    cancel: CancellationToken,
    max_connections: usize,
}

/// Serves Amp on `listeners` until `cancel` fires.
pub fn serve(
    listeners: Vec<TcpListener>,
    connections: Arc<AmpConnections>,
    guard: Guard,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let state = AppState {
        connections,
        guard,
        cancel: cancel.clone(),
        max_connections: limits.max_sessions,
    };
    let app = Router::new()
        .route("/", any(upgrade))
        .fallback(|| async { refuse(StatusCode::NOT_FOUND) })
        .with_state(state);
    accept::serve_all(listeners, app, limits, cancel)
}

async fn upgrade(
    State(st): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    // No browser has any business here: Amp sends no Origin.
    if headers.contains_key(header::ORIGIN) || !st.guard.hosts.allow(&headers) {
        return refuse(StatusCode::FORBIDDEN);
    }
    let ws = match ws {
        Ok(ws) => ws,
        Err(e) => return refuse(e.into_response().status()),
    };
    if st.connections.len() >= st.max_connections {
        tracing::warn!(
            "Amp connection refused: {} already open",
            st.max_connections
        );
        return refuse(StatusCode::SERVICE_UNAVAILABLE);
    }
    // Amp sends `?auth=` + encodeURIComponent(token); one `auth` only.
    let mut auths = url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
        .filter(|(k, _)| k == "auth")
        .map(|(_, v)| v);
    let presented = match (auths.next(), auths.next()) {
        (Some(t), None) => Some(t),
        _ => None,
    };
    let allowed = presented.is_some_and(|t| {
        let token = st.guard.token.read().unwrap_or_else(|e| e.into_inner());
        token.matches(t.as_bytes())
    });
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| async move {
            match allowed {
                true => run(socket, st.connections, st.cancel).await,
                false => refuse_token(socket).await,
            }
        })
}

async fn refuse_token(mut socket: WebSocket) {
    tracing::warn!("Amp connection refused: wrong token");
    let close = Message::Close(Some(CloseFrame {
        code: 1000,
        reason: AUTH_FAILED.into(),
    }));
    let _ = tokio::time::timeout(PEER_SEND, socket.send(close)).await;
}

/// Serves one connection until the peer goes or Redline closes it.
async fn run(mut socket: WebSocket, connections: Arc<AmpConnections>, stop: CancellationToken) {
    let id = format!("amp-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let (out, mut outbox) = mpsc::channel::<String>(OUTBOX);
    let closing = stop.child_token();
    let first = connections.insert(
        id.clone(),
        AmpLink {
            out,
            close: closing.clone(),
        },
    );
    tracing::info!("Amp connected ({id})");
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + PING, PING);
    let mut ok = true;
    for frame in std::iter::once(wire::plugin_metadata()).chain(first) {
        ok = ok && send(&mut socket, Message::Text(frame.into())).await;
    }
    while ok {
        ok = tokio::select! {
            _ = closing.cancelled() => {
                let _ = send(&mut socket, Message::Close(None)).await;
                false
            }
            frame = socket.recv() => match frame {
                Some(Ok(Message::Text(t))) => match wire::answer(t.as_str()) {
                    Some(reply) => send(&mut socket, Message::Text(reply.into())).await,
                    None => true,
                },
                // tungstenite answers pings itself; Amp sends nothing binary.
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Binary(_))) => true,
                _ => false,
            },
            Some(frame) = outbox.recv() => send(&mut socket, Message::Text(frame.into())).await,
            _ = pings.tick() => send(&mut socket, Message::Ping(axum::body::Bytes::new())).await,
        };
    }
    connections.remove(&id);
    tracing::info!("Amp disconnected ({id})");
}

/// Sends one frame, unless the peer has not taken it within `PEER_SEND`: a peer that stopped
/// reading cannot hold the loop.
async fn send(socket: &mut WebSocket, msg: Message) -> bool {
    matches!(
        tokio::time::timeout(PEER_SEND, socket.send(msg)).await,
        Ok(Ok(()))
    )
}
