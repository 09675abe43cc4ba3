//! Opening another machine's file at a line: the editor's own remote form where it has one (VS
//! Code and its forks `--remote ssh-remote+HOST` or `wsl+DISTRO`, Zed `ssh://`), a terminal
//! editor through `ssh -t` or `wsl.exe`, read from the command that reaches that machine.

use super::editor_line::{self, EditorCommand, LineForm};
use crate::error::{Error, Result};
use std::ffi::OsString;
use std::path::Path;

/// Where a remote's command leads, as an editor can be told it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Far {
    /// `ssh [-p PORT] [-l USER] [USER@]HOST …`.
    Ssh {
        destination: String,
        port: Option<String>,
    },
    /// `wsl.exe -d DISTRO …`.
    Wsl { distro: String },
}

/// ssh's options that take a value (`man ssh`): the destination is the first word after them.
const SSH_VALUED: &str = "BbcDEeFIiJLlmOoPpQRSWw";

impl Far {
    /// Where `command` (a remote's) leads; `None` when it is neither ssh nor wsl.exe.
    pub fn of(command: &[String]) -> Option<Far> {
        let (program, args) = command.split_first()?;
        let name = Path::new(program)
            .file_stem()?
            .to_string_lossy()
            .to_lowercase();
        match name.as_str() {
            "ssh" => ssh(args),
            "wsl" => {
                let at = args
                    .iter()
                    .position(|a| a == "-d" || a == "--distribution")?;
                let distro = args.get(at + 1)?.clone();
                Some(Far::Wsl { distro })
            }
            _ => None,
        }
    }
}

fn ssh(args: &[String]) -> Option<Far> {
    let (mut port, mut user, mut words) = (None, None, args.iter());
    while let Some(a) = words.next() {
        let Some(flags) = a.strip_prefix('-') else {
            let destination = match (&user, a.contains('@')) {
                (Some(user), false) => format!("{user}@{a}"),
                _ => a.clone(),
            };
            return Some(Far::Ssh { destination, port });
        };
        // `-p22`, `-p 22`, and flags run together (`-TA`): the last may take a value.
        let Some(at) = flags.find(|c| SSH_VALUED.contains(c)) else {
            continue;
        };
        let inline = &flags[at + 1..];
        let value = match inline.is_empty() {
            true => words.next()?.clone(),
            false => inline.to_owned(),
        };
        match &flags[at..=at] {
            "p" => port = Some(value),
            "l" => user = Some(value),
            _ => {}
        }
    }
    None
}

/// The command that opens `path` (on the far machine) at `line` with `editor`, or why it can't.
pub fn command(editor: &str, far: &Far, path: &Path, line: u32) -> Result<EditorCommand> {
    let local = editor_line::command(editor, path, line)?;
    let words: Vec<&str> = editor.split_whitespace().collect();
    let kind = LineForm::of(words[0], &words[1..]);
    let at = format!("{}:{}", path.display(), line.max(1));
    let mut argv: Vec<OsString> = words.iter().map(OsString::from).collect();
    match (kind, far) {
        (LineForm::GotoFlag, Far::Ssh { destination, .. }) => {
            argv.extend([
                "--remote".into(),
                format!("ssh-remote+{destination}").into(),
            ]);
            argv.extend(["-g".into(), at.into()]);
        }
        (LineForm::GotoFlag, Far::Wsl { distro }) => {
            argv.extend(["--remote".into(), format!("wsl+{distro}").into()]);
            argv.extend(["-g".into(), at.into()]);
        }
        (LineForm::ColonLineWindow, Far::Ssh { destination, port }) if is_zed(words[0]) => {
            let port = port.as_ref().map(|p| format!(":{p}")).unwrap_or_default();
            argv.push(format!("ssh://{destination}{port}{at}").into());
        }
        (LineForm::PlusLine | LineForm::ColonLine, far) => {
            return Ok(EditorCommand {
                argv: through(far, &local.argv),
                needs_terminal: true,
            })
        }
        _ => {
            return Err(Error::Usage(format!(
                "{} cannot open a file on another machine: choose VS Code, Cursor, Zed or a \
                 terminal editor in the review window's settings (⚙)",
                words[0]
            )))
        }
    }
    Ok(EditorCommand {
        argv,
        needs_terminal: false,
    })
}

fn is_zed(program: &str) -> bool {
    let name = Path::new(program)
        .file_stem()
        .map(|n| n.to_string_lossy().to_lowercase());
    matches!(name.as_deref(), Some("zed" | "zeditor"))
}

