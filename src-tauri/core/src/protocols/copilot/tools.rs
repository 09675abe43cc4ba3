//! The tools Copilot CLI calls (`open_diff`, `close_diff`, `update_session_name`, and the model's
//! `get_selection` and `get_diagnostics`), each declared once for rmcp's tool router, apart
//! from the transport.

use crate::protocols::copilot::sessions::CopilotSessions;
use crate::protocols::mcp_http::call::{done, failed, schema, Args, Session};
use crate::protocols::mcp_http::caller;
use crate::protocols::mcp_http::handler::ToolSet;
use crate::protocols::mcp_http::site::Site;
use crate::review::service::Ask;
use crate::review::{Origin, Outcome, ReadOnly, Reply, Review, ReviewId};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, Extensions};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::oneshot;

/// A session title longer than this is cut: it is shown, not parsed.
const MAX_SESSION_NAME: usize = 200;

/// Copilot CLI's tools for one session.
pub struct Tools {
    ws: Site<CopilotSessions>,
    /// Open reviews by the tab name Copilot CLI gave them, for `close_diff`; the review quota
    /// bounds how many.
    tabs: Mutex<HashMap<String, ReviewId>>,
}

impl ToolSet for Tools {
    type Audience = CopilotSessions;

    fn new(ws: Site<CopilotSessions>) -> Self {
        Tools {
            ws,
            tabs: Mutex::default(),
        }
    }

    fn router() -> ToolRouter<Self> {
        Self::tool_router()
    }

    fn mcp_revision() -> &'static str {
        const REVISION: &str = crate::clients::COPILOT.mcp_revision();
        REVISION
    }
}

impl Tools {
    fn tabs(&self) -> std::sync::MutexGuard<'_, HashMap<String, ReviewId>> {
        self.tabs.lock().unwrap_or_else(|e| e.into_inner())
    }
}

// No doc comments on the argument types: they would become each schema's description.
#[derive(Deserialize, JsonSchema)]
struct OpenDiffArgs {
    /// Absolute path of the file (it may not exist yet)
    original_file_path: String,
    /// The whole proposed text of the file
    new_file_contents: String,
    /// The review's tab name
    tab_name: String,
}

#[derive(Deserialize, JsonSchema)]
struct TabArgs {
    /// The review's tab name
    tab_name: String,
}

#[derive(Deserialize, JsonSchema)]
struct NameArgs {
    /// The session's title
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Anything {}

/// `open_diff`'s answer. Only SAVED and REJECTED exist: on SAVED Copilot CLI writes its own
/// proposal.
#[derive(Serialize)]
struct Answer {
    success: bool,
    result: &'static str,
    trigger: &'static str,
    message: &'static str,
}

/// `close_diff`'s answer.
#[derive(Serialize)]
struct TabClosed {
    success: bool,
    already_closed: bool,
    tab_name: String,
    message: &'static str,
}

/// A bare success, or a failure the model reads.
#[derive(Serialize)]
struct Status {
    success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
}

/// Copilot CLI parses the first text block as JSON.
fn json_text<T: Serialize>(v: &T) -> CallToolResult {
    // Plain structs of strings and bools: serializing them cannot fail.
    done(vec![ContentBlock::text(
        serde_json::to_string(v).unwrap_or_default(),
    )])
}

impl Answer {
    fn of(outcome: Option<Outcome>) -> Self {
        let (result, trigger, message) = match outcome {
            Some(Outcome::Accepted) => ("SAVED", "accepted_in_redline", "Accepted in Redline"),
            Some(Outcome::Rejected) => ("REJECTED", "rejected_in_redline", "Rejected in Redline"),
            // The CLI's own close_diff: it already has its answer and ignores this one.
            Some(Outcome::Closed) => ("REJECTED", "closed_by_cli", "Closed by Copilot CLI"),
            Some(Outcome::Dismissed) | None => {
                ("REJECTED", "dismissed", "The review was dismissed")
            }
        };
        Answer {
            success: true,
            result,
            trigger,
            message,
        }
    }
}

#[tool_router]
impl Tools {
    /// Opens the review and waits for its end: the answer IS the decision.
    #[tool(
        name = "open_diff",
        description = "Show a proposed file change for review; answers when the user decides: \
                       {success, result: SAVED|REJECTED, trigger, message}.",
        input_schema = schema::<OpenDiffArgs>()
    )]
    async fn open_diff(
        &self,
        Args(a): Args<OpenDiffArgs>,
        Session(session): Session,
        extensions: Extensions,
    ) -> CallToolResult {
        let client = caller::client(&self.ws, &session, &extensions).await;
        let (tx, rx) = oneshot::channel::<Outcome>();
        let reply: Reply = Box::new(move |_: &Review, outcome| {
            let _ = tx.send(outcome);
        });
        let ask = Ask {
            origin: Origin::Cli { session },
            client,
            original_from: Some(a.original_file_path.clone()),
            file_path: a.original_file_path,
            proposal: a.new_file_contents,
            // SAVED makes Copilot CLI write its own text: edits made here could never reach
            // the file.
            read_only: Some(ReadOnly::CliWritesItsOwn {
                cli: "Copilot CLI".into(),
            }),
            reason_heard: false,
        };
        let id = match self.ws.service.propose(ask, reply).await {
            Ok(id) => id,
            Err(e) => return failed(e),
        };
        self.tabs().insert(a.tab_name.clone(), id);
        // Dropped with the request (the CLI went): the session's end dismisses the review.
        let outcome = rx.await.ok();
        self.tabs().remove(&a.tab_name);
        json_text(&Answer::of(outcome))
    }

    #[tool(
        name = "close_diff",
        description = "Close a review the user answered in the terminal.",
        input_schema = schema::<TabArgs>()
    )]
    fn close_diff(&self, Args(a): Args<TabArgs>) -> CallToolResult {
        let open = self.tabs().remove(&a.tab_name);
        let closed = open.is_some_and(|id| self.ws.service.close(id).is_ok());
        json_text(&TabClosed {
            success: true,
            already_closed: !closed,
            tab_name: a.tab_name,
            message: if closed {
                "Review closed"
            } else {
                "No such review is open"
            },
        })
    }

    #[tool(
        name = "update_session_name",
        description = "The session's title, shown with its reviews.",
        input_schema = schema::<NameArgs>()
    )]
    fn update_session_name(
        &self,
        Args(a): Args<NameArgs>,
        Session(session): Session,
    ) -> CallToolResult {
        let name: String = a.name.chars().take(MAX_SESSION_NAME).collect();
        self.ws.sessions.set_session_name(&session, name);
        json_text(&Status {
            success: true,
            message: None,
        })
    }

    #[tool(
        name = "get_selection",
        description = "The text the user selected in Redline's review window, if any.",
        input_schema = schema::<Anything>()
    )]
    fn get_selection(&self) -> CallToolResult {
        json_text(&super::wire::get_selection(
            self.ws.sessions.selection().as_ref(),
        ))
    }
    #[tool(
        name = "get_diagnostics",
        description = "Diagnostics: Redline has none.",
        input_schema = schema::<Anything>()
    )]
    fn get_diagnostics(&self) -> CallToolResult {
        json_text(&Vec::<Value>::new())
    }
}
