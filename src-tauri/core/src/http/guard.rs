//! The checks every HTTP request passes before it reaches a handler, and the rule that refusals
//! and failures leak nothing internal.

use crate::token::Token;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{header, HeaderValue, StatusCode};
use std::sync::{Arc, RwLock};

/// Large enough for any source file a CLI proposes; beyond it, 413.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

#[derive(Clone)]
pub struct Guard {
    pub port: u16,
    pub token: Arc<RwLock<Token>>,
    /// With containers on, the port containers reach: `host.docker.internal:PORT` is accepted.
    pub container_port: Option<u16>,
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
    /// Only `127.0.0.1:PORT` or `localhost:PORT` (and `host.docker.internal:PORT` with containers
    /// on): anything else may be DNS rebinding.
    fn host_ok(&self, req: &Request) -> bool {
        let Some(host) = req
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
        else {
            return false;
        };
        let Some((name, port)) = host.rsplit_once(':') else {
            return false;
        };
        let loopback = port == self.port.to_string()
            && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"));
        let container = self.container_port.is_some_and(|p| port == p.to_string())
            && name.eq_ignore_ascii_case(crate::container::HOST_NAME);
        loopback || container
    }

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
    if req.headers().contains_key(header::ORIGIN) || !guard.host_ok(&req) {
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
