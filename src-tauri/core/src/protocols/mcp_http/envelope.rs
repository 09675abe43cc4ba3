//! What may reach rmcp at `/mcp`: JSON-RPC 2.0 messages for a live session of this server, or an
//! `initialize` that opens one within the session cap. Faults get JSON-RPC errors, never a
//! parser's text.

use crate::net::limits::Limits;
use crate::protocols::jsonrpc::{self, Kind, RpcError, INVALID_REQUEST};
use crate::protocols::mcp::VERSIONS;
use crate::protocols::mcp_http::guard::MAX_BODY_BYTES;
use crate::protocols::mcp_http::site::{Audience, Site};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{header, HeaderValue, Method, StatusCode};
use http_body_util::BodyExt;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, ClientRequest};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::SessionManager;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// Session id header of the Streamable HTTP transport.
const SESSION: &str = "mcp-session-id";
/// rmcp routes a request naming a newer revision here to its stateless path, where a handler
/// has no session of its own; Redline speaks only the session revisions.
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

pub struct Envelope<A> {
    pub site: Site<A>,
    pub manager: Arc<LocalSessionManager>,
    pub limits: Limits,
}

// Derived Clone would ask `A: Clone`.
impl<A> Clone for Envelope<A> {
    fn clone(&self) -> Self {
        Envelope {
            site: self.site.clone(),
            manager: self.manager.clone(),
            limits: self.limits,
        }
    }
}

fn rpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let mut resp = (status, jsonrpc::error(id, code, message)).into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    resp
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: no such session\n").into_response()
}

/// Methods the MCP specification defines (as opposed to a client's own).
fn is_standard(method: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "tools/",
        "resources/",
        "prompts/",
        "completion/",
        "logging/",
        "notifications/",
        "sampling/",
        "roots/",
        "elicitation/",
        "tasks/",
        "skills/",
    ];
    matches!(method, "initialize" | "ping") || PREFIXES.iter().any(|p| method.starts_with(p))
}

fn fault(f: RpcError) -> Response {
    rpc_error(StatusCode::BAD_REQUEST, f.id, f.code, &f.message)
}

