//! The MCP tools Gemini CLI and Qwen Code call (`openDiff`, `closeDiff`, `acceptDiff`,
//! `rejectDiff`), each declared once for rmcp's tool router, apart from the HTTP transport.

use crate::protocols::mcp_http::call::{done, failed, schema, Args, Session};
use crate::protocols::mcp_http::caller;
use crate::protocols::mcp_http::handler::ToolSet;
use crate::protocols::mcp_http::session::{sse_event, Sessions};
use crate::protocols::mcp_http::site::Site;
use crate::review::service::{Ask, Decision};
use crate::review::ReviewError;
use crate::review::{Outcome, Reply, Review};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, Extensions};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

/// Gemini CLI's and Qwen Code's tools for one session.
pub struct Tools {
    ws: Site<Sessions>,
}

impl ToolSet for Tools {
    type Audience = Sessions;

    fn new(ws: Site<Sessions>) -> Self {
        Tools { ws }
    }

    fn router() -> ToolRouter<Self> {
        Self::tool_router()
    }

    /// One server for both, which cannot tell them apart before `initialize`: the older of the
    /// two.
    fn mcp_revision() -> &'static str {
        const GEMINI: &str = crate::clients::GEMINI.mcp_revision();
        const QWEN: &str = crate::clients::QWEN.mcp_revision();
        GEMINI.min(QWEN)
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

#[tool_router]
impl Tools {
    /// A CLI in a container sends container paths: the service reads, confines and shows the
    /// host's file, and the notifications the CLI waits on keep its `filePath`.
    #[tool(
        name = "openDiff",
        description = "Open a review of a proposed change to a file. Answers at once; the decision \
                       arrives later as ide/diffAccepted or ide/diffRejected.",
        input_schema = schema::<OpenDiffArgs>()
    )]
    async fn open_diff(
        &self,
        Args(a): Args<OpenDiffArgs>,
        Session(session): Session,
        extensions: Extensions,
    ) -> CallToolResult {
        let client = caller::client(&self.ws, &session, &extensions).await;
        let reply = notify_session(Arc::downgrade(&self.ws.sessions), session.clone());
        let ask = Ask {
            origin: crate::review::Origin::Cli { session },
            client,
            original_from: Some(a.file_path.clone()),
            file_path: a.file_path,
            proposal: a.new_content,
            read_only: None,
            reason_heard: false,
        };
        match self.ws.service.propose(ask, reply).await {
            Ok(_) => done(vec![]),
            Err(e) => failed(e),
        }
    }

    #[tool(
        name = "closeDiff",
        description = "Close a review without a notification; returns {\"content\": <current edited text>}.",
        input_schema = schema::<CloseDiffArgs>()
    )]
    fn close_diff(
        &self,
        Args(a): Args<CloseDiffArgs>,
        Session(session): Session,
    ) -> CallToolResult {
        let Some(review) = self
            .ws
            .service
            .find(&session, &a.file_path)
            .filter(|r| r.origin.is_session(&session))
        else {
            return failed(ReviewError::NoOpenDiff(a.file_path));
        };
        match self.ws.service.close(review.id) {
            // The CLI parses this text as JSON; no notification may race the user's answer.
            Ok(review) => done(vec![ContentBlock::text(
                json!({"content": review.current}).to_string(),
            )]),
            Err(e) => failed(e),
        }
    }

    #[tool(
        name = "acceptDiff",
        description = "Accept a review as if the user had, with its current text.",
        input_schema = schema::<FileArgs>()
    )]
    fn accept_diff(&self, Args(a): Args<FileArgs>, Session(session): Session) -> CallToolResult {
        self.decide(&session, a, Decision::accept(None))
    }

    #[tool(
        name = "rejectDiff",
        description = "Reject a review as if the user had.",
        input_schema = schema::<FileArgs>()
    )]
    fn reject_diff(&self, Args(a): Args<FileArgs>, Session(session): Session) -> CallToolResult {
        self.decide(&session, a, Decision::reject())
    }
}

impl Tools {
    fn decide(&self, session: &str, a: FileArgs, decision: Decision) -> CallToolResult {
        let Some(review) = self.ws.service.find(session, &a.file_path) else {
            return failed(ReviewError::NoOpenDiff(a.file_path));
        };
        let verb = match decision {
            Decision::Accept { .. } => "accepted",
            Decision::Reject { .. } => "rejected",
        };
        match self.ws.service.decide(review.id, decision) {
            Ok(()) => done(vec![ContentBlock::text(format!("{verb} {}", a.file_path))]),
            Err(e) => failed(e),
        }
    }
}
