//! The MCP tools a CLI calls (`openDiff`, `closeDiff`, `acceptDiff`, `rejectDiff`), one handler per
//! session, apart from the HTTP transport that carries them.

use crate::companion::{Decision, Shared};
use crate::error::Error;
use crate::http::session::sse_event;
use crate::original;
use crate::peer::Endpoints;
use crate::quota;
use crate::review::{ClientInfo, Outcome, Proposal, Reply, Review};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, Implementation, InitializeResult,
    JsonObject, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, Tool,
};
use rmcp::model::{CallToolResponse, ErrorData};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{RoleServer, ServerHandler};
use serde::Deserialize;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// Sessions need a GET stream, which the stateless 2026 protocol removed.
pub const VERSIONS: &[ProtocolVersion] = &[
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2024_11_05,
];

/// One CLI session's handler. Dropped when rmcp ends the session (DELETE, or the transport
/// gone), which dismisses the session's reviews.
pub struct Handler {
    ws: Arc<Shared>,
    session: OnceLock<String>,
}

impl Handler {
    pub fn new(ws: Arc<Shared>) -> Self {
        Handler {
            ws,
            session: OnceLock::new(),
        }
    }

    /// The session id from the HTTP request's header, remembered with the client's identity.
    fn session(
        &self,
        extensions: &rmcp::model::Extensions,
        peer: &rmcp::Peer<RoleServer>,
    ) -> String {
        if let Some(id) = self.session.get() {
            return id.clone();
        }
        let id = extensions
            .get::<http::request::Parts>()
            .and_then(|p| p.headers.get("mcp-session-id"))
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let client = peer
            .peer_info()
            .map(|i| ClientInfo {
                name: i.client_info.name.clone(),
                version: i.client_info.version.clone(),
                process: None,
            })
            .unwrap_or_default();
        self.ws.sessions.register(&id, client);
        self.session.get_or_init(|| id).clone()
    }
}

impl Handler {
    /// The session's client, with the process behind this request's connection looked up on
    /// first use (off the runtime: it reads the OS's socket and process tables).
    async fn client(&self, session: &str, extensions: &rmcp::model::Extensions) -> ClientInfo {
        let client = self.ws.sessions.client(session).unwrap_or_default();
        if client.process.is_some() {
            return client;
        }
        let ends = extensions
            .get::<http::request::Parts>()
            .and_then(|p| p.extensions.get::<Endpoints>())
            .copied();
        let Some(ends) = ends else {
            return client;
        };
        if let Some(p) = crate::peer::find(self.ws.peers.clone(), ends).await {
            self.ws.sessions.set_process(session, p);
        }
        self.ws.sessions.client(session).unwrap_or(client)
    }
}

impl Drop for Handler {
    fn drop(&mut self) {
        if let Some(id) = self.session.get() {
            self.ws.end_session(id);
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenDiffArgs {
    file_path: String,
    new_content: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CloseDiffArgs {
    file_path: String,
    // The CLIs send it; closeDiff never notifies either way, so it changes nothing here.
    #[serde(default)]
    #[allow(dead_code)]
    suppress_notification: Option<bool>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileArgs {
    file_path: String,
}

fn args<T: for<'de> Deserialize<'de>>(params: &CallToolRequestParams) -> Result<T, ErrorData> {
    let value = Value::Object(params.arguments.clone().unwrap_or_default());
    serde_json::from_value(value).map_err(|e| {
        ErrorData::invalid_params(format!("invalid arguments for {}: {e}", params.name), None)
    })
}

/// A tool that ran and failed: the user reads this in the CLI.
fn failed(e: Error) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!("Redline: {e}"))])
}

/// A success without `isError`, the shape the spec shows (`{content: []}` for openDiff).
fn done(content: Vec<ContentBlock>) -> CallToolResult {
    let mut result = CallToolResult::default();
    result.content = content;
    result
}

fn schema(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(o) => Arc::new(o),
        _ => Arc::default(),
    }
}

fn tools() -> Vec<Tool> {
    let file_path = json!({"type": "string", "description": "Absolute path of the file"});
    vec![
        Tool::new(
            "openDiff",
            "Open a review of a proposed change to a file. Answers at once; the decision arrives \
             later as ide/diffAccepted or ide/diffRejected.",
            schema(json!({
                "type": "object",
                "properties": {
                    "filePath": file_path,
                    "newContent": {"type": "string", "description": "The proposed full text"}
                },
                "required": ["filePath", "newContent"]
            })),
        ),
        Tool::new(
            "closeDiff",
            "Close a review without a notification; returns {\"content\": <current edited text>}.",
            schema(json!({
                "type": "object",
                "properties": {
                    "filePath": file_path,
                    "suppressNotification": {"type": "boolean"}
                },
                "required": ["filePath"]
            })),
        ),
        Tool::new(
            "acceptDiff",
            "Accept a review as if the user had, with its current text.",
            schema(json!({
                "type": "object",
                "properties": {"filePath": file_path},
                "required": ["filePath"]
            })),
        ),
        Tool::new(
            "rejectDiff",
            "Reject a review as if the user had.",
            schema(json!({
                "type": "object",
                "properties": {"filePath": file_path},
                "required": ["filePath"]
            })),
        ),
    ]
}

