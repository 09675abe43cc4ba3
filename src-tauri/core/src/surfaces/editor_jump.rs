//! Opening a reviewed file at a line in the user's own editor (the one in the settings, else
//! `$VISUAL`, else `$EDITOR`): the command line each kind of editor takes, and where a terminal
//! editor gets its terminal.

use crate::error::{Error, Result};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

mod editor_line;
mod far_file;
#[cfg(unix)]
mod launcher;

pub use editor_line::{command, EditorCommand};
pub use far_file::Far;

/// The programs that give a terminal editor its terminal (injected, so tests bring their own),
/// and Redline's private runtime directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terminals {
    /// The tmux client, with any options before its command (`tmux`).
    pub tmux: Vec<String>,
    /// The desktop's terminal, with the option that precedes the command it runs
    /// (`x-terminal-emulator -e`).
    pub desktop: Vec<String>,
    /// Redline's private runtime directory (0700), where the launcher and each launch's words go.
    pub runtime: PathBuf,
}

impl Terminals {
    /// The terminals of this machine.
    pub fn os(runtime: PathBuf) -> Self {
        Terminals {
            tmux: vec!["tmux".into()],
            desktop: vec!["x-terminal-emulator".into(), "-e".into()],
            runtime,
        }
    }
}

/// The user's editor command: `$VISUAL`, else `$EDITOR` (empty counts as unset).
pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    ["VISUAL", "EDITOR"]
        .into_iter()
        .filter_map(var)
        .find(|v| !v.trim().is_empty())
}

/// The editor to open files in: the one chosen in the settings, else `$VISUAL`, else `$EDITOR`.
/// The settings come first: the desktop app's environment is the session's, not the shell's the
/// user set `$EDITOR` in.
pub fn chosen(
    settings: &crate::workspace::settings::Settings,
    var: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    settings
        .editor()
        .map(str::to_owned)
        .or_else(|| from_env(var))
}

/// Opens the review's file at `line` in `editor` (`None`: none is set), in the tmux session of
/// the CLI that asked when the editor needs a terminal and the CLI runs in tmux.
pub fn open(
    review: &crate::review::Review,
    line: u32,
    editor: Option<&str>,
    terminals: &Terminals,
) -> Result<()> {
    let tmux = review
        .client
        .process
        .as_ref()
        .and_then(|p| p.tmux.as_deref());
    launch(editor.unwrap_or(""), &review.path, line, tmux, terminals)
}

/// Opens `review`'s file, another machine's, at `line` in `editor` (`None`: none is set), the
/// machine reached as its remote's `command` reaches it (`far`: ssh or wsl.exe).
pub fn open_far(
    review: &crate::review::Review,
    command: &[String],
    line: u32,
    editor: Option<&str>,
    terminals: &Terminals,
) -> Result<()> {
    let far = Far::of(command).ok_or_else(|| {
        Error::Usage(format!(
            "{} is reached by `{}`: Redline opens another machine's files through ssh or \
             wsl.exe only",
            review.origin.remote().unwrap_or("that machine"),
            command.first().map(String::as_str).unwrap_or("")
        ))
    })?;
    let c = far_file::command(editor.unwrap_or(""), &far, &review.path, line)?;
    match c.needs_terminal {
        false => spawn(&c.argv),
        true => in_terminal(&c.argv, None, None, terminals),
    }
}

/// Opens `path` at `line` in `editor`: a terminal editor in a new window of the tmux session
/// `tmux` (`session:window.pane`, the CLI's pane) when known, else in the desktop's terminal.
pub fn launch(
    editor: &str,
    path: &Path,
    line: u32,
    tmux: Option<&str>,
    terminals: &Terminals,
) -> Result<()> {
    let command = command(editor, path, line)?;
    if !command.needs_terminal {
        return spawn(&command.argv);
    }
    in_terminal(&command.argv, path.parent(), tmux, terminals)
}

/// Starts `argv` in a terminal through the launcher: terminals (Terminator with a window open,
/// among others) join their command's words and hand them to `$SHELL -c`, tmux reads formats in
/// `new-window -c` and hands a lone word to `sh -c`, so what they are given holds no word of
/// `argv` nor `cwd`, only the launcher and its folder.
#[cfg(unix)]
fn in_terminal(
    argv: &[OsString],
    cwd: Option<&Path>,
    tmux: Option<&str>,
    terminals: &Terminals,
) -> Result<()> {
    let launch = launcher::prepare(&terminals.runtime, argv, cwd)?;
    let session = tmux
        .and_then(|t| t.split(':').next())
        .filter(|s| !s.is_empty());
    let mut full: Vec<String> = match session {
        Some(session) => {
            let mut tmux = terminals.tmux.clone();
            // The target always ends in `:`, never in the `;` that would end tmux's command.
            tmux.extend(["new-window".into(), "-t".into(), format!("{session}:")]);
            tmux
        }
        None => terminals.desktop.clone(),
    };
    full.extend(launch.command.iter().cloned());
    match spawn(&full) {
        Ok(()) => Ok(()),
        Err(e) => {
            launch.abandon();
            Err(e)
        }
    }
}

#[cfg(not(unix))]
fn in_terminal(
    _argv: &[OsString],
    _cwd: Option<&Path>,
    _tmux: Option<&str>,
    _terminals: &Terminals,
) -> Result<()> {
    Err(Error::Usage(
        "Redline starts a terminal for a terminal editor only on Linux and macOS: set $VISUAL \
         to an editor with its own window (e.g. `code --wait`)"
            .into(),
    ))
}

/// Starts `argv` detached from Redline (no stdio; reaped on a thread, so no zombie is left).
fn spawn<S: AsRef<OsStr>>(argv: &[S]) -> Result<()> {
    let Some((program, args)) = argv.split_first() else {
        return Err(Error::Usage("no editor command".into()));
    };
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| Error::io(Path::new(program.as_ref()), e))?;
    std::thread::spawn(move || child.wait());
    Ok(())
}

#[cfg(test)]
mod tests;
