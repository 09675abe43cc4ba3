//! Opening a reviewed file at a line in the user's own editor (`$VISUAL`, else `$EDITOR`): the
//! command line each kind of editor takes, and where a terminal editor gets its terminal.

use crate::error::{Error, Result};
use std::path::Path;

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
pub fn command(editor: &str, path: &Path, line: u32, tmux: Option<&str>) -> Result<Vec<String>> {
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
                let mut tmux = vec!["tmux".into(), "new-window".into()];
                tmux.extend(["-t".into(), format!("{session}:")]);
                if let Some(dir) = dir {
                    tmux.extend(["-c".into(), dir]);
                }
                tmux.extend(argv);
                tmux
            }
            None => ["x-terminal-emulator".to_owned(), "-e".to_owned()]
                .into_iter()
                .chain(argv)
                .collect(),
        },
    )
}

/// Opens the review's file at `line` in `editor` (`None`: none is set), in the tmux session of
/// the CLI that asked when the editor needs a terminal and the CLI runs in tmux.
pub fn open(review: &crate::review::Review, line: u32, editor: Option<&str>) -> Result<()> {
    let tmux = review
        .client
        .process
        .as_ref()
        .and_then(|p| p.tmux.as_deref());
    spawn(&command(editor.unwrap_or(""), &review.path, line, tmux)?)
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
mod tests {
    use super::*;

    fn cmd(editor: &str, tmux: Option<&str>) -> Vec<String> {
        command(editor, Path::new("/ws/src/a.rs"), 12, tmux).unwrap()
    }

    #[test]
    fn each_kind_of_editor_gets_the_line_its_own_way() {
        assert_eq!(
            cmd("code --wait", None),
            ["code", "--wait", "-g", "/ws/src/a.rs:12"]
        );
        assert_eq!(
            cmd("/opt/bin/subl", None),
            ["/opt/bin/subl", "/ws/src/a.rs:12"]
        );
        assert_eq!(
            cmd("emacsclient -n", None),
            ["emacsclient", "-n", "+12", "/ws/src/a.rs"]
        );
        assert_eq!(cmd("gvim", None), ["gvim", "+12", "/ws/src/a.rs"]);
        // Terminal editors get a terminal: the CLI's tmux session, else the desktop's.
        assert_eq!(
            cmd("nvim", Some("work:2.1")),
            [
                "tmux",
                "new-window",
                "-t",
                "work:",
                "-c",
                "/ws/src",
                "nvim",
                "+12",
                "/ws/src/a.rs"
            ]
        );
        assert_eq!(
            cmd("hx", None),
            ["x-terminal-emulator", "-e", "hx", "/ws/src/a.rs:12"]
        );
        assert_eq!(
            cmd("emacs -nw", None)[..3],
            ["x-terminal-emulator", "-e", "emacs"]
        );
        assert_eq!(
            cmd("emacsclient -t", Some("s:0.0"))[..4],
            ["tmux", "new-window", "-t", "s:"]
        );
        assert!(command("  ", Path::new("/a"), 1, None).is_err());
    }

    #[test]
    fn visual_comes_before_editor_and_empty_is_unset() {
        let env = |pairs: &'static [(&str, &str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            from_env(env(&[("EDITOR", "vi"), ("VISUAL", "code")])).as_deref(),
            Some("code")
        );
        assert_eq!(
            from_env(env(&[("EDITOR", "vi"), ("VISUAL", " ")])).as_deref(),
            Some("vi")
        );
        assert_eq!(from_env(env(&[])), None);
    }

    /// The real thing: a GUI-style editor (a script here) is started with the file and line.
    #[cfg(unix)]
    #[test]
    fn spawn_starts_the_editor_with_the_file_at_the_line() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("args");
        let editor = tmp.path().join("code");
        std::fs::write(
            &editor,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}.tmp' && mv '{0}.tmp' '{0}'\n",
                out.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
        let file = std::path::PathBuf::from("/ws/notes.md");
        let argv = command(&editor.to_string_lossy(), &file, 7, None).unwrap();
        spawn(&argv).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !out.exists() {
            assert!(std::time::Instant::now() < deadline, "the editor never ran");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "-g\n/ws/notes.md:7\n"
        );
        assert!(spawn(&["/nonexistent/editor".into()]).is_err());
    }
}