/// The decision as a notification on the asking session's stream, with the path exactly as it
/// was sent. A diff closed by the CLI (closeDiff) or a session gone hears nothing: a
/// diffRejected racing a closeDiff turns the user's "Allow" in the terminal into a rejection.
fn notify_session(shared: std::sync::Weak<Shared>, session: String) -> Reply {
    Box::new(move |review: &Review, outcome| {
        let event = match outcome {
            Outcome::Accepted => sse_event(
                "ide/diffAccepted",
                json!({"filePath": review.file_path, "content": review.current}),
            ),
            Outcome::Rejected => {
                sse_event("ide/diffRejected", json!({"filePath": review.file_path}))
            }
            Outcome::Closed | Outcome::Dismissed => return,
        };
        if let Some(shared) = shared.upgrade() {
            shared.sessions.notify(&session, event);
        }
    })
}

impl Handler {
    async fn open_diff(
        &self,
        session: String,
        client: ClientInfo,
        a: OpenDiffArgs,
    ) -> CallToolResult {
        // A CLI in a container sends container paths: read, confine and show the host's file,
        // but keep its `filePath` for the notifications it waits on.
        let (host_path, container) = self.ws.host_path(&a.file_path);
        let path = match self.ws.workspace.resolve(&host_path) {
            Ok(p) => p,
            Err(Error::OutsideWorkspace { roots, .. }) => {
                return failed(Error::OutsideWorkspace {
                    path: a.file_path,
                    roots,
                })
            }
            Err(e) => return failed(e),
        };
        let original = match original::read(&self.ws.workspace, &path, &a.file_path).await {
            Ok(text) => text,
            Err(e) => return failed(e),
        };
        let incoming = original.as_ref().map_or(0, String::len) + a.new_content.len();
        let ws = self.ws.workspace.id();
        if let Err(e) = quota::admit(&self.ws.reviews, ws, &session, &a.file_path, incoming) {
            return failed(e);
        }
        let reply = notify_session(Arc::downgrade(&self.ws), session.clone());
        self.ws.reviews.open(
            Proposal {
                workspace: self.ws.workspace.id().to_owned(),
                session,
                client,
                file_path: a.file_path,
                path,
                original,
                proposal: a.new_content,
                container,
            },
            reply,
        );
        done(vec![])
    }

    fn close_diff(&self, session: &str, a: CloseDiffArgs) -> CallToolResult {
        let Some(review) = self
            .ws
            .reviews
            .find(self.ws.workspace.id(), session, &a.file_path)
            .filter(|r| r.session == session)
        else {
            return failed(Error::NoOpenDiff(a.file_path));
        };
        match self.ws.reviews.resolve(review.id, Outcome::Closed) {
            // The CLI parses this text as JSON; no notification may race the user's answer.
            Ok(review) => done(vec![ContentBlock::text(
                json!({"content": review.current}).to_string(),
            )]),
            Err(e) => failed(e),
        }
    }

    fn decide(&self, session: &str, a: FileArgs, decision: Decision) -> CallToolResult {
        let Some(review) = self
            .ws
            .reviews
            .find(self.ws.workspace.id(), session, &a.file_path)
        else {
            return failed(Error::NoOpenDiff(a.file_path));
        };
        let verb = match decision {
            Decision::Accept(_) => "accepted",
            Decision::Reject => "rejected",
        };
        match self.ws.decide(review.id, decision) {
            Ok(()) => done(vec![ContentBlock::text(format!("{verb} {}", a.file_path))]),
            Err(e) => failed(e),
        }
    }
}

impl ServerHandler for Handler {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("redline", env!("CARGO_PKG_VERSION")).with_title("Redline"),
            )
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(VERSIONS)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.session(&context.extensions, &context.peer);
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult {
            tools: tools(),
            ..ListToolsResult::default()
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let session = self.session(&context.extensions, &context.peer);
        let result = match request.name.as_ref() {
            "openDiff" => {
                let client = self.client(&session, &context.extensions).await;
                self.open_diff(session, client, args(&request)?).await
            }
            "closeDiff" => self.close_diff(&session, args(&request)?),
            "acceptDiff" => self.decide(&session, args(&request)?, Decision::Accept(None)),
            "rejectDiff" => self.decide(&session, args(&request)?, Decision::Reject),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool: {other}"),
                    None,
                ))
            }
        };
        Ok(result.into())
    }
}
