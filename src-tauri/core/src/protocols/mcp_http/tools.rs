//! The MCP tools a CLI calls (`openDiff`, `closeDiff`, `acceptDiff`, `rejectDiff`), one handler per
//! session, apart from the HTTP transport that carries them.

use crate::error::Error;
use crate::protocols::mcp_http::call::{self, args, done, failed, tool};
use crate::protocols::mcp_http::caller::Caller;
use crate::protocols::mcp_http::session::{sse_event, Sessions};
use crate::protocols::mcp_http::site::Site;
use crate::review::service::{Ask, Decision};
use crate::review::{ClientInfo, Outcome, Reply, Review};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, Tool,
};
use rmcp::model::{CallToolResponse, ErrorData};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{RoleServer, ServerHandler};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::borrow::Cow;
use std::sync::Arc;

/// One CLI session's handler.
pub struct Handler {
    caller: Caller<Sessions>,
}

impl Handler {
    pub fn new(ws: Site<Sessions>) -> Self {
        Handler {
            caller: Caller::new(ws),
        }
    }

    fn ws(&self) -> &Site<Sessions> {
        &self.caller.ws
    }
}

// No doc comments on the argument types: they would become each schema's description.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct OpenDiffArgs {
    /// Absolute path of the file
    file_path: String,
    /// The proposed full text
    new_content: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CloseDiffArgs {
    /// Absolute path of the file
    file_path: String,
    // The CLIs send it; closeDiff never notifies either way, so it changes nothing here.
    #[serde(default)]
    #[schemars(with = "bool")]
    #[allow(dead_code)]
    suppress_notification: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct FileArgs {
    /// Absolute path of the file
    file_path: String,
}

fn tools() -> Vec<Tool> {
    vec![
        tool::<OpenDiffArgs>(
            "openDiff",
            "Open a review of a proposed change to a file. Answers at once; the decision arrives \
             later as ide/diffAccepted or ide/diffRejected.",
        ),
        tool::<CloseDiffArgs>(
            "closeDiff",
            "Close a review without a notification; returns {\"content\": <current edited text>}.",
        ),
        tool::<FileArgs>(
            "acceptDiff",
            "Accept a review as if the user had, with its current text.",
        ),
        tool::<FileArgs>("rejectDiff", "Reject a review as if the user had."),
    ]
}

/// The decision as a notification on the asking session's stream, with the path exactly as it
/// was sent. A diff closed by the CLI (closeDiff) or a session gone hears nothing: a
/// diffRejected racing a closeDiff turns the user's "Allow" in the terminal into a rejection.
fn notify_session(sessions: std::sync::Weak<Sessions>, session: String) -> Reply {
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
        if let Some(sessions) = sessions.upgrade() {
            sessions.notify(&session, event);
        }
    })
}

impl Handler {
    /// A CLI in a container sends container paths: the service reads, confines and shows the
    /// host's file, and the notifications the CLI waits on keep its `filePath`.
    async fn open_diff(
        &self,
        session: String,
        client: ClientInfo,
        a: OpenDiffArgs,
    ) -> CallToolResult {
        let reply = notify_session(Arc::downgrade(&self.ws().sessions), session.clone());
        let ask = Ask {
            session,
            client,
            original_from: Some(a.file_path.clone()),
            file_path: a.file_path,
            proposal: a.new_content,
            read_only: None,
        };
        match self.ws().service.propose(ask, reply).await {
            Ok(_) => done(vec![]),
            Err(e) => failed(e),
        }
    }

    fn close_diff(&self, session: &str, a: CloseDiffArgs) -> CallToolResult {
        let Some(review) = self
            .ws()
            .service
            .find(session, &a.file_path)
            .filter(|r| r.session == session)
        else {
            return failed(Error::NoOpenDiff(a.file_path));
        };
        match self.ws().service.close(review.id) {
            // The CLI parses this text as JSON; no notification may race the user's answer.
            Ok(review) => done(vec![ContentBlock::text(
                json!({"content": review.current}).to_string(),
            )]),
            Err(e) => failed(e),
        }
    }

    fn decide(&self, session: &str, a: FileArgs, decision: Decision) -> CallToolResult {
        let Some(review) = self.ws().service.find(session, &a.file_path) else {
            return failed(Error::NoOpenDiff(a.file_path));
        };
        let verb = match decision {
            Decision::Accept(_) | Decision::AcceptRevision { .. } => "accepted",
            Decision::Reject => "rejected",
        };
        match self.ws().service.decide(review.id, decision) {
            Ok(()) => done(vec![ContentBlock::text(format!("{verb} {}", a.file_path))]),
            Err(e) => failed(e),
        }
    }
}

impl ServerHandler for Handler {
    fn get_info(&self) -> InitializeResult {
        call::info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        call::versions()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let session = self.caller.session(&context.extensions, &context.peer);
        // Who asks is looked up now, while the CLI works (the OS's socket and process tables:
        // ~10 ms here, more with many processes), not on its first openDiff's path.
        self.caller.client(&session, &context.extensions).await;
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
        let session = self.caller.session(&context.extensions, &context.peer);
        let result = match request.name.as_ref() {
            "openDiff" => {
                let client = self.caller.client(&session, &context.extensions).await;
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
