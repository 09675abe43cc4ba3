//! Gemini CLI's and Qwen Code's protocol: MCP over Streamable HTTP, with the decision sent later
//! as an `ide/diffAccepted` or `ide/diffRejected` notification on the session's GET stream.

pub(crate) mod call;
pub(crate) mod caller;
pub(crate) mod envelope;
pub mod guard;
pub(crate) mod handler;
pub mod server;
pub(crate) mod session;
pub(crate) mod site;
pub(crate) mod tools;
pub(crate) mod wire;
