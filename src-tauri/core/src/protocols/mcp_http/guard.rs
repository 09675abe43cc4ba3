//! The checks every HTTP request passes before it reaches a handler, and the rule that refusals
//! and failures leak nothing internal.

use crate::net::host::Hosts;
use crate::platform::token::Token;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{header, HeaderValue, StatusCode};
use std::sync::{Arc, RwLock};

/// Beyond it, 413.
pub const MAX_BODY_BYTES: usize = crate::protocols::jsonrpc::MAX_MESSAGE_BYTES;

#[derive(Clone)]
pub struct Guard {
    /// The names this server answers to.
    pub hosts: Hosts,
    pub token: Arc<RwLock<Token>>,
}

fn refuse(status: StatusCode) -> Response {
    let reason = status.canonical_reason().unwrap_or("Refused");
    let mut resp = (status, format!("{reason}\n")).into_response();
    if status == StatusCode::UNAUTHORIZED {
        resp.headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    resp
}

impl Guard {
    fn token_ok(&self, req: &Request) -> bool {
        let Some(value) = req.headers().get(header::AUTHORIZATION) else {
            return false;
        };
        let bytes = value.as_bytes();
        if bytes.len() < 7 || !bytes[..7].eq_ignore_ascii_case(b"bearer ") {
            return false;
        }
        let token = self.token.read().unwrap_or_else(|e| e.into_inner());
        token.matches(&bytes[7..])
    }

    fn body_too_large(req: &Request) -> bool {
        req.headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|n| n > MAX_BODY_BYTES as u64)
    }
}

pub async fn check(State(guard): State<Guard>, req: Request, next: Next) -> Response {
    // Two Host headers mean two readings of one request (a proxy's and ours): refuse both.
    if req.headers().get_all(header::HOST).iter().nth(1).is_some() {
        return refuse(StatusCode::BAD_REQUEST);
    }
    // No browser has any business here: a CLI never sends Origin.
    if req.headers().contains_key(header::ORIGIN) || !guard.hosts.allow(req.headers()) {
        return refuse(StatusCode::FORBIDDEN);
    }
    if !guard.token_ok(&req) {
        return refuse(StatusCode::UNAUTHORIZED);
    }
    if Guard::body_too_large(&req) {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE);
    }
    let resp = next.run(req).await;
    if resp.status().is_server_error() {
        // Error text from inside (rmcp's included) is for the log, not the peer.
        tracing::warn!("request failed with {}", resp.status());
        let mut clean = Response::new(Body::from("Internal Server Error\n"));
        *clean.status_mut() = resp.status();
        return clean;
    }
    if resp.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE);
    }
    resp
}
