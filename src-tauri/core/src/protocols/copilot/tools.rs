//! The tools Copilot CLI calls (`open_diff`, `close_diff`, `update_session_name`, and the model's
//! `get_selection` and `get_diagnostics`), one handler per session, apart from the transport.

use crate::protocols::copilot::sessions::CopilotSessions;
use crate::protocols::mcp_http::call::{self, args, done, failed, tool};
use crate::protocols::mcp_http::caller::Caller;
use crate::protocols::mcp_http::site::Site;
use crate::review::service::Ask;
use crate::review::{ClientInfo, Outcome, Reply, Review, ReviewId};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    InitializeResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{RoleServer, ServerHandler};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::oneshot;

/// A session title longer than this is cut: it is shown, not parsed.
const MAX_SESSION_NAME: usize = 200;

/// What the review window says about a Copilot CLI proposal: SAVED makes Copilot CLI write its
/// own text, so edits made here could never reach the file.
pub const READ_ONLY: &str = "Copilot CLI writes its own proposal: edits here can't be sent back.";

/// One Copilot CLI session's handler.
pub struct Handler {
    caller: Caller<CopilotSessions>,
    /// Open reviews by the tab name Copilot CLI gave them, for `close_diff`; the review quota
    /// bounds how many.
    tabs: Mutex<HashMap<String, ReviewId>>,
}

impl Handler {
    pub fn new(ws: Site<CopilotSessions>) -> Self {
        Handler {
            caller: Caller::new(ws),
            tabs: Mutex::default(),
        }
    }

    fn ws(&self) -> &Site<CopilotSessions> {
        &self.caller.ws
    }

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

/// Copilot CLI parses the first text block as JSON.
fn json_text(v: Value) -> CallToolResult {
    done(vec![ContentBlock::text(v.to_string())])
}

fn tools() -> Vec<Tool> {
    vec![
        tool::<OpenDiffArgs>(
            "open_diff",
            "Show a proposed file change for review; answers when the user decides: \
             {success, result: SAVED|REJECTED, trigger, message}.",
        ),
        tool::<TabArgs>(
            "close_diff",
            "Close a review the user answered in the terminal.",
        ),
        tool::<NameArgs>(
            "update_session_name",
            "The session's title, shown with its reviews.",
        ),
        tool::<Anything>(
            "get_selection",
            "The text the user selected in Redline's review window, if any.",
        ),
        tool::<Anything>("get_diagnostics", "Diagnostics: Redline has none."),
    ]
}

/// The `open_diff` answer for an outcome. Only SAVED and REJECTED exist: on SAVED Copilot CLI
/// writes its own proposal.
fn answer(outcome: Option<Outcome>) -> Value {
    let (result, trigger, message) = match outcome {
        Some(Outcome::Accepted) => ("SAVED", "accepted_in_redline", "Accepted in Redline"),
        Some(Outcome::Rejected) => ("REJECTED", "rejected_in_redline", "Rejected in Redline"),
        // The CLI's own close_diff: it already has its answer and ignores this one.
        Some(Outcome::Closed) => ("REJECTED", "closed_by_cli", "Closed by Copilot CLI"),
        Some(Outcome::Dismissed) | None => ("REJECTED", "dismissed", "The review was dismissed"),
    };
    json!({"success": true, "result": result, "trigger": trigger, "message": message})
}

impl Handler {
    /// Opens the review and waits for its end: the answer IS the decision.
    async fn open_diff(
        &self,
        session: String,
        client: ClientInfo,
        a: OpenDiffArgs,
    ) -> CallToolResult {
        let (tx, rx) = oneshot::channel::<Outcome>();
        let reply: Reply = Box::new(move |_: &Review, outcome| {
            let _ = tx.send(outcome);
        });
        let ask = Ask {
            session,
            client,
            original_from: Some(a.original_file_path.clone()),
            file_path: a.original_file_path,
            proposal: a.new_file_contents,
            read_only: Some(READ_ONLY.to_owned()),
        };
        let id = match self.ws().service.propose(ask, reply).await {
            Ok(id) => id,
            Err(e) => return failed(e),
        };
        self.tabs().insert(a.tab_name.clone(), id);
        // Dropped with the request (the CLI went): the session's end dismisses the review.
        let outcome = rx.await.ok();
        self.tabs().remove(&a.tab_name);
        json_text(answer(outcome))
    }

    fn close_diff(&self, a: TabArgs) -> CallToolResult {
        let open = self.tabs().remove(&a.tab_name);
        let closed = open.is_some_and(|id| self.ws().service.close(id).is_ok());
        json_text(json!({
            "success": true,
            "already_closed": !closed,
            "tab_name": a.tab_name,
            "message": if closed { "Review closed" } else { "No such review is open" },
        }))
    }

    fn update_session_name(&self, session: &str, a: NameArgs) -> CallToolResult {
        let name: String = a.name.chars().take(MAX_SESSION_NAME).collect();
        self.ws().sessions.set_session_name(session, name);
        json_text(json!({"success": true}))
    }

    fn get_selection(&self) -> CallToolResult {
        json_text(match self.ws().sessions.selection() {
            Some(Value::Object(mut sel)) => {
                sel.insert("success".into(), json!(true));
                Value::Object(sel)
            }
            _ => json!({"success": false, "message": "Nothing is selected in Redline"}),
        })
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
            "open_diff" => {
                let client = self.caller.client(&session, &context.extensions).await;
                self.open_diff(session, client, args(&request)?).await
            }
            "close_diff" => self.close_diff(args(&request)?),
            "update_session_name" => self.update_session_name(&session, args(&request)?),
            "get_selection" => self.get_selection(),
            "get_diagnostics" => json_text(json!([])),
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
