//! Claude Code's protocol: MCP (JSON-RPC 2.0) over a WebSocket, where `openDiff` blocks until the
//! user decides and its answer is the decision.

pub mod conn;
pub mod connections;
pub mod guard;
pub mod server;
pub mod session;
pub mod tools;
