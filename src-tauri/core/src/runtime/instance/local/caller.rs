//! Who asked for a local review: the program that ran `redline propose` or `redline diff`.

use crate::platform::peer::PeerProcess;
use crate::review::ClientInfo;

/// Who asked: the program that ran the command (a script, git, an agent), else the command.
pub(in crate::runtime::instance) async fn caller(command: &str, pid: Option<u32>) -> ClientInfo {
    let process = match pid {
        Some(pid) => {
            use crate::platform::peer;
            peer::off_runtime(peer::LOOKUP, move || describe_caller(pid)).await
        }
        None => None,
    };
    ClientInfo {
        name: command.to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        process,
        session_name: None,
        command: true,
    }
}

/// The command's parent, past shells running a script or a `-c` command string for another
/// program: git runs its difftool command through its `git-difftool--helper` script, and "git"
/// says more than "sh". An interactive shell (no script) is the caller itself, and so is a shell
/// at the head of its session: a terminal (`xterm -e`), sshd (`ssh host 'cmd; …'`) or tmux
/// (`new-window 'cmd; …'`) started it to run what the user typed, and is not who asked.
fn describe_caller(pid: u32) -> PeerProcess {
    use crate::platform::process;
    let session = process::session(pid);
    // The command heads its session itself (the shell exec'd it): what is above started it for
    // the user, who typed it; the command is named, with its terminal or tmux pane.
    if session == Some(pid) {
        return crate::platform::peer::describe(pid);
    }
    let ancestors = process::ancestors(pid);
    let caller = ancestors
        .iter()
        .copied()
        .find(|p| !shell_wrapper(*p) || session == Some(*p))
        .or_else(|| ancestors.first().copied());
    crate::platform::peer::describe(caller.unwrap_or(pid))
}

/// A shell running a script or a `-c` command string.
#[cfg(target_os = "linux")]
fn shell_wrapper(pid: u32) -> bool {
    // The name and first argument are at the head; a longer command line is read no further.
    let path = format!("/proc/{pid}/cmdline");
    let Ok(cmdline) = crate::platform::small_file::head(std::path::Path::new(&path), 4096) else {
        return false;
    };
    let mut args = cmdline.split(|b| *b == 0);
    let name = args
        .next()
        .and_then(|a| a.rsplit(|b| *b == b'/').next())
        .unwrap_or_default();
    let first = args.next().filter(|a| !a.is_empty());
    // `-lc` too: Codex runs its hooks as `$SHELL -lc 'command'`.
    let command_string =
        |a: &[u8]| a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b'c');
    matches!(name, b"sh" | b"dash" | b"bash" | b"zsh")
        && first.is_some_and(|a| command_string(a) || !a.starts_with(b"-"))
}

#[cfg(not(target_os = "linux"))]
fn shell_wrapper(_pid: u32) -> bool {
    false
}
