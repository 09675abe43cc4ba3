//! Who asked for a review: the CLI as it named itself, and the process found behind it.

use serde::Serialize;
use ts_rs::TS;

/// The CLI that asked: as it named itself in `initialize`, and the process that really did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
pub struct ClientInfo {
    pub name: String,
    pub version: String,
    /// The process on the other end of the connection, when it could be found.
    #[serde(default)]
    pub process: Option<crate::platform::peer::PeerProcess>,
    /// The title the CLI gave its session (Copilot CLI's `update_session_name`).
    #[serde(
        default,
        rename = "sessionName",
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(optional)]
    pub session_name: Option<String>,
}

impl ClientInfo {
    /// Who asked, for people: the real program if known, else the MCP client's name.
    pub fn label(&self) -> String {
        let who = match &self.process {
            Some(p) => p.label(),
            None => format!("{} {}", self.name, self.version).trim().to_owned(),
        };
        match &self.session_name {
            Some(title) => format!("{who} · “{title}”"),
            None => who,
        }
    }
}
