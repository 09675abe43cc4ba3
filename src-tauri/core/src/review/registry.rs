//! How the workspace service reaches the CLIs of one protocol without knowing the protocol.

use crate::review::client::ClientInfo;
use crate::review::context::Context;
use crate::review::selection::{Mention, Span};

/// One protocol's registry of connected CLIs, as the workspace service sees it. Everything
/// crossing it is a domain value: each adapter's `wire` module shapes its protocol's messages.
pub trait Registry: Send + Sync {
    /// Who is connected, by session id, for status.
    fn list(&self) -> Vec<(String, ClientInfo)>;

    /// The workspace's context changed. Only protocols whose CLIs follow it send anything.
    fn push_context(&self, _context: &Context) {}

    /// The editor's selection (or its cursor, an empty one) changed in this workspace. Protocols
    /// whose CLIs follow a selection send it, debounced; the others learn it from `push_context`.
    fn push_selection(&self, _span: &Span) {}

    /// The editor that made `span` the selection is gone: a protocol that keeps the selection
    /// for its CLIs to ask for drops it, if it is still that one.
    fn forget_selection(&self, _span: &Span) {}

    /// The user pointed every CLI of the workspace at lines of a file on purpose.
    fn push_mention(&self, _mention: &Mention) {}

    /// Whether this registry owns `session` and its protocol can take a mention.
    fn can_mention(&self, _session: &str) -> bool {
        false
    }

    /// Points session `session` alone at `mention`: whether this registry owns the session and
    /// its protocol can take it.
    fn mention(&self, _session: &str, _mention: &Mention) -> bool {
        false
    }

    /// The user's selection in a review of session `session`: kept for the CLIs that ask for
    /// it, and sent to that session. Whether this registry owns the session and its protocol
    /// can take it.
    fn select(&self, _session: &str, _span: &Span) -> bool {
        false
    }
}
