//! What a CLI is, as data: the shape each file of `clients/` fills in (who it is; where it looks
//! for the discovery file, how it connects, what containers and doctor need to know).

use super::format::Format;
use super::hook_site::HookSite;
use super::location::Location;

/// One CLI: who it is, and each way Redline serves it, as fields of this one value.
#[derive(Debug, Clone, Copy)]
pub struct Cli {
    /// Short id for scripts and directory names (`gemini`, `qwen`, `claude`), and the argument
    /// of `redline hook ID` and `redline hooks install ID`.
    pub id: &'static str,
    pub name: &'static str,
    /// The command on PATH.
    pub binary: &'static str,
    /// Its npm packages; the first one's `package.json` carries the version doctor reports.
    pub packages: &'static [&'static str],
    /// Executable names that are this CLI when it runs as a native build (no package.json).
    pub programs: &'static [&'static str],
    /// The IDE protocol Redline serves it: `None` for a CLI Redline reviews only through its
    /// hook.
    pub ide: Option<Ide>,
    /// Its pre-edit hook, which runs `redline hook ID`: `None` for a CLI without one.
    pub hook: Option<HookSite>,
    /// How it reads an editor's context from Redline without an IDE protocol of its own.
    pub context: Option<ContextRoute>,
    /// What the user does once to connect it, in words (`code` in backticks): the welcome
    /// page's step 2 (`ui/src/clis.ts` is generated from it).
    pub connect: &'static str,
}

/// What a CLI that connects to Redline as its IDE needs: where it looks for the discovery file,
/// how it connects, what containers and doctor need to know.
#[derive(Debug, Clone, Copy)]
pub struct Ide {
    /// Which of Redline's servers it talks to.
    pub transport: Transport,
    /// The newest MCP revision (its date) Redline settles on with it: an `initialize` offering a
    /// later one gets this, and only revisions up to it are offered. Kept below a revision that
    /// would cost the CLI something Redline sends.
    pub mcp_revision: &'static str,
    /// Where it looks for discovery files, and their format.
    pub discovery: Discovery,
    pub container: Container,
    /// What `redline env` exports to pin it to one workspace.
    pub env: &'static [(&'static str, Pinned)],
    /// How doctor predicts what it does with its discovery directory.
    pub doctor: Doctor,
    /// Where it records each running session's folder, for a CLI that connects by itself only
    /// from a folder a discovery file lists exactly: Redline then writes one for that folder.
    pub sessions: Option<Location>,
}

/// How a CLI reads an editor's context from Redline through another CLI's way in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextRoute {
    /// Codex CLI's IDE socket (`/ide on`), which `protocols::codex_ipc` serves.
    CodexSocket,
    /// Claude Code's locks and WebSocket protocol, read as a client of its own (opencode's TUI).
    ClaudeLocks(ClaudeClient),
}

/// A CLI speaking Claude Code's WebSocket protocol, and how it reads what Redline sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaudeClient {
    /// The `clientInfo.name` it gives in `initialize`.
    pub client_name: &'static str,
    /// It shows the lines it is sent as an editor's, the first being 1 (`#2-4`), and reads a
    /// mentioned file from that line.
    pub one_based_lines: bool,
    /// It reads every range of a selection from `selection_changed`'s `ranges`, before the
    /// one-range fields.
    pub ranges: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Discovery {
    pub dir: Location,
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// MCP over Streamable HTTP at `/mcp`, `Authorization: Bearer`.
    Http,
    /// MCP over WebSocket, subprotocol `mcp`, header `X-Claude-Code-Ide-Authorization`.
    WebSocket,
    /// MCP over Streamable HTTP on a unix socket, announced by its path; the auth headers are
    /// whatever the lock says.
    UnixHttp,
    /// Amp's own JSON messages over WebSocket, the token in the URL's `auth` query.
    AmpWebSocket,
}

/// What a `redline env` variable is set to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pinned {
    /// The port of the server the CLI's transport uses.
    Port,
    WorkspacePath,
    AuthToken,
}

/// The CLI inside a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Container {
    /// Which host it connects to there.
    pub host: ContainerHost,
    /// A variable that names the host to connect to: `redline container args` sets it to
    /// `host.docker.internal`.
    pub host_var: Option<&'static str>,
}

/// Which host the CLI connects to inside a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerHost {
    /// Only `host.docker.internal`, unless one of these variables is set.
    DockerHostUnless(&'static [&'static str]),
    /// 127.0.0.1 first, then `host.docker.internal`.
    LoopbackFirst,
    /// No network at all: it reaches the socket the lock names, which must be mounted.
    SocketOnly,
    /// `localhost` only, with nothing to move it: a container's CLI cannot reach the host.
    LoopbackOnly,
}

/// What doctor needs to predict the CLI's choice, transcribed from `clients.md`.
#[derive(Debug, Clone, Copy)]
pub struct Doctor {
    /// The CLI skips files not owned by its own uid.
    pub owner_only: bool,
    /// The CLI drops a file whose PID (from the file's body) is dead.
    pub skips_dead_pid: bool,
    pub order: Order,
    /// A file whose port equals the port variable is eligible even if its workspace does not
    /// match.
    pub port_var_makes_eligible: bool,
    pub ide_mode: IdeMode,
    pub known_bad: &'static [KnownBad],
}

/// In which order the CLI tries the files that match its directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The PID from its own process tree (or `pid_var`) first, then live PIDs, then larger
    /// PIDs; among several matches the port in the port variable wins.
    ProcessTree { pid_var: &'static str },
    /// The port variable's file first (if its workspace matches), then newest first.
    PortVarThenNewest,
    /// The first live file (directory order) listing the directory itself: a parent folder
    /// does not match.
    ExactFolder,
    /// The file listing the directory itself, else the one whose folder holds it (or lies in
    /// it), the deepest first; the CLI connects by itself only when one alone matches.
    ExactThenOnlyHolder,
}

/// How IDE mode gets switched on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdeMode {
    /// `ide.enabled` in this settings file (`/ide enable` writes it).
    Setting { file: Location },
    /// Connects only when asked: `/ide`, `--ide`, or `autoConnectIde` in this file.
    OnRequest { file: Location },
    /// Connects by itself unless `ide.autoConnect` is false in this file; `/ide` connects by hand.
    AutoUnlessOff { file: Location },
    /// Always connects by itself (its interactive mode; a flag turns it off per run).
    Always,
}

/// A version of a CLI that cannot work with Redline, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownBad {
    /// Versions below this (dotted numbers) are affected.
    pub below: &'static str,
    pub why: &'static str,
}

impl Ide {
    /// Whether its CLI in a container can reach Redline on the host at all (a discovery
    /// directory is made and mounted for it).
    pub fn reaches_host_from_containers(&self) -> bool {
        self.container.host != ContainerHost::LoopbackOnly
    }

    /// The variable that picks a server by port, if the CLI has one.
    pub fn port_var(&self) -> Option<&'static str> {
        self.env
            .iter()
            .find(|(_, what)| *what == Pinned::Port)
            .map(|(k, _)| *k)
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