/// `argv` run on the far machine with a terminal: ssh hands its words to the far login shell as
/// one string, so each is quoted for it; wsl.exe's `--exec` takes them as they are.
fn through(far: &Far, argv: &[OsString]) -> Vec<OsString> {
    match far {
        Far::Ssh { destination, port } => {
            let mut out: Vec<OsString> = vec!["ssh".into(), "-t".into()];
            if let Some(port) = port {
                out.extend(["-p".into(), port.into()]);
            }
            out.extend(["--".into(), destination.into()]);
            let words: Vec<String> = argv.iter().map(|a| quoted(&a.to_string_lossy())).collect();
            out.push(words.join(" ").into());
            out
        }
        Far::Wsl { distro } => {
            let mut out: Vec<OsString> = ["wsl.exe", "-d", distro, "--exec"]
                .map(OsString::from)
                .to_vec();
            out.extend(argv.iter().cloned());
            out
        }
    }
}

/// `word` in single quotes for a POSIX shell (a `'` in it closed, escaped and reopened).
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_destination_is_read_past_ssh_s_options() {
        // As `redline remote add ssh://me@devbox:2222` writes it.
        let shorthand = words(&[
            "ssh",
            "-T",
            "-o",
            "BatchMode=yes",
            "-o",
            "ServerAliveInterval=4",
            "-p",
            "2222",
            "me@devbox",
            "sh -c '…'",
        ]);
        assert_eq!(
            Far::of(&shorthand),
            Some(Far::Ssh {
                destination: "me@devbox".into(),
                port: Some("2222".into())
            })
        );
        let joined = words(&[
            "/usr/bin/ssh",
            "-TA",
            "-J",
            "jump",
            "-p2200",
            "-l",
            "ana",
            "gpu",
            "redline bridge",
        ]);
        assert_eq!(
            Far::of(&joined),
            Some(Far::Ssh {
                destination: "ana@gpu".into(),
                port: Some("2200".into())
            })
        );
        let wsl = words(&["wsl.exe", "-d", "Ubuntu", "--exec", "sh"]);
        assert_eq!(
            Far::of(&wsl),
            Some(Far::Wsl {
                distro: "Ubuntu".into()
            })
        );
        assert_eq!(Far::of(&words(&["env", "redline", "bridge"])), None);
        assert_eq!(Far::of(&words(&["ssh", "-o"])), None);
    }

    #[test]
    fn each_editor_opens_the_far_file_in_its_own_remote_form() {
        let ssh = Far::Ssh {
            destination: "me@devbox".into(),
            port: Some("2222".into()),
        };
        let path = Path::new("/home/me/app/it's here.rs");
        let argv = |editor: &str, far: &Far| {
            let c = command(editor, far, path, 7).unwrap();
            (
                c.argv
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>(),
                c.needs_terminal,
            )
        };
        assert_eq!(
            argv("code --wait", &ssh),
            (
                words(&[
                    "code",
                    "--wait",
                    "--remote",
                    "ssh-remote+me@devbox",
                    "-g",
                    "/home/me/app/it's here.rs:7"
                ]),
                false
            )
        );
        assert_eq!(
            argv(
                "cursor",
                &Far::Wsl {
                    distro: "Ubuntu".into()
                }
            ),
            (
                words(&[
                    "cursor",
                    "--remote",
                    "wsl+Ubuntu",
                    "-g",
                    "/home/me/app/it's here.rs:7"
                ]),
                false
            )
        );
        assert_eq!(
            argv("zed", &ssh),
            (
                words(&["zed", "ssh://me@devbox:2222/home/me/app/it's here.rs:7"]),
                false
            )
        );
        assert_eq!(
            argv("nvim", &ssh),
            (
                words(&[
                    "ssh",
                    "-t",
                    "-p",
                    "2222",
                    "--",
                    "me@devbox",
                    r"'nvim' '+7' '/home/me/app/it'\''s here.rs'"
                ]),
                true
            )
        );
        assert_eq!(
            argv(
                "hx",
                &Far::Wsl {
                    distro: "Ubuntu".into()
                }
            ),
            (
                words(&[
                    "wsl.exe",
                    "-d",
                    "Ubuntu",
                    "--exec",
                    "hx",
                    "/home/me/app/it's here.rs:7"
                ]),
                true
            )
        );
        let e = command("subl", &ssh, path, 7).unwrap_err();
        assert_eq!(e.code(), crate::error::FaultCode::Usage);
        assert!(
            e.to_string()
                .contains("cannot open a file on another machine"),
            "{e}"
        );
    }
}
