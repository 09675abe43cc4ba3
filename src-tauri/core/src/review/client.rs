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
    /// A `redline` command (`redline propose`, `redline diff`) asked: `name` is the command, and
    /// `process` the program that ran it (a shell, a script), which is not itself who asked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub command: bool,
}

impl ClientInfo {
    /// Who asked, for people: the real program if known, else the MCP client's name.
    pub fn label(&self) -> String {
        let who = match (&self.process, self.command) {
            (Some(p), true) => format!("{} (run by {})", self.name, p.label()),
            (None, true) => self.name.clone(),
            (Some(p), false) => p.label(),
            (None, false) => format!("{} {}", self.name, self.version).trim().to_owned(),
        };
        match &self.session_name {
            Some(title) => format!("{who} · “{title}”"),
            None => who,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ClientInfo;
    use crate::platform::peer::PeerProcess;

    #[test]
    fn a_command_is_named_with_what_ran_it_never_as_the_shell_alone() {
        let shell = PeerProcess {
            pid: 1,
            program: "bash".into(),
            tty: Some("/dev/pts/3".into()),
            ..PeerProcess::default()
        };
        let mut client = ClientInfo {
            name: "redline propose".into(),
            version: "0.1.0".into(),
            process: Some(shell),
            command: true,
            ..ClientInfo::default()
        };
        assert_eq!(client.label(), "redline propose (run by bash · /dev/pts/3)");
        client.process = None;
        assert_eq!(client.label(), "redline propose");
    }
}
