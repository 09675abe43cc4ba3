//! What every tool set served over MCP-over-HTTP shares (Gemini CLI's and Qwen Code's, Copilot
//! CLI's): the server's answer to `initialize`, a tool's schema, a call's arguments, a result.

use crate::error::Error;
use crate::protocols::mcp::{self, VERSIONS};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, ErrorData, InitializeResult,
    ProtocolVersion, ServerCapabilities, Tool,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// Redline's identity and its tools capability.
pub fn info() -> InitializeResult {
    InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
        .with_server_info(mcp::server_info())
}

pub fn versions() -> Cow<'static, [ProtocolVersion]> {
    Cow::Borrowed(VERSIONS)
}

pub fn tool<T: JsonSchema>(name: &'static str, description: &'static str) -> Tool {
    Tool::new(name, description, Arc::new(mcp::input_schema::<T>()))
}

/// The call's arguments as `T`; a misfit is the peer's fault (invalid params).
pub fn args<T: for<'de> Deserialize<'de> + JsonSchema>(
    params: &CallToolRequestParams,
) -> Result<T, ErrorData> {
    let value = Value::Object(params.arguments.clone().unwrap_or_default());
    mcp::args(&params.name, value).map_err(|f| ErrorData::invalid_params(f.message, None))
}

/// A tool that ran and failed: the user reads this in the CLI.
pub fn failed(e: Error) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(mcp::failure(&e))])
}

/// A success without `isError`, with `content` as given.
pub fn done(content: Vec<ContentBlock>) -> CallToolResult {
    let mut result = CallToolResult::default();
    result.content = content;
    result
}
