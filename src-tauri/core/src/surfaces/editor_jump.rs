//! Opening a reviewed file at a line in the user's own editor (the one in the settings, else
//! `$VISUAL`, else `$EDITOR`): the command line each kind of editor takes, and where a terminal
//! editor gets its terminal.

use crate::error::{Error, Result};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

mod far;
#[cfg(unix)]
mod launcher;

pub use far::Far;

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

/// An editor's command for one file: its words, and whether it needs a terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorCommand {
    pub argv: Vec<OsString>,
    pub needs_terminal: bool,
}

/// The command that opens `path` at `line` (1-based) with `editor` (a command line, split on
/// whitespace as `$EDITOR` is by most programs: it is the user's own, so its words are trusted;
/// the path is not, and stays one word).
pub fn command(editor: &str, path: &Path, line: u32) -> Result<EditorCommand> {
    let words: Vec<&str> = editor.split_whitespace().collect();
    let Some((program, args)) = words.split_first() else {
        return Err(Error::Usage(
            "no editor: choose one in the review window's settings (⚙), or set $VISUAL or $EDITOR"
                .into(),
        ));
    };
    let kind = Kind::of(program, args);
    let file = operand(path);
    let at_line = |file: &OsString| {
        let mut word = file.clone();
        word.push(format!(":{}", line.max(1)));
        word
    };
    let mut argv: Vec<OsString> = words.iter().map(OsString::from).collect();
    match kind {
        Kind::PlusLine | Kind::PlusLineWindow => {
            argv.push(format!("+{}", line.max(1)).into());
            argv.push(file);
        }
        Kind::ColonLine | Kind::ColonLineWindow => argv.push(at_line(&file)),
        Kind::GotoFlag => argv.extend(["-g".into(), at_line(&file)]),
    }
    Ok(EditorCommand {
        argv,
        needs_terminal: kind.needs_terminal(),
    })
}

/// `path` as the editor's file operand: a relative one gets `./`, so that a name starting with
/// `-` is never read as an option (the paths of reviews are absolute).
fn operand(path: &Path) -> OsString {
    if path.is_absolute() {
        path.as_os_str().to_owned()
    } else {
        Path::new(".").join(path).into_os_string()
    }
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
    let c = far::command(editor.unwrap_or(""), &far, &review.path, line)?;
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
