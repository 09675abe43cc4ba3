//! What every tool set served over MCP-over-HTTP shares (Gemini CLI's and Qwen Code's, Copilot
//! CLI's): the server's answer to `initialize`, a tool's schema, and what a tool is handed: its
//! arguments and the session it acts for.

use crate::error::Error;
use crate::protocols::mcp;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, InitializeResult, JsonObject, ProtocolVersion,
    ServerCapabilities,
};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::borrow::Cow;

/// Redline's identity and its tools capability, for CLIs that take up to `newest`. The revision
/// is what rmcp answers an `initialize` offering one it does not list; its default is its own
/// newest, which would be a 2026 revision were it not that one has no `initialize`.
pub fn info(newest: &str) -> InitializeResult {
    InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
        .with_server_info(mcp::server_info())
        .with_protocol_version(mcp::versions_up_to(newest)[0].clone())
}

/// The revisions offered to CLIs that take up to `newest`.
pub fn versions(newest: &str) -> Cow<'static, [ProtocolVersion]> {
    Cow::Borrowed(mcp::versions_up_to(newest))
}

/// A tool's input schema, for `#[tool(input_schema = …)]`: rmcp's own derivation adds a
/// meta-schema and a title the CLIs have never been shown.
pub fn schema<T: JsonSchema>() -> JsonObject {
    mcp::input_schema::<T>()
}

/// A tool that ran and failed: the user reads this in the CLI.
pub fn failed(e: impl Into<Error>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(mcp::failure(&e.into()))])
}

/// A success without `isError`, with `content` as given.
pub fn done(content: Vec<ContentBlock>) -> CallToolResult {
    let mut result = CallToolResult::default();
    result.content = content;
    result
}

/// A tool's arguments as `T`. A misfit is the peer's fault, a JSON-RPC invalid-params error that
/// names what the tool expects; rmcp's `Parameters` would answer it as a tool error quoting the
/// parser.
pub struct Args<T>(pub T);

impl<S, T: DeserializeOwned + JsonSchema> FromContextPart<ToolCallContext<'_, S>> for Args<T> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let value = Value::Object(context.arguments.take().unwrap_or_default());
        mcp::args(&context.name, value)
            .map(Args)
            .map_err(|f| ErrorData::invalid_params(f.message, None))
    }
}

/// The MCP session a call came on, as the handler found it before routing the call.
#[derive(Clone)]
pub struct Session(pub String);

impl<S> FromContextPart<ToolCallContext<'_, S>> for Session {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        context
            .request_context
            .extensions
            .get::<Session>()
            .cloned()
            .ok_or_else(|| ErrorData::internal_error("no session for this call", None))
    }
}
