//! Everything outside the process a running Redline depends on, gathered so tests give their own.

use crate::platform::clock::Clock;
use crate::platform::dirs::Dirs;
use crate::platform::keyring::Tokens;
use crate::platform::process::ProcessTable;
use crate::workspace::container::{self, Interfaces};
use std::path::PathBuf;
use std::sync::Arc;

/// Everything outside the process that Redline depends on, injected so tests use temp dirs.
pub struct World {
    pub dirs: Dirs,
    pub pid: u32,
    pub procs: Arc<dyn ProcessTable>,
    pub clock: Arc<dyn Clock>,
    pub tokens: Tokens,
    /// The host's network interfaces: where the container bridge is.
    pub interfaces: Arc<dyn Interfaces>,
    /// Where Codex CLI asks for an IDE (`codex_ipc::at`): a socket under `dirs.tmp`, or on
    /// Windows a pipe whose name the whole machine shares, so tests name their own.
    pub codex_ipc: PathBuf,
}

impl World {
    /// This machine as it is: the OS keyring (or memory, saying why), processes and interfaces.
    pub fn os(dirs: Dirs) -> World {
        World {
            codex_ipc: crate::protocols::codex_ipc::at(&dirs),
            tokens: Tokens::os(),
            ..World::isolated(dirs)
        }
    }

    /// A world of its own beside the user's Redline (tests side by side): this machine's
    /// processes, clock and interfaces, but tokens in memory and a Codex pipe named after `dirs`.
    pub fn isolated(dirs: Dirs) -> World {
        World {
            codex_ipc: crate::protocols::codex_ipc::isolated_at(&dirs),
            dirs,
            pid: crate::platform::process::own_pid(),
            procs: Arc::new(crate::platform::process::OsProcessTable),
            clock: Arc::new(crate::platform::clock::SystemClock),
            tokens: Tokens::memory("an isolated instance: tokens in memory".into()),
            interfaces: Arc::new(container::OsInterfaces),
        }
    }
}

impl World {
    /// Forgets the token of the workspace at `path` (it was removed). Without a keyring answer
    /// the token stays: it is useless without the workspace's files.
    pub fn forget_token(&self, path: &std::path::Path) {
        if let Err(e) = self.tokens.forget(&path.to_string_lossy()) {
            tracing::warn!("could not delete the token of {}: {e}", path.display());
        }
    }
}
