//! Which local process is on the other end of a TCP connection, and what it is (program,
//! version, working directory, terminal): a review names the CLI that really asked, not the MCP
//! client name (Gemini CLI and Qwen Code both say `streamable-http-client`). Protocol-agnostic:
//! it needs only the connection's two addresses.

use crate::clients::Cli;
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use sysinfo::{Pid, Process, ProcessRefreshKind, ProcessesToUpdate, System, UpdateKind};
use ts_rs::TS;

/// What a process of another user is called. In practice it is a container's (the Copilot
/// container socket hands over its host PID); its command line, environment and files are its
/// owner's to choose, so none of them is looked at.
pub const OTHER_USER: &str = "a process in a container";

/// The process that asked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PeerProcess {
    pub pid: u32,
    /// `Gemini CLI`, `Qwen Code`, `Claude Code`, or the program's own name.
    pub program: String,
    pub version: Option<String>,
    pub cwd: Option<String>,
    /// The controlling terminal, e.g. `/dev/pts/3`.
    pub tty: Option<String>,
    /// `session:window.pane` when it runs in tmux.
    pub tmux: Option<String>,
}

impl PeerProcess {
    /// A short label: `Gemini CLI 0.61.0 · tmux main:1.0`.
    pub fn label(&self) -> String {
        let mut out = self.program.clone();
        if let Some(v) = &self.version {
            out.push(' ');
            out.push_str(v);
        }
        match (&self.tmux, &self.tty) {
            (Some(t), _) => out.push_str(&format!(" · tmux {t}")),
            (None, Some(tty)) => out.push_str(&format!(" · {tty}")),
            _ => {}
        }
        out
    }
}

/// Both ends of a TCP connection; the accept loop puts them in each request's extensions, for
/// any protocol's handler to find the process behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoints {
    pub local: SocketAddr,
    pub peer: SocketAddr,
}

/// Finds the process behind a connection; injected so tests can feed it.
pub trait PeerLookup: Send + Sync + 'static {
    /// The process holding the client end of a connection whose server end is `local` and
    /// client end is `peer`.
    fn lookup(&self, local: SocketAddr, peer: SocketAddr) -> Option<PeerProcess>;
}

/// The longest a connection waits to learn who is behind it. Reads no longer block and tmux has a
/// deadline of its own, but the peer's script may sit on a filesystem the peer serves itself
/// (FUSE): the connection then goes on unnamed, and only that lookup's blocking thread waits.
pub const LOOKUP: Duration = Duration::from_secs(5);

/// Looks up the process behind `ends` off the async runtime: it reads the OS's socket and
/// process tables. Every protocol names its CLI through this.
pub async fn find(peers: std::sync::Arc<dyn PeerLookup>, ends: Endpoints) -> Option<PeerProcess> {
    off_runtime(LOOKUP, move || peers.lookup(ends.local, ends.peer))
        .await
        .flatten()
}

pub(crate) use super::lookups::off_runtime;
pub use super::lookups::LOOKUPS_AT_ONCE;

/// The operating system's sockets and process table.
pub struct OsPeers;

impl PeerLookup for OsPeers {
    fn lookup(&self, local: SocketAddr, peer: SocketAddr) -> Option<PeerProcess> {
        let pid = super::tcp_owner::socket_owner(local, peer)?;
        Some(describe(pid))
    }
}

/// What describing a process may run, and how long each program may take: the tmux client it
/// asks for a pane's name. Tests inject one that never answers.
#[derive(Debug, Clone)]
pub struct Describer {
    pub tmux: OsString,
    pub deadline: Duration,
}

impl Default for Describer {
    fn default() -> Self {
        Describer {
            tmux: "tmux".into(),
            deadline: Duration::from_secs(2),
        }
    }
}

/// What the process is, from its command line, working directory, environment and terminal.
pub fn describe(pid: u32) -> PeerProcess {
    describe_with(pid, &Describer::default())
}

/// [`describe`], running what `probe` names. A process of another user is named
/// [`OTHER_USER`] and not looked into.
pub fn describe_with(pid: u32, probe: &Describer) -> PeerProcess {
    let mut sys = System::new();
    let spid = Pid::from_u32(pid);
    let mut out = PeerProcess {
        pid,
        ..PeerProcess::default()
    };
    match same_user(&mut sys, spid) {
        None => {
            out.program = format!("process {pid}");
            return out;
        }
        Some(false) => {
            out.program = OTHER_USER.to_owned();
            return out;
        }
        Some(true) => {}
    }
    sys.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[spid]),
        true,
        ProcessRefreshKind::nothing()
            .with_cmd(UpdateKind::Always)
            .with_cwd(UpdateKind::Always)
            .with_environ(UpdateKind::Always)
            .with_exe(UpdateKind::Always),
    );
    let Some(p) = sys.process(spid) else {
        out.program = format!("process {pid}");
        return out;
    };
    let cwd = p.cwd().map(Path::to_path_buf);
    out.cwd = cwd.as_ref().map(|c| c.to_string_lossy().into_owned());
    (out.program, out.version) = program(p, cwd.as_deref());
    out.tty = tty_of(pid);
    if let (Some(tmux), Some(pane)) = (environ(p, "TMUX"), environ(p, "TMUX_PANE")) {
        out.tmux = Some(tmux_pane(probe, &tmux, &pane).unwrap_or(pane));
    }
    out
}

