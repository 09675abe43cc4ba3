//! One session's rmcp handler for any tool set served over MCP-over-HTTP: Redline's identity, the
//! tools its router declares, and the faults a call can earn; the tool sets hold only their tools.

use crate::protocols::mcp_http::call;
use crate::protocols::mcp_http::caller::Caller;
use crate::protocols::mcp_http::shared::Shared;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{RoleServer, ServerHandler};
use std::borrow::Cow;

/// A protocol's tools, each declared once with rmcp's `#[tool]` in a `#[tool_router]` impl, and
/// the session's caller they act for.
pub trait ToolSet: Send + Sync + Sized + 'static {
    fn new(caller: Caller) -> Self;
    fn caller(&self) -> &Caller;
    fn router() -> ToolRouter<Self>;
}

/// One CLI session's handler; rmcp makes one a session and drops it when the session ends.
///
/// Not `#[tool_handler]`: its `get_tool` would turn on rmcp's `Mcp-Param-*` header checks, its
/// `list_tools` adds `resultType`, and its unknown tool answers "tool not found"; none of which
/// the CLIs have ever been sent.
pub struct Handler<T: ToolSet> {
    tools: T,
    router: ToolRouter<T>,
}

impl<T: ToolSet> Handler<T> {
    pub fn new(ws: Shared) -> Self {
        Handler {
            tools: T::new(Caller::new(ws)),
            router: T::router(),
        }
    }
}

impl<T: ToolSet> ServerHandler for Handler<T> {
    fn get_info(&self) -> InitializeResult {
        call::info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        call::versions()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let caller = self.tools.caller();
        let session = caller.session(&context.extensions, &context.peer);
        // Who asks is looked up now, while the CLI works (the OS's socket and process tables:
        // ~10 ms here, more with many processes), not on its first openDiff's path.
        caller.client(&session, &context.extensions).await;
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.router.has_route(&request.name) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool: {}", request.name),
                None,
            ));
        }
        self.router
            .call(ToolCallContext::new(&self.tools, request, context))
            .await
    }
}
