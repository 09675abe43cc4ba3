//! What the review window and the core say to each other: one JSON object per line, both ways,
//! over a control connection handed off with `{"cmd":"window"}` (docs/window.md).
//!
//! Everything the window shows comes over this channel: it never reads a workspace's files, so
//! the same channel could serve a window on another machine (an SSH-forwarded socket).

use crate::api::fault::Fault;
use crate::review::{Detail, Resolved};
pub use crate::surfaces::action::Call;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The longest line the window may send: an accepted or edited text, JSON-escaped, as the
/// control channel's own bound.
pub const MAX_UP_LINE: u64 = crate::runtime::control::MAX_REQUEST_BYTES;

/// The longest line the core sends: an action's reply, as on the control channel.
pub const MAX_DOWN_LINE: u64 = crate::runtime::control::MAX_REPLY_BYTES;

/// A line from the window to the core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Up {
    /// An action of the page's or the window's (`surfaces::action`, `Reach::Window` or
    /// below), answered with a `Down::Reply` of the same `id`.
    Call { id: u64, call: Call },
    /// The page loaded: the window can show a review now (a window that never says so did not
    /// start).
    Ready,
    /// The window was shown or hidden (by the user, or as asked).
    Visible { visible: bool },
}

/// A line from the core to the window. `D` and `R` are the review's detail and its resolution:
/// the core writes its own types; a window that only passes them to its page may read them as
/// JSON values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Down<D = Detail, R = Resolved> {
    /// The answer to the `Up::Call` with this `id`.
    Reply {
        id: u64,
        answer: Returned,
    },
    Added {
        review: D,
    },
    Updated {
        review: D,
    },
    Resolved {
        resolved: R,
    },
    /// Show the window; with `focus`, take the keyboard too.
    Show {
        focus: bool,
    },
    /// A workspace was added, removed or switched (by a command or the tray): the welcome
    /// page's check is out of date.
    WorkspacesChanged,
    /// Redline is quitting: end the window process.
    Quit,
}

/// A call's outcome: its value, or the fault the page shows (`{code, message}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Returned {
    Ok(Value),
    Error(Fault),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_reads_back_as_it_was_written() {
        let up = Up::Call {
            id: 7,
            call: Call::ReviewAccept(crate::surfaces::action::ReviewAccept {
                id: 3,
                revision: Some(2),
                content: Some("a\r\nb".into()),
            }),
        };
        let line = serde_json::to_string(&up).unwrap();
        assert_eq!(
            line,
            r#"{"kind":"call","id":7,"call":{"cmd":"reviewAccept","id":3,"revision":2,"content":"a\r\nb"}}"#
        );
        assert_eq!(serde_json::from_str::<Up>(&line).unwrap(), up);
    }

    #[test]
    fn a_window_reads_the_cores_events_as_plain_values() {
        let down: Down<Value, Value> =
            serde_json::from_str(r#"{"kind":"resolved","resolved":{"id":1,"outcome":"accepted"}}"#)
                .unwrap();
        assert_eq!(
            down,
            Down::Resolved {
                resolved: serde_json::json!({"id":1,"outcome":"accepted"})
            }
        );
    }
}
