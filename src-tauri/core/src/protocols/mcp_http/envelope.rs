//! What may reach rmcp at `/mcp`: JSON-RPC 2.0 messages for a live session of this server, or an
//! `initialize` that opens one within the session cap. Faults get JSON-RPC errors, never a
//! parser's text.

use crate::net::limits::Limits;
use crate::protocols::jsonrpc::{self, Kind, RpcError, INVALID_REQUEST};
use crate::protocols::mcp::VERSIONS;
use crate::protocols::mcp_http::guard::MAX_BODY_BYTES;
use crate::protocols::mcp_http::site::{Audience, Site};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{header, request::Parts, HeaderValue, Method, StatusCode};
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

/// The answer to a request refused before rmcp sees it; boxed, as a `Response` is too large to
/// return by value in an `Err`.
type Refusal = Box<Response>;

/// The middleware in front of rmcp: a named session must be live; a POST must carry one
/// well-formed JSON-RPC message that this server can take.
pub async fn check<A: Audience>(
    State(env): State<Envelope<A>>,
    req: Request,
    next: Next,
) -> Response {
    let session = match named_session(&req) {
        Ok(s) => s,
        Err(resp) => return *resp,
    };
    if let Err(resp) = check_live(&env, session.as_deref()).await {
        return *resp;
    }
    if req.method() == Method::DELETE {
        return delete(&env, session, req, next).await;
    }
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    post(&env, session, req, next)
        .await
        .unwrap_or_else(|resp| *resp)
}

/// The session the request names, if any; one that is not text is none of this server's.
fn named_session(req: &Request) -> Result<Option<String>, Refusal> {
    match req.headers().get(SESSION).map(|v| v.to_str()) {
        None => Ok(None),
        Some(Ok(id)) => Ok(Some(id.to_owned())),
        Some(Err(_)) => Err(Box::new(not_found())),
    }
}

/// An ended or unknown session is 404 whatever the method, DELETE included.
async fn check_live<A: Audience>(env: &Envelope<A>, session: Option<&str>) -> Result<(), Refusal> {
    let Some(id) = session else {
        return Ok(());
    };
    match env.manager.has_session(&id.to_owned().into()).await {
        Ok(true) => Ok(()),
        _ => Err(Box::new(not_found())),
    }
}

/// rmcp ends the session; Redline forgets it once rmcp has.
async fn delete<A: Audience>(
    env: &Envelope<A>,
    session: Option<String>,
    req: Request,
    next: Next,
) -> Response {
    let resp = next.run(req).await;
    // The handler that would end it on drop may never have learnt its id (a client gone
    // before notifications/initialized): end it here, once rmcp has.
    if let (Some(id), true) = (&session, resp.status().is_success()) {
        env.site.end_session(id);
    }
    resp
}

