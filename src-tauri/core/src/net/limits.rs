//! Every bound a companion server holds to against slow, idle or greedy peers, in one place
//! (each is listed in docs/security.md). Any protocol's server takes the same `Limits`.

use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CLI sessions per workspace server. At the cap, a new session evicts the oldest one that
    /// has no notification stream open (a client that never came back); if every session has
    /// one, the new session is refused.
    pub max_sessions: usize,
    /// A session with no notification stream for this long is taken as gone and ended.
    pub streamless_session: Duration,
    /// Open connections per server; past it, new connections are closed at once.
    pub max_connections: usize,
    /// A request's head must arrive within this (slowloris). The wait for the next request on
    /// a kept-alive connection counts too, so an idle connection closes after it.
    pub header_read: Duration,
    /// A request's body must arrive within this once its head has.
    pub body_read: Duration,
    /// A bridge's heartbeat (`runtime::remote`).
    pub beat: Beat,
}

/// A bridge's heartbeat: a `ping` after `idle` without a line sent, and the link let go after
/// `dead` without a byte read. Bytes, not lines: a large review crossing a slow link is not
/// silence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beat {
    pub idle: Duration,
    pub dead: Duration,
}

impl Default for Beat {
    /// Within the 15 s a silent link must be noticed in (issue 40): `dead` plus the other
    /// side's check.
    fn default() -> Beat {
        Beat {
            idle: Duration::from_secs(4),
            dead: Duration::from_secs(10),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_sessions: 32,
            streamless_session: Duration::from_secs(60),
            max_connections: 256,
            header_read: Duration::from_secs(10),
            body_read: Duration::from_secs(30),
            beat: Beat::default(),
        }
    }
}

/// How long a connection Redline closes waits for its calls' answers to reach the peer; past
/// it the connection is dropped unanswered (a peer that stopped reading cannot hold a stop).
pub const DRAIN: Duration = Duration::from_secs(5);

/// How long one frame may wait for the peer to take it (its socket buffers full) before the
/// peer counts as gone: megabytes already wait in those buffers by then.
pub const PEER_SEND: Duration = Duration::from_secs(30);
