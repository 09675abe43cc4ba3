//! A remote machine as `redline remote list` and the tray show it: its link's state and its
//! reviews waiting here.

use serde::{Deserialize, Serialize};

/// Where a remote's link stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LinkState {
    /// Its first link is being made.
    Connecting,
    Connected,
    /// It was up and dropped: made again, with a backoff.
    Reconnecting,
    /// The command did not reach a Redline there (`reason` says why): tried again, with a
    /// backoff.
    Failed,
}

impl std::fmt::Display for LinkState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LinkState::Connecting => "connecting",
            LinkState::Connected => "connected",
            LinkState::Reconnecting => "reconnecting",
            LinkState::Failed => "failed",
        })
    }
}

/// A remote as `redline remote list --json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteInfo {
    pub name: String,
    /// The command that reaches its `redline bridge`.
    pub command: Vec<String>,
    pub state: LinkState,
    /// Why it is not connected (the last failure), when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Its reviews waiting here.
    pub pending: usize,
    /// What became of the last decision answered there, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_decision: Option<String>,
}
