//! Copilot CLI's sessions as the workspace service reaches them: they follow a selection
//! (`selection_changed`) and take a mention into the prompt (`add_selection`), not the context.

use crate::protocols::copilot::wire;
use crate::protocols::mcp_http::session::{sse_event, Sessions};
use crate::review::registry::Registry;
use crate::review::selection::{Mention, Span};
use crate::review::ClientInfo;
use std::sync::Arc;

/// The MCP-over-HTTP app's sessions that Copilot CLI's socket serves.
pub struct CopilotSessions(pub Arc<Sessions>);

impl Registry for CopilotSessions {
    fn list(&self) -> Vec<(String, ClientInfo)> {
        self.0.list()
    }

    /// The editor's selection, kept for `get_selection` and sent to every session.
    fn push_selection(&self, span: &Span) {
        self.0.remember_selection(span);
        self.0.broadcast(sse_event(
            "selection_changed",
            wire::selection_changed(span),
        ));
    }

    /// Copilot CLI takes a mention into its prompt as `add_selection`.
    fn push_mention(&self, mention: &Mention) {
        self.0
            .broadcast(sse_event("add_selection", wire::add_selection(mention)));
    }

    /// A selection in one of the session's reviews: kept for `get_selection` and sent to that
    /// session; false if it is gone.
    fn select(&self, session: &str, span: &Span) -> bool {
        if self.0.client(session).is_none() {
            return false;
        }
        self.0.remember_selection(span);
        self.0.notify(
            session,
            sse_event("selection_changed", wire::selection_changed(span)),
        );
        true
    }
}
