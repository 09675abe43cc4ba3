//! The checks a WebSocket upgrade passes before it is accepted. A refusal is a bare status with
//! an empty body: nothing about Redline, the workspace or the token leaks.

use crate::net::host::Hosts;
use crate::platform::token::Token;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{header, HeaderMap, StatusCode};
use std::sync::{Arc, RwLock};

/// Where Claude Code puts the lock file's `authToken`.
pub const AUTH_HEADER: &str = "x-claude-code-ide-authorization";
/// A frame or message beyond this ends the connection.
pub const MAX_MESSAGE_BYTES: usize = crate::protocols::jsonrpc::MAX_MESSAGE_BYTES;

#[derive(Clone)]
pub struct Guard {
    /// The names this server answers to.
    pub hosts: Hosts,
    pub token: Arc<RwLock<Token>>,
}

/// A bare status, nothing else.
pub fn refuse(status: StatusCode) -> Response {
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = status;
    resp
}

impl Guard {
    fn token_ok(&self, headers: &HeaderMap) -> bool {
        let mut values = headers.get_all(AUTH_HEADER).iter();
        let (Some(value), None) = (values.next(), values.next()) else {
            return false;
        };
        let token = self.token.read().unwrap_or_else(|e| e.into_inner());
        token.matches(value.as_bytes())
    }

    /// The status to refuse a request with, or `None` if it may go on.
    pub fn refusal(&self, headers: &HeaderMap) -> Option<StatusCode> {
        // No browser has any business here: Claude Code never sends Origin.
        if headers.contains_key(header::ORIGIN) || !self.hosts.allow(headers) {
            return Some(StatusCode::FORBIDDEN);
        }
        if !self.token_ok(headers) {
            return Some(StatusCode::UNAUTHORIZED);
        }
        None
    }
}

pub async fn check(State(guard): State<Guard>, req: Request, next: Next) -> Response {
    if let Some(status) = guard.refusal(req.headers()) {
        return refuse(status);
    }
    let resp = next.run(req).await;
    if resp.status().is_client_error() || resp.status().is_server_error() {
        // axum's own rejections (not an upgrade, bad version…) carry text: keep only the status.
        return refuse(resp.status());
    }
    resp
}
