//! How the workspace service reaches the CLIs of one protocol without knowing the protocol.

use crate::review::editor::{Mention, Span};
use crate::review::ClientInfo;
use serde_json::Value;

/// One protocol's registry of connected CLIs, as the workspace service sees it.
pub trait Registry: Send + Sync {
    /// Who is connected, by session id, for status.
    fn list(&self) -> Vec<(String, ClientInfo)>;

    /// The workspace's context changed. Only protocols whose CLIs follow it send anything.
    fn push_context(&self, _context: &Value) {}

    /// The editor's selection (or its cursor, an empty one) changed in this workspace. Protocols
    /// whose CLIs follow a selection (Claude Code's `selection_changed`, Copilot CLI's) send it,
    /// debounced; the others learn it from `push_context`.
    fn push_selection(&self, _span: &Span) {}

    /// The user pointed the CLIs at lines of a file on purpose (Claude Code's `at_mentioned`).
    fn push_mention(&self, _mention: &Mention) {}

    /// The token was rotated. Only connections authenticated once (at an upgrade) with the old
    /// token must go; a protocol that checks every request has nothing to do.
    fn close_all(&self) {}
}