/// A message for rmcp: each check answers the client itself when the message fails it; what
/// passes goes on, and an `initialize` that opens a session has it admitted.
async fn post<A: Audience>(
    env: &Envelope<A>,
    session: Option<String>,
    req: Request,
    next: Next,
) -> Result<Response, Refusal> {
    check_version(&req)?;
    let (mut parts, bytes) = read_body(req, env.limits).await?;
    let mut msg = jsonrpc::parse(&bytes).map_err(|f| Box::new(fault(f)))?;
    let (id, method) = id_and_method(&msg)?;
    let is_initialize = method.as_deref() == Some("initialize");
    if session.is_none() && !is_initialize {
        return Err(Box::new(sessionless(id, method.as_deref())));
    }
    let stripped = strip_meta_version(&mut msg);
    check_params(&msg, &id, method.as_deref())?;
    if is_initialize && session.is_none() {
        if let Some(resp) = make_room(env, id).await {
            return Err(Box::new(resp));
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
        admit(env, &resp);
    }
    Ok(resp)
}

/// A protocol revision the client names must be one Redline speaks.
fn check_version(req: &Request) -> Result<(), Refusal> {
    let Some(v) = req.headers().get("mcp-protocol-version") else {
        return Ok(());
    };
    let known = v
        .to_str()
        .is_ok_and(|v| VERSIONS.iter().any(|k| k.as_str() == v));
    if known {
        return Ok(());
    }
    Err(Box::new(rpc_error(
        StatusCode::BAD_REQUEST,
        Value::Null,
        INVALID_REQUEST,
        "Invalid Request: unsupported MCP protocol version",
    )))
}

/// The whole body, within the size cap and the time a body may take.
async fn read_body(req: Request, limits: Limits) -> Result<(Parts, Bytes), Refusal> {
    let (parts, body) = req.into_parts();
    let read = http_body_util::Limited::new(body, MAX_BODY_BYTES).collect();
    let Ok(read) = tokio::time::timeout(limits.body_read, read).await else {
        return Err(Box::new(
            (StatusCode::REQUEST_TIMEOUT, "Request Timeout\n").into_response(),
        ));
    };
    match read {
        Ok(b) => Ok((parts, b.to_bytes())),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(Box::new(
            (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large\n").into_response(),
        )),
        // A broken body (a malformed chunk size included) is the client's fault.
        Err(_) => Err(Box::new(
            (StatusCode::BAD_REQUEST, "Bad Request\n").into_response(),
        )),
    }
}

/// The id an error answers with (null for a notification) and the method, if it has one.
fn id_and_method(msg: &Value) -> Result<(Value, Option<String>), Refusal> {
    match jsonrpc::classify(msg) {
        Ok(Kind::Request { id, method }) => Ok((id, Some(method))),
        Ok(Kind::Notification { method }) => Ok((Value::Null, Some(method))),
        Ok(Kind::Response) => Ok((msg.get("id").cloned().unwrap_or(Value::Null), None)),
        Err(f) => Err(Box::new(fault(f))),
    }
}

/// The answer to anything but `initialize` without a session.
fn sessionless(id: Value, method: Option<&str>) -> Response {
    // Copilot CLI opens with `server/discover` (a later revision's stateless discovery) and
    // falls back to `initialize` on "method not found".
    if method.is_some_and(|m| !is_standard(m)) {
        return rpc_error(
            StatusCode::OK,
            id,
            jsonrpc::METHOD_NOT_FOUND,
            "Method not found",
        );
    }
    rpc_error(
        StatusCode::BAD_REQUEST,
        id,
        INVALID_REQUEST,
        "Invalid Request: no mcp-session-id; send initialize first",
    )
}

/// Removes a newer revision's marker from `params._meta`, so that rmcp keeps the message on its
/// session path; true if there was one (the body must then be written again).
fn strip_meta_version(msg: &mut Value) -> bool {
    msg.pointer_mut("/params/_meta")
        .and_then(Value::as_object_mut)
        .and_then(|m| m.remove(META_PROTOCOL_VERSION))
        .is_some()
}

/// A standard method whose params do not fit its type falls back to rmcp's custom variant
/// (then "method not found"); the fault is the params.
fn check_params(msg: &Value, id: &Value, method: Option<&str>) -> Result<(), Refusal> {
    // Borrowing: a proposal's text is not copied to be checked.
    let misfit = match &ClientJsonRpcMessage::deserialize(msg) {
        Ok(ClientJsonRpcMessage::Request(r)) => {
            matches!(r.request, ClientRequest::CustomRequest(_)) && is_standard(r.request.method())
        }
        Ok(ClientJsonRpcMessage::Notification(n)) => {
            matches!(n.notification, ClientNotification::CustomNotification(_))
                && method.is_some_and(is_standard)
        }
        Ok(_) => false,
        Err(_) => true,
    };
    match misfit {
        true => Err(Box::new(fault(RpcError::invalid_params(
            id.clone(),
            method.unwrap_or("the message"),
        )))),
        false => Ok(()),
    }
}

/// The session rmcp opened for an `initialize`, made known to Redline.
fn admit<A: Audience>(env: &Envelope<A>, resp: &Response) {
    if let Some(new) = resp.headers().get(SESSION).and_then(|v| v.to_str().ok()) {
        env.site.table().admit(new);
        env.site.service.session_started();
    }
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
