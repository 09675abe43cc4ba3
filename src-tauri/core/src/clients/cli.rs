//! What a CLI is, as data: the shape each file of `clients/` fills in (where it looks for the
//! discovery file, how it connects, what containers and doctor need to know).

use super::format::Format;
use std::path::{Path, PathBuf};

/// One CLI.
#[derive(Debug, Clone, Copy)]
pub struct Cli {
    /// Short id for scripts and directory names: `gemini`, `qwen`, `claude`.
    pub id: &'static str,
    pub name: &'static str,
    /// The command on PATH.
    pub binary: &'static str,
    /// Its npm packages; the first one's `package.json` carries the version doctor reports.
    pub packages: &'static [&'static str],
    /// Executable names that are this CLI when it runs as a native build (no package.json).
    pub programs: &'static [&'static str],
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

/// A directory (or file) a CLI resolves: `var` if set, else `default` under `base`; then `sub`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// The variable that overrides the CLI's home, e.g. `QWEN_HOME`.
    pub var: Option<&'static str>,
    pub base: Base,
    /// `/`-separated, under `base`; empty for `base` itself.
    pub default: &'static str,
    /// `/`-separated, under the resolved home.
    pub sub: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The user's home directory.
    Home,
    /// Node's `os.tmpdir()`.
    NodeTmpdir,
}

/// Where a container's CLI has Node's `os.tmpdir()` (unless the image sets `TMPDIR`).
pub const CONTAINER_TMPDIR: &str = "/tmp";

impl Location {
    /// The path on this machine, for a home directory, Node's tmpdir and the set variables.
    pub fn resolve(
        &self,
        home: &Path,
        tmp: &Path,
        var: &dyn Fn(&str) -> Option<PathBuf>,
    ) -> PathBuf {
        let base = self.var.and_then(var).unwrap_or_else(|| {
            let root = match self.base {
                Base::Home => home,
                Base::NodeTmpdir => tmp,
            };
            join(root, self.default)
        });
        join(&base, self.sub)
    }

    /// The path inside a container whose home is `home`, as a string (the host may be Windows).
    pub fn in_container(&self, home: &str) -> String {
        let root = match self.base {
            Base::Home => home.trim_end_matches('/'),
            Base::NodeTmpdir => CONTAINER_TMPDIR,
        };
        [root, self.default, self.sub]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("/")
    }
}

fn join(base: &Path, rel: &str) -> PathBuf {
    rel.split('/')
        .filter(|p| !p.is_empty())
        .fold(base.to_path_buf(), |p, part| p.join(part))
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

impl Cli {
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
