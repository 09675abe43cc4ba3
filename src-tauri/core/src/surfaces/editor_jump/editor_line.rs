//! The command line each kind of editor takes to open a file at a line, and whether it needs a
//! terminal.

use crate::error::{Error, Result};
use std::ffi::OsString;
use std::path::Path;

/// How an editor is told the line, and whether it needs a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LineForm {
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

impl LineForm {
    pub(super) fn of(program: &str, args: &[&str]) -> LineForm {
        let name = Path::new(program)
            .file_stem()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let has = |flags: &[&str]| args.iter().any(|a| flags.contains(a));
        match name.as_str() {
            "hx" | "helix" => LineForm::ColonLine,
            "code" | "code-insiders" | "codium" | "vscodium" | "cursor" | "windsurf" => {
                LineForm::GotoFlag
            }
            "subl" | "sublime_text" | "zed" | "zeditor" => LineForm::ColonLineWindow,
            "gvim" | "mvim" | "gedit" => LineForm::PlusLineWindow,
            "emacs" if !has(&["-nw", "--no-window-system", "-t"]) => LineForm::PlusLineWindow,
            "emacsclient" if !has(&["-t", "-nw", "--tty"]) => LineForm::PlusLineWindow,
            _ => LineForm::PlusLine,
        }
    }

    pub(super) fn needs_terminal(self) -> bool {
        matches!(self, LineForm::PlusLine | LineForm::ColonLine)
    }
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
    let kind = LineForm::of(program, args);
    let file = operand(path);
    let at_line = |file: &OsString| {
        let mut word = file.clone();
        word.push(format!(":{}", line.max(1)));
        word
    };
    let mut argv: Vec<OsString> = words.iter().map(OsString::from).collect();
    match kind {
        LineForm::PlusLine | LineForm::PlusLineWindow => {
            argv.push(format!("+{}", line.max(1)).into());
            argv.push(file);
        }
        LineForm::ColonLine | LineForm::ColonLineWindow => argv.push(at_line(&file)),
        LineForm::GotoFlag => argv.extend(["-g".into(), at_line(&file)]),
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
