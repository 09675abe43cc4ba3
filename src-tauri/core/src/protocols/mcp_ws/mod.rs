//! Claude Code's protocol: MCP (JSON-RPC 2.0) over a WebSocket, where `openDiff` blocks until the
//! user decides and its answer is the decision.

pub(crate) mod conn;
pub(crate) mod connections;
pub mod guard;
pub(crate) mod server;
pub mod session;
mod tool_result;
pub(crate) mod tools;
pub(crate) mod wire;