/// Whether the process runs as this one's user (`None`: there is no such process). Only the
/// owners are read: nothing else of another user's process is.
fn same_user(sys: &mut System, spid: Pid) -> Option<bool> {
    let own = sysinfo::get_current_pid().ok();
    let mut both: Vec<Pid> = own.into_iter().chain([spid]).collect();
    both.dedup();
    sys.refresh_processes_specifics(
        ProcessesToUpdate::Some(&both),
        true,
        ProcessRefreshKind::nothing().with_user(UpdateKind::Always),
    );
    let p = sys.process(spid)?;
    let me = own.and_then(|own| sys.process(own));
    Some(me.is_some_and(|me| {
        me.user_id().is_some()
            && p.user_id() == me.user_id()
            && p.effective_user_id() == me.effective_user_id()
    }))
}

/// The program's name and version: a known CLI's package among its arguments (a script path,
/// relative to `cwd`), else its executable's name, a CLI's native build named as that CLI.
fn program(p: &Process, cwd: Option<&Path>) -> (String, Option<String>) {
    let args: Vec<PathBuf> = p.cmd().iter().map(PathBuf::from).collect();
    let known = args.iter().find_map(|a| {
        let script = if a.is_absolute() {
            a.clone()
        } else {
            cwd?.join(a)
        };
        let package = crate::platform::package::of(&script)?;
        let cli = Cli::of_package(&package.name)?;
        Some((cli.name, package.version))
    });
    if let Some((program, version)) = known {
        return (program.to_owned(), Some(version));
    }
    let exe_name = p
        .exe()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    let program = exe_name.unwrap_or_else(|| p.name().to_string_lossy().into_owned());
    // A CLI's native build: a single executable, no package.json.
    match Cli::of_program(&program) {
        Some(cli) => (cli.name.into(), None),
        None => (program, None),
    }
}

/// The value of `key` in the process's environment.
fn environ(p: &Process, key: &str) -> Option<String> {
    p.environ().iter().find_map(|kv| {
        let kv = kv.to_string_lossy();
        let (k, v) = kv.split_once('=')?;
        (k == key).then(|| v.to_owned())
    })
}

/// `session:window.pane` for a pane, asked of the tmux server the process's `TMUX` names: only a
/// socket of this user's (another's server is not ours to ask), and within the probe's deadline.
fn tmux_pane(probe: &Describer, tmux: &str, pane: &str) -> Option<String> {
    let socket = tmux.split(',').next().filter(|s| !s.is_empty())?;
    if !own_socket(Path::new(socket)) {
        return None;
    }
    let mut command = std::process::Command::new(&probe.tmux);
    command
        .args(["-S", socket, "display-message", "-p", "-t", pane])
        .arg("#{session_name}:#{window_index}.#{pane_index}");
    let out = crate::platform::child::output(command, probe.deadline)?;
    let text = String::from_utf8(out).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// Whether `path` is a unix socket (not a symlink to one) owned by this process's user.
#[cfg(unix)]
fn own_socket(path: &Path) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let me = crate::platform::own_user::own_uid();
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket() && m.uid() == me)
}

#[cfg(not(unix))]
fn own_socket(_path: &Path) -> bool {
    false
}

#[cfg(target_os = "linux")]
fn tty_of(pid: u32) -> Option<String> {
    (0..3).find_map(|fd| {
        let target = std::fs::read_link(format!("/proc/{pid}/fd/{fd}")).ok()?;
        let s = target.to_string_lossy().into_owned();
        (s.starts_with("/dev/pts/") || s.starts_with("/dev/tty")).then_some(s)
    })
}

#[cfg(not(target_os = "linux"))]
fn tty_of(_pid: u32) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_program_version_and_terminal() {
        let mut p = PeerProcess {
            pid: 1,
            program: "Gemini CLI".into(),
            version: Some("0.61.0".into()),
            tty: Some("/dev/pts/3".into()),
            ..PeerProcess::default()
        };
        assert_eq!(p.label(), "Gemini CLI 0.61.0 · /dev/pts/3");
        p.tmux = Some("main:1.0".into());
        assert_eq!(p.label(), "Gemini CLI 0.61.0 · tmux main:1.0");
    }
}