pub async fn check<A: Audience>(
    State(env): State<Envelope<A>>,
    req: Request,
    next: Next,
) -> Response {
    let session = match req.headers().get(SESSION).map(|v| v.to_str()) {
        None => None,
        Some(Ok(id)) => Some(id.to_owned()),
        Some(Err(_)) => return not_found(),
    };
    if let Some(id) = &session {
        // An ended or unknown session is 404 whatever the method, DELETE included.
        if !env
            .manager
            .has_session(&id.clone().into())
            .await
            .unwrap_or(false)
        {
            return not_found();
        }
    }
    if req.method() == Method::DELETE {
        let resp = next.run(req).await;
        // The handler that would end it on drop may never have learnt its id (a client gone
        // before notifications/initialized): end it here, once rmcp has.
        if let (Some(id), true) = (&session, resp.status().is_success()) {
            env.site.end_session(id);
        }
        return resp;
    }
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    if let Some(v) = req.headers().get("mcp-protocol-version") {
        let known = v
            .to_str()
            .is_ok_and(|v| VERSIONS.iter().any(|k| k.as_str() == v));
        if !known {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: unsupported MCP protocol version",
            );
        }
    }
    let (mut parts, body) = req.into_parts();
    let read = http_body_util::Limited::new(body, MAX_BODY_BYTES).collect();
    let Ok(read) = tokio::time::timeout(env.limits.body_read, read).await else {
        return (StatusCode::REQUEST_TIMEOUT, "Request Timeout\n").into_response();
    };
    let bytes = match read {
        Ok(b) => b.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large\n").into_response()
        }
        // A broken body (a malformed chunk size included) is the client's fault.
        Err(_) => return (StatusCode::BAD_REQUEST, "Bad Request\n").into_response(),
    };
    let mut msg = match jsonrpc::parse(&bytes) {
        Ok(v) => v,
        Err(f) => return fault(f),
    };
    let (id, method) = match jsonrpc::classify(&msg) {
        Ok(Kind::Request { id, method }) => (id, Some(method)),
        Ok(Kind::Notification { method }) => (Value::Null, Some(method)),
        Ok(Kind::Response) => (msg.get("id").cloned().unwrap_or(Value::Null), None),
        Err(f) => return fault(f),
    };
    let is_initialize = method.as_deref() == Some("initialize");
    // Copilot CLI opens with `server/discover` (a later revision's stateless discovery) and
    // falls back to `initialize` on "method not found".
    if session.is_none() && !is_initialize && method.as_deref().is_some_and(|m| !is_standard(m)) {
        return rpc_error(
            StatusCode::OK,
            id,
            jsonrpc::METHOD_NOT_FOUND,
            "Method not found",
        );
    }
    if session.is_none() && !is_initialize {
        return rpc_error(
            StatusCode::BAD_REQUEST,
            id,
            INVALID_REQUEST,
            "Invalid Request: no mcp-session-id; send initialize first",
        );
    }
    let stripped = msg
        .pointer_mut("/params/_meta")
        .and_then(Value::as_object_mut)
        .and_then(|m| m.remove(META_PROTOCOL_VERSION))
        .is_some();
    // Borrowing: a proposal's text is not copied to be checked.
    let typed = ClientJsonRpcMessage::deserialize(&msg);
    // A standard method whose params do not fit its type falls back to rmcp's custom variant
    // (then "method not found"); the fault is the params.
    let misfit = match &typed {
        Ok(ClientJsonRpcMessage::Request(r)) => {
            matches!(r.request, ClientRequest::CustomRequest(_)) && is_standard(r.request.method())
        }
        Ok(ClientJsonRpcMessage::Notification(n)) => {
            matches!(n.notification, ClientNotification::CustomNotification(_))
                && method.as_deref().is_some_and(is_standard)
        }
        Ok(_) => false,
        Err(_) => true,
    };
    if misfit {
        return fault(RpcError::invalid_params(
            id,
            method.as_deref().unwrap_or("the message"),
        ));
    }
    if is_initialize && session.is_none() {
        if let Some(resp) = make_room(&env, id).await {
            return resp;
        }
    }
    let body = if stripped {
        let text = msg.to_string();
        parts
            .headers
            .insert(header::CONTENT_LENGTH, text.len().into());
        Body::from(text)
    } else {
        Body::from(bytes)
    };
    let resp = next.run(Request::from_parts(parts, body)).await;
    if is_initialize {
        if let Some(new) = resp.headers().get(SESSION).and_then(|v| v.to_str().ok()) {
            env.site.table().admit(new);
            env.site.service.session_started();
        }
    }
    resp
}

/// Keeps the session count under the cap before a new one opens: the oldest session with no
/// stream goes (its client left without DELETE); if every session is streaming, refuse.
async fn make_room<A: Audience>(env: &Envelope<A>, id: Value) -> Option<Response> {
    while env.manager.sessions.read().await.len() >= env.limits.max_sessions {
        let Some(oldest) = env.site.table().oldest_streamless() else {
            tracing::warn!("session cap reached; refusing a new session");
            return Some(rpc_error(
                StatusCode::TOO_MANY_REQUESTS,
                id,
                INVALID_REQUEST,
                "Too many sessions: close another CLI's session first",
            ));
        };
        end_session(env, &oldest).await;
    }
    None
}

pub async fn end_session<A: Audience>(env: &Envelope<A>, id: &str) {
    let _ = env.manager.close_session(&id.to_owned().into()).await;
    env.site.end_session(id);
}

/// Ends sessions that have gone without a stream for the limit, until `cancel` fires.
pub async fn reap<A: Audience>(env: Envelope<A>, cancel: tokio_util::sync::CancellationToken) {
    let every = (env.limits.streamless_session / 4).max(std::time::Duration::from_millis(50));
    let mut ticks = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = ticks.tick() => {}
        }
        for id in env
            .site
            .table()
            .streamless_for(env.limits.streamless_session)
        {
            tracing::info!("a session had no stream for too long; ending it");
            end_session(&env, &id).await;
        }
        // rmcp sessions Redline never heard of (an initialize that failed half-way).
        let known: Vec<_> = env.manager.sessions.read().await.keys().cloned().collect();
        for id in known {
            if env.site.table().client(&id).is_none() {
                env.site.table().admit(&id);
            }
        }
    }
}
