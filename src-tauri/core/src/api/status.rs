//! What `redline status`, the tray, doctor and `redline env` read of the running Redline.

use crate::platform::keyring::KeyringState;
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;
use std::path::PathBuf;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub pid: u32,
    pub keyring: KeyringStatus,
    pub workspaces: Vec<WorkspaceStatus>,
    /// The editors connected over `redline editor --stdio`, oldest first.
    #[serde(default)]
    pub editors: Vec<EditorChannel>,
    /// Why the review window cannot start, while it cannot (docs/window.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_problem: Option<String>,
    /// Codex CLI's IDE socket, and what Redline is on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codex_ide: Option<CodexIde>,
    /// The file Redline logs to, when it runs in the background (`redline` from a terminal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_file: Option<PathBuf>,
    /// The other machines whose reviews this one shows (`redline remote list`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remotes: Vec<crate::api::remote_info::RemoteInfo>,
}

/// Codex CLI's IDE socket (docs/editors.md): where, and what Redline is on it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CodexIde {
    pub path: PathBuf,
    pub role: CodexRole,
    /// Why it is not served, when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum CodexRole {
    /// Redline holds the socket; other programs join it.
    Router,
    /// Another program's router holds it; Redline answers behind it.
    Provider,
    NotServed,
}

impl CodexIde {
    pub fn new(path: PathBuf, role: CodexRole) -> CodexIde {
        CodexIde {
            path,
            role,
            why: None,
        }
    }

    pub fn not_served(path: PathBuf, why: String) -> CodexIde {
        CodexIde {
            path,
            role: CodexRole::NotServed,
            why: Some(why),
        }
    }
}

/// One editor channel (`redline editor --stdio`): which editor, since when, and the workspaces
/// that hold the files it last said were open.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct EditorChannel {
    /// The channel's number, unique while Redline runs.
    pub id: u64,
    /// The program that started `redline editor --stdio` (its parent): `nvim`, `vim`, `emacs`…
    pub editor: Option<crate::platform::peer::PeerProcess>,
    /// When the channel opened, in ms since the epoch.
    pub since: u64,
    pub workspaces: Vec<PathBuf>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct KeyringStatus {
    pub available: bool,
    pub detail: String,
}

impl From<&KeyringState> for KeyringStatus {
    fn from(s: &KeyringState) -> Self {
        KeyringStatus {
            available: s.available,
            detail: s.detail.clone(),
        }
    }
}

/// What pins a CLI in one terminal to a workspace's server.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Pin {
    pub port: u16,
    /// Claude Code's WebSocket port, for `CLAUDE_CODE_SSE_PORT`.
    #[serde(default)]
    pub ws_port: Option<u16>,
    pub workspace_path: String,
    pub auth_token: String,
}

/// A workspace's status for `redline status` and the tray.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceStatus {
    pub path: PathBuf,
    pub enabled: bool,
    /// The folder is gone: the workspace is not served until it is back or removed.
    #[serde(default)]
    pub missing: bool,
    pub port: Option<u16>,
    /// Claude Code's WebSocket port.
    #[serde(default)]
    pub ws_port: Option<u16>,
    /// Amp's WebSocket port.
    #[serde(default)]
    pub amp_port: Option<u16>,
    pub token_store: String,
    pub discovery_files: Vec<PathBuf>,
    pub discovery_failures: Vec<String>,
    /// Files Redline wrote that are no longer there as written (removed, or another file in
    /// their place), each with why: never listed in `discovery_files`.
    #[serde(default)]
    pub discovery_gone: Vec<String>,
    pub clients: Vec<ClientStatus>,
    pub pending_reviews: usize,
    /// `None`: containers are off for this workspace.
    #[serde(default)]
    pub containers: Option<ContainerStatus>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct ClientStatus {
    pub session: String,
    pub name: String,
    pub version: String,
    /// The process behind the session, once a review found it.
    #[serde(default)]
    pub process: Option<crate::platform::peer::PeerProcess>,
}

/// A workspace's container state, for `redline status` and the tray.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    /// Where the server listens for containers, when it does.
    pub address: Option<Ipv4Addr>,
    pub port: Option<u16>,
    /// Claude Code's WebSocket port there.
    #[serde(default)]
    pub ws_port: Option<u16>,
    /// Container paths mapped onto the workspace, besides its own.
    pub paths: Vec<String>,
    pub discovery_files: Vec<PathBuf>,
    /// Why containers cannot reach it now (no bridge, the address not on this host…).
    pub error: Option<String>,
}

impl ContainerStatus {
    /// Containers on for a workspace whose servers are not running: where they will listen.
    pub fn not_listening(address: Option<Ipv4Addr>, paths: Vec<String>) -> Self {
        ContainerStatus {
            address,
            port: None,
            ws_port: None,
            paths,
            discovery_files: vec![],
            error: None,
        }
    }
}

/// The answer to `ContainerEnable`: the workspace and its containers as they now stand.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ContainersOn {
    pub path: PathBuf,
    /// Whether the workspace's server runs (containers apply when it does).
    pub running: bool,
    pub containers: Option<ContainerStatus>,
}
