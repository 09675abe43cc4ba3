//! A workspace's WebSocket server for Claude Code: `ws://127.0.0.1:PORT/` (and the container
//! bridge's address when containers are on), subprotocol `mcp`, behind the guard. Each
//! connection is a session (see `session`).

use crate::net::accept;
use crate::net::limits::Limits;
use crate::platform::peer::Endpoints;
use crate::protocols::mcp_ws::connections::Connections;
use crate::protocols::mcp_ws::guard::{self, Guard, MAX_MESSAGE_BYTES};
use crate::protocols::mcp_ws::session;
use crate::review::service::Service;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{State, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use http::StatusCode;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

#[derive(Clone)]
struct AppState {
    service: Arc<Service>,
    connections: Arc<Connections>,
    cancel: CancellationToken,
    /// Held by every connection: the server counts as stopped once all are dropped.
    alive: mpsc::Sender<()>,
    /// Claude Code connections at once; past it, an upgrade is refused.
    max_connections: usize,
}

/// Serves the same app, behind the same guard, on every listener (loopback, and the container
/// bridge's address when containers are on) until `cancel` fires, each through the accept loop
/// every companion server shares (its connection cap and head deadline apply until the
/// upgrade); the task ends once every connection has answered its blocked calls and closed
/// (bounded by the sessions' drain time).
pub fn serve(
    listeners: Vec<TcpListener>,
    service: Arc<Service>,
    connections: Arc<Connections>,
    guard: Guard,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let (alive, mut all_gone) = mpsc::channel::<()>(1);
    let state = AppState {
        service,
        connections,
        cancel: cancel.clone(),
        alive,
        max_connections: limits.max_sessions,
    };
    let app = Router::new()
        .route("/", any(upgrade))
        .fallback(|| async { guard::refuse(StatusCode::NOT_FOUND) })
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(guard, guard::check));
    let accepting = accept::serve_all(listeners, app, limits, cancel);
    tokio::spawn(async move {
        let _ = accepting.await;
        let _ = tokio::time::timeout(session::DRAIN * 2, all_gone.recv()).await;
    })
}

async fn upgrade(
    State(st): State<AppState>,
    ends: Option<axum::Extension<Endpoints>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(e) => return guard::refuse(e.into_response().status()),
    };
    if st.connections.len() >= st.max_connections {
        tracing::warn!(
            "Claude Code connection refused: {} already open",
            st.max_connections
        );
        return guard::refuse(StatusCode::SERVICE_UNAVAILABLE);
    }
    ws.protocols(["mcp"])
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| {
            session::run(
                socket,
                st.service,
                st.connections,
                st.cancel,
                st.alive,
                ends.map(|e| e.0),
            )
        })
}
