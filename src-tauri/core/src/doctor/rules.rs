//! Each CLI's discovery rules as data, transcribed once from what the real clients do
//! (`clients.md`): where it looks, which files it reads, how it orders them, what it needs.

use crate::dirs::Dirs;
use crate::discovery;
use serde_json::Value;
use std::path::PathBuf;

/// How the CLI recognises its discovery files by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// `gemini-ide-server-<PID>-<PORT>.json`.
    GeminiPidPort,
    /// `<PORT>.lock` (a `<PID>-<PORT>.lock` is ignored).
    PortLock,
}

/// Where the owning process's PID comes from, and what the CLI does with a dead one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pid {
    /// From the file name; a dead PID only orders the file last.
    NameOrdersLast,
    /// From this JSON field; the CLI deletes a file whose PID is dead.
    FieldDeletesDead(&'static str),
}

/// Where the workspace roots are in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roots {
    /// One string, roots joined with the OS path delimiter.
    Joined(&'static str),
    /// An array of strings.
    Array(&'static str),
}

/// In which order the CLI tries the files that match its directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The PID from its own process tree (or `GEMINI_CLI_IDE_PID`) first, then live PIDs, then
    /// larger PIDs; among several matches the port in the port variable wins.
    ProcessTree { pid_var: &'static str },
    /// The port variable's file first (if its workspace matches), then newest first.
    PortVarThenNewest,
}

/// How IDE mode gets switched on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdeMode {
    /// `ide.enabled` in this settings file under the CLI's home (`/ide enable` writes it).
    Setting { file: &'static str },
    /// Connects only when asked: `/ide`, `--ide`, or `autoConnectIde` in its config.
    OnRequest,
}

/// Which host the CLI connects to inside a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerHost {
    /// Only `host.docker.internal`, unless one of these variables is set.
    DockerHostUnless(&'static [&'static str]),
    /// 127.0.0.1 first, then `host.docker.internal`.
    LoopbackFirst,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// MCP over Streamable HTTP at `/mcp`, `Authorization: Bearer`.
    Http,
    /// MCP over WebSocket, subprotocol `mcp`, header `X-Claude-Code-Ide-Authorization`.
    WebSocket,
}

/// A version of a CLI that cannot work with Redline, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownBad {
    /// Versions below this (dotted numbers) are affected.
    pub below: &'static str,
    pub why: &'static str,
}

#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Short id for scripts: `gemini`, `qwen`, `claude`.
    pub id: &'static str,
    pub name: &'static str,
    /// The command on PATH.
    pub binary: &'static str,
    /// The npm package whose `package.json` carries the version.
    pub package: &'static str,
    pub dir: fn(&Dirs) -> PathBuf,
    pub names: Names,
    pub pid: Pid,
    /// The CLI skips files not owned by its own uid.
    pub owner_only: bool,
    pub roots: Roots,
    pub order: Order,
    /// The variable that picks a server by port.
    pub port_var: &'static str,
    /// A file whose port equals `port_var` is eligible even if its workspace does not match.
    pub port_var_makes_eligible: bool,
    pub ide_mode: IdeMode,
    pub container: ContainerHost,
    pub transport: Transport,
    /// Whether a parsed file is Redline's.
    pub ours: fn(&Value) -> bool,
    /// The IDE a file names, for messages.
    pub ide_of: fn(&Value) -> Option<String>,
    pub token_field: &'static str,
    pub known_bad: &'static [KnownBad],
}

