//! Redline behind another program's router (a Codex desktop app or IDE extension that holds
//! Codex's socket or pipe): it joins as a client, says it can answer `ide-context` for the folders it has
//! an editor's context for, and answers what the router forwards.

use super::frame::{self, FrameError};
use super::wire::{self, CanHandle, DiscoveryResponse, Incoming};
use super::{ide_context, FolderContext, Source, NO_HANDLER};
use serde_json::Value;
use std::path::PathBuf;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

/// How a turn as the router's client ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// `cancel` fired: Redline is stopping.
    Stopped,
    /// The router closed the connection or broke the protocol (said in the log).
    RouterGone(String),
    /// The router could not be joined, and why.
    Refused(String),
}

/// Serves the router at the other end of `stream` (joined, and known to be this user's) until it
/// goes or `cancel` fires.
pub async fn provide<S>(stream: S, source: Source, cancel: CancellationToken) -> Ended
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    tokio::select! {
        _ = cancel.cancelled() => Ended::Stopped,
        gone = serve(stream, source) => Ended::RouterGone(gone),
    }
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, source: Source) -> String {
    let init = format!("redline-initialize-{}", std::process::id());
    if let Err(e) = frame::write(&mut stream, &wire::initialize(&init)).await {
        return e.to_string();
    }
    // Until the router names Redline, it answers as the router's own clients are shown.
    let mut me = wire::CLIENT_TYPE.to_owned();
    loop {
        let body = match frame::read_resting(&mut stream).await {
            Ok(b) => b,
            Err(FrameError::Closed) => return "it closed the connection".into(),
            Err(e) => return format!("{e:?}"),
        };
        let Ok(message) = serde_json::from_slice::<Value>(&body) else {
            return "it sent a frame that is not JSON".into();
        };
        let reply = match message.get("type").and_then(Value::as_str) {
            Some("response") if message.get("requestId").and_then(Value::as_str) == Some(&init) => {
                if let Some(id) = message.pointer("/result/clientId").and_then(Value::as_str) {
                    me = id.to_owned();
                }
                None
            }
            Some("client-discovery-request") => {
                let can_handle = can_handle(&source, message.get("request")).await;
                Some(wire::encode(&DiscoveryResponse {
                    kind: "client-discovery-response",
                    request_id: message.get("requestId").unwrap_or(&Value::Null),
                    response: CanHandle { can_handle },
                }))
            }
            Some("request") => match serde_json::from_value::<Incoming>(message) {
                Ok(r) if r.method == "ide-context" => Some(ide_context(&r, &source, &me).await.0),
                Ok(r) => Some(wire::failure(&r, &me, NO_HANDLER)),
                Err(_) => return "it sent a request Redline cannot read".into(),
            },
            _ => None,
        };
        if let Some(reply) = reply {
            if let Err(e) = frame::write(&mut stream, &reply).await {
                return e.to_string();
            }
        }
    }
}

/// Redline takes an `ide-context` request only for a folder it has an editor's context for, so
/// the IDE whose router this is keeps answering for its own.
async fn can_handle(source: &Source, request: Option<&Value>) -> bool {
    let Some(request) = request else {
        return false;
    };
    let method = request.get("method").and_then(Value::as_str);
    // The router forwards only to a handler of the request's version; Redline speaks version 0.
    let version = request.get("version").and_then(Value::as_u64).unwrap_or(0);
    let root = request
        .pointer("/params/workspaceRoot")
        .and_then(Value::as_str);
    match (method, version, root) {
        (Some("ide-context"), 0, Some(root)) => matches!(
            source(PathBuf::from(root)).await,
            FolderContext::Editor { .. }
        ),
        _ => false,
    }
}
