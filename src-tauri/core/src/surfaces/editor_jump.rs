//! Opening a reviewed file at a line in the user's own editor (`$VISUAL`, else `$EDITOR`): the
//! command line each kind of editor takes, and where a terminal editor gets its terminal.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The programs that give a terminal editor its terminal (injected, so tests bring their own),
/// and Redline's private runtime directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terminals {
    /// The tmux client, with any options before its command (`tmux`).
    pub tmux: Vec<String>,
    /// The desktop's terminal, with the option that precedes the command it runs
    /// (`x-terminal-emulator -e`).
    pub desktop: Vec<String>,
    /// Redline's private runtime directory (0700).
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

/// How an editor is told the line, and whether it needs a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `+L FILE` in a terminal: vi, vim, nvim, nano, micro, kak, `emacs -nw`, most `$EDITOR`s.
    PlusLine,
    /// `FILE:L` in a terminal: Helix.
    ColonLine,
    /// `-g FILE:L`, its own window: VS Code and its forks.
    GotoFlag,
    /// `FILE:L`, its own window: Sublime Text, Zed.
    ColonLineWindow,
    /// `+L FILE`, its own window: gvim, GUI Emacs, `emacsclient` reaching a running Emacs.
    PlusLineWindow,
}

impl Kind {
    fn of(program: &str, args: &[&str]) -> Kind {
        let name = Path::new(program)
            .file_stem()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let has = |flags: &[&str]| args.iter().any(|a| flags.contains(a));
        match name.as_str() {
            "hx" | "helix" => Kind::ColonLine,
            "code" | "code-insiders" | "codium" | "vscodium" | "cursor" | "windsurf" => {
                Kind::GotoFlag
            }
            "subl" | "sublime_text" | "zed" | "zeditor" => Kind::ColonLineWindow,
            "gvim" | "mvim" | "gedit" => Kind::PlusLineWindow,
            "emacs" if !has(&["-nw", "--no-window-system", "-t"]) => Kind::PlusLineWindow,
            "emacsclient" if !has(&["-t", "-nw", "--tty"]) => Kind::PlusLineWindow,
            _ => Kind::PlusLine,
        }
    }

    fn needs_terminal(self) -> bool {
        matches!(self, Kind::PlusLine | Kind::ColonLine)
    }
}

/// The user's editor command: `$VISUAL`, else `$EDITOR` (empty counts as unset).
pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    ["VISUAL", "EDITOR"]
        .into_iter()
        .filter_map(var)
        .find(|v| !v.trim().is_empty())
}

/// The whole command that opens `path` at `line` (1-based) with `editor` (a command line, split
/// on whitespace as `$EDITOR` is by most programs). A terminal editor opens in a new window of
/// the tmux session `tmux` (`session:window.pane`, the CLI's pane) when known, else in the
/// desktop's terminal (`x-terminal-emulator -e`).
pub fn command(
    editor: &str,
    path: &Path,
    line: u32,
    tmux: Option<&str>,
    terminals: &Terminals,
) -> Result<Vec<String>> {
    let words: Vec<&str> = editor.split_whitespace().collect();
    let Some((program, args)) = words.split_first() else {
        return Err(Error::Usage(
            "no editor: set $VISUAL or $EDITOR for Redline to open files in".into(),
        ));
    };
    let kind = Kind::of(program, args);
    let file = path.to_string_lossy().into_owned();
    let line = line.max(1);
    let mut argv: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    match kind {
        Kind::PlusLine | Kind::PlusLineWindow => argv.extend([format!("+{line}"), file]),
        Kind::ColonLine | Kind::ColonLineWindow => argv.push(format!("{file}:{line}")),
        Kind::GotoFlag => argv.extend(["-g".to_owned(), format!("{file}:{line}")]),
    }
    if !kind.needs_terminal() {
        return Ok(argv);
    }
    let dir = path.parent().map(|d| d.to_string_lossy().into_owned());
    Ok(
        match tmux
            .and_then(|t| t.split(':').next())
            .filter(|s| !s.is_empty())
        {
            Some(session) => {
                let mut tmux = terminals.tmux.clone();
                tmux.push("new-window".into());
                tmux.extend(["-t".into(), format!("{session}:")]);
                if let Some(dir) = dir {
                    tmux.extend(["-c".into(), dir]);
                }
                tmux.extend(argv);
                tmux
            }
            None => terminals.desktop.iter().cloned().chain(argv).collect(),
        },
    )
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

/// Opens `path` at `line` in `editor`, in a new window of the tmux session `tmux` when it needs
/// a terminal and one is known, else in the desktop's terminal.
pub fn launch(
    editor: &str,
    path: &Path,
    line: u32,
    tmux: Option<&str>,
    terminals: &Terminals,
) -> Result<()> {
    spawn(&command(editor, path, line, tmux, terminals)?)
}

/// Starts `argv` detached from Redline (no stdio; reaped on a thread, so no zombie is left).
pub fn spawn(argv: &[String]) -> Result<()> {
    let Some((program, args)) = argv.split_first() else {
        return Err(Error::Usage("no editor command".into()));
    };
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| Error::io(program, e))?;
    std::thread::spawn(move || child.wait());
    Ok(())
}

#[cfg(test)]
mod tests;
