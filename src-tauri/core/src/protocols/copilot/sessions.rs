//! Copilot CLI's sessions: the HTTP session table, told of the selection (`selection_changed`)
//! and mentions (`add_selection`) rather than the whole context, which Copilot CLI does not
//! follow.

use crate::protocols::mcp_http::session::{sse_event, Sessions};
use crate::protocols::mcp_http::site::Audience;
use crate::review::editor::{Mention, Span};
use crate::review::registry::Registry;
use crate::review::selection;
use crate::review::service::Service;
use crate::review::ClientInfo;
use bytes::Bytes;
use serde_json::Value;
use std::sync::Mutex;

#[derive(Default)]
pub struct CopilotSessions {
    table: Sessions,
    /// The user's latest selection in a review of these sessions, as `selection_changed` params,
    /// for `get_selection`.
    selection: Mutex<Option<Value>>,
}

impl CopilotSessions {
    fn keep(&self, params: &Value) {
        *self.selection.lock().unwrap_or_else(|e| e.into_inner()) = Some(params.clone());
    }

    /// Records the user's selection and sends it to session `id` as `selection_changed`; false
    /// if that session is gone.
    pub fn select(&self, id: &str, params: Value) -> bool {
        if self.table.client(id).is_none() {
            return false;
        }
        self.keep(&params);
        self.table
            .notify(id, sse_event("selection_changed", params));
        true
    }

    pub fn selection(&self) -> Option<Value> {
        self.selection
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Sets the title the CLI gave its session.
    pub fn set_session_name(&self, id: &str, name: String) {
        self.table.set_session_name(id, name);
    }
}

impl Audience for CopilotSessions {
    fn table(&self) -> &Sessions {
        &self.table
    }

    /// Copilot CLI takes no context: a stream that opens hears nothing first.
    fn greeting(&self, _: &Service) -> Option<Bytes> {
        None
    }
}

impl Registry for CopilotSessions {
    fn list(&self) -> Vec<(String, ClientInfo)> {
        self.table.clients()
    }

    /// Copilot CLI follows a selection (`selection_changed`, kept for `get_selection`).
    fn push_selection(&self, span: &Span) {
        let params = selection::of_span(span);
        self.keep(&params);
        self.table.broadcast(sse_event("selection_changed", params));
    }

    /// Copilot CLI takes a mention into its prompt as `add_selection`.
    fn push_mention(&self, mention: &Mention) {
        self.table.broadcast(sse_event(
            "add_selection",
            selection::of_mention_range(mention),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selection_goes_to_a_live_session_and_is_kept_and_none_to_a_gone_one() {
        let s = CopilotSessions::default();
        s.table.register("a", ClientInfo::default());
        let (_, mut rx) = s.table.attach("a");
        let params = serde_json::json!({"text": "x"});
        assert!(!s.select("gone", params.clone()), "no such session");
        assert_eq!(s.selection(), None, "nothing kept for a gone session");
        assert!(s.select("a", params.clone()));
        let sent = rx.try_recv().unwrap();
        let sent = std::str::from_utf8(&sent).unwrap();
        assert!(sent.contains("\"method\":\"selection_changed\""), "{sent}");
        assert_eq!(s.selection(), Some(params));
    }
}
