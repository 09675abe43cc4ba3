//! Copilot CLI's sessions: the HTTP session table, told of the selection (`selection_changed`)
//! and mentions (`add_selection`) rather than the whole context, which Copilot CLI does not
//! follow.

use crate::protocols::copilot::wire;
use crate::protocols::mcp_http::session::{sse_event, Sessions};
use crate::protocols::mcp_http::site::Audience;
use crate::review::registry::Registry;
use crate::review::selection::{Mention, Span};
use crate::review::service::Service;
use crate::review::ClientInfo;
use bytes::Bytes;
use std::sync::Mutex;

#[derive(Default)]
pub struct CopilotSessions {
    table: Sessions,
    /// The user's latest selection, in a review of these sessions or in their editor, for
    /// `get_selection`.
    selection: Mutex<Option<Span>>,
}

impl CopilotSessions {
    fn keep(&self, span: &Span) {
        *self.selection.lock().unwrap_or_else(|e| e.into_inner()) = Some(span.clone());
    }

    pub fn selection(&self) -> Option<Span> {
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

    /// The editor's selection, kept for `get_selection` and sent to every session.
    fn push_selection(&self, span: &Span) {
        self.keep(span);
        self.table.broadcast(sse_event(
            "selection_changed",
            wire::selection_changed(span),
        ));
    }

    fn forget_selection(&self, span: &Span) {
        let mut kept = self.selection.lock().unwrap_or_else(|e| e.into_inner());
        if kept.as_ref() == Some(span) {
            *kept = None;
        }
    }

    /// Copilot CLI takes a mention into its prompt as `add_selection`.
    fn push_mention(&self, mention: &Mention) {
        self.table
            .broadcast(sse_event("add_selection", wire::add_selection(mention)));
    }

    /// A selection in one of the session's reviews: kept for `get_selection` and sent to that
    /// session; false if it is gone.
    fn select(&self, session: &str, span: &Span) -> bool {
        if self.table.client(session).is_none() {
            return false;
        }
        self.keep(span);
        self.table.notify(
            session,
            sse_event("selection_changed", wire::selection_changed(span)),
        );
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::selection::Selection;

    #[test]
    fn a_selection_goes_to_a_live_session_and_is_kept_and_none_to_a_gone_one() {
        let s = CopilotSessions::default();
        s.table.register("a", ClientInfo::default());
        let (_, mut rx) = s.table.attach("a");
        let span = Span {
            path: "/ws/a.txt".into(),
            selection: Selection {
                start_line: 0,
                start_character: 0,
                end_line: 0,
                end_character: 1,
            },
            text: "x".into(),
            ranges: Vec::new(),
        };
        assert!(!s.select("gone", &span), "no such session");
        assert_eq!(s.selection(), None, "nothing kept for a gone session");
        assert!(s.select("a", &span));
        let sent = rx.try_recv().unwrap();
        let sent = std::str::from_utf8(&sent).unwrap();
        assert!(sent.contains("\"method\":\"selection_changed\""), "{sent}");
        assert_eq!(s.selection(), Some(span));
    }
}