fn ide_info_name(v: &Value) -> Option<String> {
    v.pointer("/ideInfo/displayName")
        .or_else(|| v.pointer("/ideInfo/name"))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn ide_name_is_redline(v: &Value) -> bool {
    v.get("ideName")
        .and_then(Value::as_str)
        .is_some_and(|n| n.eq_ignore_ascii_case(crate::discovery::IDE_NAME))
}

fn ide_name(v: &Value) -> Option<String> {
    v.get("ideName").and_then(Value::as_str).map(str::to_owned)
}

pub const GEMINI: Rules = Rules {
    id: "gemini",
    name: "Gemini CLI",
    binary: "gemini",
    package: "@google/gemini-cli",
    dir: |d| d.gemini.clone(),
    names: Names::GeminiPidPort,
    pid: Pid::NameOrdersLast,
    owner_only: true,
    roots: Roots::Joined("workspacePath"),
    order: Order::ProcessTree {
        pid_var: "GEMINI_CLI_IDE_PID",
    },
    port_var: "GEMINI_CLI_IDE_SERVER_PORT",
    port_var_makes_eligible: false,
    ide_mode: IdeMode::Setting {
        file: ".gemini/settings.json",
    },
    container: ContainerHost::DockerHostUnless(&[
        "SSH_CONNECTION",
        "REMOTE_CONTAINERS",
        "VSCODE_REMOTE_CONTAINERS_SESSION",
    ]),
    transport: Transport::Http,
    ours: crate::discovery::announced_by_redline,
    ide_of: ide_info_name,
    token_field: "authToken",
    known_bad: &[],
};

pub const QWEN: Rules = Rules {
    id: "qwen",
    name: "Qwen Code",
    binary: "qwen",
    package: "@qwen-code/qwen-code",
    dir: |d| d.qwen.clone(),
    names: Names::PortLock,
    pid: Pid::FieldDeletesDead("ppid"),
    owner_only: false,
    roots: Roots::Joined("workspacePath"),
    order: Order::PortVarThenNewest,
    port_var: "QWEN_CODE_IDE_SERVER_PORT",
    port_var_makes_eligible: false,
    ide_mode: IdeMode::Setting {
        file: "settings.json",
    },
    container: ContainerHost::LoopbackFirst,
    transport: Transport::Http,
    ours: crate::discovery::announced_by_redline,
    ide_of: ide_info_name,
    token_field: "authToken",
    known_bad: &[],
};

pub const CLAUDE: Rules = Rules {
    id: "claude",
    name: "Claude Code",
    binary: "claude",
    package: "@anthropic-ai/claude-code",
    dir: |d| d.claude.clone(),
    names: Names::PortLock,
    pid: Pid::FieldDeletesDead("pid"),
    owner_only: false,
    roots: Roots::Array("workspaceFolders"),
    order: Order::PortVarThenNewest,
    port_var: "CLAUDE_CODE_SSE_PORT",
    port_var_makes_eligible: true,
    ide_mode: IdeMode::OnRequest,
    container: ContainerHost::LoopbackFirst,
    transport: Transport::WebSocket,
    ours: ide_name_is_redline,
    ide_of: ide_name,
    token_field: "authToken",
    known_bad: &[],
};

/// Every CLI doctor knows, in the order it reports them.
pub const ALL: [Rules; 3] = [GEMINI, QWEN, CLAUDE];

impl Names {
    /// The port (and the PID, for names that carry one) if the CLI would read a file so named.
    pub fn parse(self, file_name: &str) -> Option<(Option<u32>, u16)> {
        match self {
            Names::GeminiPidPort => {
                let (pid, port) = discovery::gemini_name(file_name)?;
                Some((pid.parse().ok(), port.parse().ok()?))
            }
            Names::PortLock => Some((None, discovery::lock_name(file_name)?.parse().ok()?)),
        }
    }
}

/// Compares dotted version numbers; anything that is not a number compares as 0.
pub fn version_below(version: &str, bound: &str) -> bool {
    let parts = |s: &str| -> Vec<u64> {
        s.split(['.', '-', '+'])
            .take(3)
            .map(|p| p.parse().unwrap_or(0))
            .collect()
    };
    let (mut a, mut b) = (parts(version), parts(bound));
    a.resize(3, 0);
    b.resize(3, 0);
    a < b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_as_each_cli_reads_them() {
        let g = Names::GeminiPidPort;
        assert_eq!(
            g.parse("gemini-ide-server-12-345.json"),
            Some((Some(12), 345))
        );
        assert_eq!(g.parse("gemini-ide-server-12.json"), None);
        assert_eq!(g.parse("gemini-ide-server-a-1.json"), None);
        let l = Names::PortLock;
        assert_eq!(l.parse("4000.lock"), Some((None, 4000)));
        assert_eq!(l.parse("12-4000.lock"), None, "the spec's name is ignored");
        assert_eq!(l.parse("99999.lock"), None, "not a port");
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(version_below("0.9.0", "0.10.0"));
        assert!(!version_below("0.10.0", "0.10.0"));
        assert!(!version_below("2.1.330", "2.1.0"));
        assert!(version_below("1.0.0-beta", "1.0.1"));
    }
}
