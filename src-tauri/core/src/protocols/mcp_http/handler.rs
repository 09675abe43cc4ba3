//! One session's rmcp handler for any tool set served over MCP-over-HTTP: Redline's identity, the
//! tools its router declares, and the faults a call can earn; the tool sets hold only their tools.

use crate::protocols::mcp_http::call::{self, Session};
use crate::protocols::mcp_http::caller::{self, Caller};
use crate::protocols::mcp_http::site::{Audience, Site};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{RoleServer, ServerHandler};
use std::borrow::Cow;

/// A protocol's tools, each declared once with rmcp's `#[tool]` in a `#[tool_router]` impl.
pub trait ToolSet: Send + Sync + Sized + 'static {
    /// The CLIs these tools serve: their sessions, and what they are told.
    type Audience: Audience;

    fn new(ws: Site<Self::Audience>) -> Self;
    fn router() -> ToolRouter<Self>;
    /// The newest MCP revision these CLIs are offered (their `Cli::mcp_revision`).
    fn mcp_revision() -> &'static str;
}

/// One CLI session's handler; rmcp makes one a session and drops it when the session ends.
///
/// Not `#[tool_handler]`: its `get_tool` would turn on rmcp's `Mcp-Param-*` header checks, and
/// it answers an unknown tool with "tool not found"; the CLIs have always had "unknown tool: …".
pub struct Handler<T: ToolSet> {
    caller: Caller<T::Audience>,
    tools: T,
    router: ToolRouter<T>,
}

impl<T: ToolSet> Handler<T> {
    pub fn new(ws: Site<T::Audience>) -> Self {
        Handler {
            tools: T::new(ws.clone()),
            caller: Caller::new(ws),
            router: T::router(),
        }
    }
}

impl<T: ToolSet> ServerHandler for Handler<T> {
    fn get_info(&self) -> InitializeResult {
        call::info(T::mcp_revision())
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        call::versions(T::mcp_revision())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let session = self.caller.session(&context.extensions, &context.peer);
        // Who asks is looked up now, while the CLI works (the OS's socket and process tables:
        // ~10 ms here, more with many processes), not on its first openDiff's path.
        caller::client(&self.caller.ws, &session, &context.extensions).await;
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult {
            tools: self.router.list_all(),
            ..ListToolsResult::default()
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.router.has_route(&request.name) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool: {}", request.name),
                None,
            ));
        }
        let session = self.caller.session(&context.extensions, &context.peer);
        context.extensions.insert(Session(session));
        self.router
            .call(ToolCallContext::new(&self.tools, request, context))
            .await
    }
}
