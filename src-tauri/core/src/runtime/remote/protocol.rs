//! What a desktop and a remote instance say over a bridge: one JSON object per line, both ways,
//! the window channel's vocabulary (`Call`, the review events) plus a hello, a snapshot,
//! decisions that are applied once by their id, and a heartbeat (docs/remote.md).

use crate::review::{Detail, Resolved};
use crate::runtime::window::message::Returned;
pub use crate::surfaces::action::Call;
use serde::{Deserialize, Serialize};

/// The bridge protocol's version: a peer with another one is refused at its hello.
pub const PROTOCOL: u32 = 1;

/// The longest line a desktop may send: an accepted or edited text, as the control channel's.
pub const MAX_FROM_DESKTOP: u64 = crate::runtime::control::MAX_REQUEST_BYTES;

/// The longest line the remote sends: a review or a reply, as the control channel's reply.
pub const MAX_TO_DESKTOP: u64 = crate::runtime::control::MAX_REPLY_BYTES;

/// Who speaks: each side's first line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hello {
    pub protocol: u32,
    /// The Redline version speaking.
    pub redline: String,
    /// This run of the speaking instance: a new value after a restart, so a decision made
    /// against another run is never applied to a review that reuses its number.
    pub instance: String,
    /// `std::env::consts::OS` and `ARCH`: whether the desktop's own build could run there.
    pub os: String,
    pub arch: String,
}

impl Hello {
    /// This process's hello, for the run `instance`.
    pub fn ours(instance: &str) -> Hello {
        Hello {
            protocol: PROTOCOL,
            redline: env!("CARGO_PKG_VERSION").to_owned(),
            instance: instance.to_owned(),
            os: std::env::consts::OS.to_owned(),
            arch: std::env::consts::ARCH.to_owned(),
        }
    }
}

/// A line from the desktop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum FromDesktop {
    Hello(Hello),
    /// An action marked `bridge` (`surfaces::action::list`), answered with a `Reply` of `id`.
    Call {
        id: u64,
        call: Call,
    },
    /// An accept or reject (`reviewAccept`, `reviewReject`) made against the remote's run
    /// `instance`, applied at most once by `decision` whichever link carries it (a desktop sends
    /// it again after a reconnect until it hears `Decided`).
    Decide {
        decision: String,
        instance: String,
        call: Call,
    },
    Ping,
    Pong,
}

/// What became of a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "result",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Fate {
    /// Applied now: the CLI is told.
    Applied,
    /// Applied when an earlier line carried it (the same decision sent again).
    AppliedBefore,
    /// Not applied: the review had ended otherwise, or the remote restarted since; `why`.
    Gone { why: String },
}

/// A line from the remote. `D` and `R` as the window channel's `Down`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ToDesktop<D = Detail, R = Resolved> {
    Hello(Hello),
    /// Every review pending when the link came up (after each hello): the desktop's copies
    /// follow it, the events after it.
    Snapshot {
        reviews: Vec<D>,
    },
    Reply {
        id: u64,
        answer: Returned,
    },
    Decided {
        decision: String,
        #[serde(flatten)]
        fate: Fate,
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
    WorkspacesChanged,
    Ping,
    Pong,
    /// The remote ends the link and says why (another protocol, no hello in time).
    Bye {
        why: String,
    },
}
