//! A workspace's companion HTTP server: MCP at `/mcp` (rmcp for POST and DELETE, Redline's own
//! notification stream for GET) and the `/events` stream, behind the guard.

use crate::net::accept;
use crate::net::limits::Limits;
use crate::protocols::mcp_http::envelope::{self, Envelope};
use crate::protocols::mcp_http::guard::{self, Guard, MAX_BODY_BYTES};
use crate::protocols::mcp_http::handler::Handler;
use crate::protocols::mcp_http::session::Sessions;
use crate::protocols::mcp_http::site::{Audience, Site};
use crate::protocols::mcp_http::tools::Tools;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use bytes::{Bytes, BytesMut};
use futures::{Stream, StreamExt};
use http::{header, HeaderMap, HeaderValue, StatusCode};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Keep-alive on every stream, far inside undici's 300 s body timeout and the 60 s the issue asks.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// A session whose stream closed and did not reopen within this is taken as gone.
pub const RECONNECT_GRACE: Duration = Duration::from_secs(5);

struct AppState<A> {
    site: Site<A>,
    manager: Arc<LocalSessionManager>,
    /// Ends every stream when the server stops: graceful shutdown waits for open connections.
    cancel: CancellationToken,
}

// Derived Clone would ask `A: Clone`.
impl<A> Clone for AppState<A> {
    fn clone(&self) -> Self {
        AppState {
            site: self.site.clone(),
            manager: self.manager.clone(),
            cancel: self.cancel.clone(),
        }
    }
}

/// Serves Gemini CLI's and Qwen Code's tools until `cancel` fires.
pub fn serve(
    listener: TcpListener,
    site: Site<Sessions>,
    guard: Guard,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    serve_all(vec![listener], site, guard, limits, cancel)
}

/// Serves the same app, behind the same guard, on every listener (loopback, and the container
/// bridge's address when containers are on), each with its own accept loop and limits, until
/// `cancel` fires.
pub fn serve_all(
    listeners: Vec<TcpListener>,
    site: Site<Sessions>,
    guard: Guard,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let app = app(site, guard, limits, cancel.clone(), Handler::<Tools>::new);
    accept::serve_all(listeners, app, limits, cancel)
}

/// The MCP app for one workspace with the tools `handler` makes for each session, whatever
/// the listener: each protocol over Streamable HTTP is its tool set on this app.
pub fn app<A: Audience, H: rmcp::ServerHandler>(
    site: Site<A>,
    guard: Guard,
    limits: Limits,
    cancel: CancellationToken,
    handler: fn(Site<A>) -> H,
) -> Router {
    let mut session_config = SessionConfig::default();
    // rmcp's idle timeout is not reset by keep-alives; sessions end on DELETE or stream loss.
    session_config.keep_alive = None;
    // An empty priming event breaks the TypeScript SDK 1.23 that Gemini CLI ships.
    session_config.sse_retry = None;
    let mut manager = LocalSessionManager::default();
    manager.session_config = session_config;
    let manager = Arc::new(manager);
    let config = StreamableHttpServerConfig::default()
        .with_sse_keep_alive(Some(KEEP_ALIVE))
        .with_sse_retry(None)
        .with_allowed_hosts(guard.hosts.names())
        .enforce_origin_validation()
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(cancel.child_token());
    let factory_site = site.clone();
    let mcp = StreamableHttpService::new(
        move || Ok(handler(factory_site.clone())),
        manager.clone(),
        config,
    );
    let post = tower::ServiceBuilder::new()
        .map_response(without_event_ids)
        .service(mcp.clone());
    let envelope = Envelope {
        site: site.clone(),
        manager: manager.clone(),
        limits,
    };
    tokio::spawn(envelope::reap(envelope.clone(), cancel.clone()));
    let state = AppState {
        site,
        manager,
        cancel: cancel.clone(),
    };
    Router::new()
        .route(
            "/mcp",
            get(open_stream::<A>).post_service(post).delete_service(mcp),
        )
        .route_layer(axum::middleware::from_fn_with_state(
            envelope,
            envelope::check,
        ))
        .route("/events", get(events::<A>))
        .fallback(|| async { (StatusCode::NOT_FOUND, "Not Found\n") })
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(guard, guard::check))
}

fn sse_response(body: Body) -> Response {
    let mut resp = Response::new(body);
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

fn accepts_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("text/event-stream") || v.contains("*/*"))
}

