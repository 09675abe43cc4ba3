//! The wire protocols, each an adapter over the workspace service: they never import each other.

pub mod jsonrpc;
pub(crate) mod mcp;
pub mod mcp_http;
pub mod mcp_ws;
