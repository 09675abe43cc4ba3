//! The wire protocols, each an adapter over the workspace service: they never import each other
//! (Copilot CLI's reuses the MCP-over-HTTP app with tools of its own).

pub mod amp_ws;
pub mod codex_ipc;
pub mod copilot;
pub mod hook;
pub mod jsonrpc;
pub(crate) mod mcp;
pub mod mcp_http;
pub mod mcp_ws;
pub(crate) mod selection_changed;
