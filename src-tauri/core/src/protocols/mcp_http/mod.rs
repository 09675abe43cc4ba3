//! Gemini CLI's and Qwen Code's protocol: MCP over Streamable HTTP, with the decision sent later
//! as an `ide/diffAccepted` or `ide/diffRejected` notification on the session's GET stream.

pub mod envelope;
pub mod guard;
pub mod server;
pub mod session;
pub mod shared;
pub mod tools;
