//! What doctor looks at: the directory, environment, directories, processes and the running
//! Redline, injected so tests feed fixtures.

use crate::api::status::Status;
use crate::clients::{self, Served};
use crate::platform::dirs::Dirs;
use crate::platform::process::ProcessTable;
use crate::workspace::config::Config;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Overrides how doctor decides it runs in a container (`1` yes, `0` no).
pub const CONTAINER_VAR: &str = "REDLINE_CONTAINER";

/// Everything doctor looks at, injected so tests feed it fixture directories.
pub struct Facts {
    /// The directory the CLI would start in, canonical.
    pub dir: PathBuf,
    /// The environment of the shell the CLI would start from.
    pub env: HashMap<String, String>,
    /// The CLIs' directories as that environment resolves them.
    pub dirs: Dirs,
    /// The user the CLI would run as.
    pub uid: Option<u32>,
    pub procs: Arc<dyn ProcessTable>,
    /// The PIDs above this process (shell, terminal, …): where Gemini CLI looks for its IDE.
    pub ancestors: Vec<u32>,
    /// `/` normally; where `/.dockerenv` and `/run/.containerenv` are looked for.
    pub root: PathBuf,
    /// The running Redline's status; `None` when none answers.
    pub redline: Option<Status>,
    /// The config on disk, for when no Redline runs.
    pub config: Config,
    pub case_insensitive: bool,
    /// Which CLIs to check (normally `clients::served()`).
    pub clis: Vec<Served>,
}

impl Facts {
    pub fn var(&self, k: &str) -> Option<&str> {
        self.env
            .get(k)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    /// Facts about this machine, this process and its environment.
    pub fn from_os(dir: PathBuf, redline: Option<Status>, config: Config) -> Facts {
        let env: HashMap<String, String> = std::env::vars().collect();
        Facts {
            dirs: Dirs::resolve(&env),
            env,
            dir,
            uid: own_uid(),
            procs: Arc::new(crate::platform::process::OsProcessTable),
            ancestors: crate::platform::process::ancestors(crate::platform::process::own_pid()),
            root: PathBuf::from("/"),
            redline,
            config,
            case_insensitive: cfg!(any(windows, target_os = "macos")),
            clis: clients::served().collect(),
        }
    }

    /// Whether this is a container: `REDLINE_CONTAINER=1` or `0` says so where the marker
    /// files lie (a container without them, or a host with a stray one).
    pub(super) fn in_container(&self) -> bool {
        match self.var(CONTAINER_VAR) {
            Some("1") => return true,
            Some("0") => return false,
            _ => {}
        }
        self.root.join(".dockerenv").exists() || self.root.join("run/.containerenv").exists()
    }

    /// The command that starts Redline here: the desktop app where there is a display.
    pub(super) fn start_command(&self) -> String {
        let display = cfg!(any(windows, target_os = "macos"))
            || self.var("DISPLAY").is_some()
            || self.var("WAYLAND_DISPLAY").is_some();
        if display {
            "redline".into()
        } else {
            "redline serve --headless".into()
        }
    }
}

#[cfg(unix)]
fn own_uid() -> Option<u32> {
    // SAFETY: getuid cannot fail and touches no memory.
    Some(unsafe { libc::getuid() })
}

#[cfg(not(unix))]
fn own_uid() -> Option<u32> {
    None
}