/// Items from `rx`, with a keep-alive comment whenever nothing else was sent for a while,
/// until `rx` ends or the server stops; what was queued before the stop still goes out.
fn with_keep_alive<G: Send + 'static>(
    rx: impl Stream<Item = Bytes> + Send + Unpin + 'static,
    guard: G,
    cancel: CancellationToken,
) -> Body {
    let start = tokio::time::Instant::now() + KEEP_ALIVE;
    let ticks = tokio::time::interval_at(start, KEEP_ALIVE);
    let state = (rx, ticks, guard, cancel);
    let stream = futures::stream::unfold(state, |(mut rx, mut ticks, guard, cancel)| async move {
        tokio::select! {
            biased;
            item = rx.next() => item.map(|b| (b, (rx, ticks, guard, cancel))),
            _ = cancel.cancelled() => None,
            _ = ticks.tick() => {
                Some((Bytes::from_static(b": keep-alive\n\n"), (rx, ticks, guard, cancel)))
            }
        }
    });
    Body::from_stream(stream.map(Ok::<_, Infallible>))
}

/// Notes when a session's stream ends, and takes the session as gone unless it reconnects.
struct StreamGuard<A: Audience> {
    id: String,
    generation: u64,
    site: Site<A>,
    manager: Arc<LocalSessionManager>,
}

impl<A: Audience> Drop for StreamGuard<A> {
    fn drop(&mut self) {
        if !self.site.table().detach(&self.id, self.generation) {
            return;
        }
        let (id, site, manager) = (
            std::mem::take(&mut self.id),
            self.site.clone(),
            self.manager.clone(),
        );
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        rt.spawn(async move {
            tokio::time::sleep(RECONNECT_GRACE).await;
            if site.table().is_detached(&id) {
                tracing::info!("a CLI's stream closed and did not return; ending its session");
                let _ = manager.close_session(&id.clone().into()).await;
                site.end_session(&id);
            }
        });
    }
}

/// `GET /mcp`: the session's notification stream. The current context goes first.
async fn open_stream<A: Audience>(State(st): State<AppState<A>>, req: Request) -> Response {
    if !accepts_event_stream(req.headers()) {
        return (StatusCode::NOT_ACCEPTABLE, "Not Acceptable\n").into_response();
    }
    let Some(id) = req
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
    else {
        return (
            StatusCode::BAD_REQUEST,
            "Bad Request: session id required\n",
        )
            .into_response();
    };
    if !st
        .manager
        .has_session(&id.clone().into())
        .await
        .unwrap_or(false)
    {
        return (StatusCode::NOT_FOUND, "Not Found: no such session\n").into_response();
    }
    let sessions = st.site.table();
    let (generation, rx) = sessions.attach(&id);
    if let Some(greeting) = st.site.greeting() {
        sessions.notify(&id, greeting);
    }
    let guard = StreamGuard {
        id,
        generation,
        site: st.site.clone(),
        manager: st.manager.clone(),
    };
    sse_response(with_keep_alive(
        tokio_stream::wrappers::UnboundedReceiverStream::new(rx),
        guard,
        st.cancel.clone(),
    ))
}

/// `GET /events`: every notification of the workspace, for scripts and `curl -N`.
async fn events<A: Audience>(State(st): State<AppState<A>>) -> Response {
    let rx = tokio_stream::wrappers::BroadcastStream::new(st.site.table().subscribe_events())
        .filter_map(|r| async move { r.ok() });
    sse_response(with_keep_alive(Box::pin(rx), (), st.cancel.clone()))
}

/// rmcp puts `id:` on POST response events; the TypeScript SDK 1.23 then reopens its GET stream
/// after every response. POST responses need no resumption, so the ids go.
fn without_event_ids<B>(resp: Response<B>) -> Response
where
    B: http_body::Body<Data = Bytes, Error = Infallible> + Send + 'static,
{
    let is_sse = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    let (parts, body) = resp.into_parts();
    if !is_sse {
        return Response::from_parts(parts, Body::new(body));
    }
    let mut pending = BytesMut::new();
    let frames = http_body_util::BodyDataStream::new(body).map(move |chunk| {
        let chunk = chunk.unwrap_or_else(|never| match never {});
        pending.extend_from_slice(&chunk);
        let mut out = BytesMut::new();
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line = pending.split_to(end + 1);
            if !line.starts_with(b"id:") {
                out.extend_from_slice(&line);
            }
        }
        Ok::<_, Infallible>(out.freeze())
    });
    Response::from_parts(parts, Body::from_stream(frames))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn strips_ids_across_frame_boundaries_and_keeps_the_rest() {
        let frames: Vec<Result<http_body::Frame<Bytes>, Infallible>> = vec![
            Ok(http_body::Frame::data(Bytes::from_static(
                b"id: 0/1\ndata: {\"a\"",
            ))),
            Ok(http_body::Frame::data(Bytes::from_static(b":1}\n\ni"))),
            Ok(http_body::Frame::data(Bytes::from_static(
                b"d: 0/2\ndata: x\n\n",
            ))),
        ];
        let body = http_body_util::StreamBody::new(futures::stream::iter(frames));
        let mut resp = Response::new(body);
        resp.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        let out = without_event_ids(resp).into_body().collect().await.unwrap();
        assert_eq!(out.to_bytes(), "data: {\"a\":1}\n\ndata: x\n\n");
    }
}
