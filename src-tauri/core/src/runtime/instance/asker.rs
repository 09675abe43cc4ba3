//! Who asked, when a CLI's hook asks (`redline hook`, at an edit or at the end of a turn): the
//! CLI, found among the hook's ancestors, and the paths as it named them, from its folder.

use super::local::caller::caller;
use crate::protocols::hook::HookCli;
use crate::review::ClientInfo;
use std::path::Path;

/// Who asked: the CLI among the hook's ancestors (Claude Code and Qwen Code start their hooks in
/// a session of their own, through a shell), with its version and terminal; else the process
/// that ran the hook, under the CLI's name and no version (never Redline's own).
pub(super) async fn asker(cli: HookCli, pid: Option<u32>) -> ClientInfo {
    use crate::platform::{peer, process};
    let who = cli.cli;
    let found = match pid {
        Some(pid) => peer::off_runtime(peer::LOOKUP, move || {
            process::ancestors(pid)
                .into_iter()
                .map(peer::describe)
                .find(|p| p.program == who.name || p.program == who.binary)
        })
        .await
        .flatten(),
        None => None,
    };
    let process = match found {
        Some(p) => Some(p),
        None => caller("redline hook", pid).await.process,
    };
    ClientInfo {
        name: who.name.to_owned(),
        version: process
            .as_ref()
            .filter(|p| p.program == who.name || p.program == who.binary)
            .and_then(|p| p.version.clone())
            .unwrap_or_default(),
        process,
        session_name: None,
        // The CLI asked, through its hook: named as the CLI, not as `redline hook`.
        command: false,
    }
}

/// `path` as the CLI named it, from the folder it runs in.
pub(super) fn absolute(cwd: &Path, path: &str) -> String {
    cwd.join(path).to_string_lossy().into_owned()
}
