//! `redline remote add ssh://… --install`: a headless build of this Redline copied to the far
//! side's `~/.local/share/redline/bin` (where the shorthands look first) when that machine's OS
//! and architecture are this build's, checked by its sha256 there before it takes the place, as
//! VS Code installs its server.

use super::attached::without_terminal;
use super::said::label;
use super::shorthand;
use crate::error::RemoteFailure;
use crate::Result;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What the far side says of itself: `uname -sm`, then the sha256 of the copy installed there
/// before, if any.
const PROBE: &str = "d=\"$HOME/.local/share/redline/bin\"; uname -sm; \
     if [ -f \"$d/redline\" ]; then (sha256sum \"$d/redline\" 2>/dev/null || \
     shasum -a 256 \"$d/redline\") | cut -c1-64; fi";

/// Takes the copy from stdin into a temporary file beside its place, checks its sha256 (`SUM`
/// is replaced) and that it runs there (the C library, the loader), then moves it in: a copy cut
/// short or damaged never takes the place of a working one.
const COPY: &str = "set -e; d=\"$HOME/.local/share/redline/bin\"; mkdir -p \"$d\"; \
     t=\"$d/.redline-$$\"; trap \"rm -f \\\"$t\\\"\" EXIT; cat > \"$t\"; \
     s=$( (sha256sum \"$t\" 2>/dev/null || shasum -a 256 \"$t\") | cut -c1-64); \
     if [ \"$s\" != SUM ]; then echo \"the copy arrived damaged (sha256 $s)\" >&2; exit 3; fi; \
     chmod 755 \"$t\"; \"$t\" --version >/dev/null; mv -f \"$t\" \"$d/redline\"; trap - EXIT";

/// How long the far side may take to say what it is (ssh's own connect timeout fits in it).
const PROBE_WITHIN: Duration = Duration::from_secs(30);
/// How long the copy may take: a slow link moves a release build (~20 MB) well within it.
const COPY_WITHIN: Duration = Duration::from_secs(600);
/// What is read of the far side's words.
const SAID_KEPT: u64 = 4096;

/// What `--install` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// The copy there was this build already.
    Already,
    /// Copied, this many bytes.
    Copied(u64),
}

/// Installs `build` (a headless Redline) on the machine `target` (`ssh://…` or `wsl://…`)
/// names, for the remote called `remote`.
pub async fn install(target: &str, remote: &str, build: &Path) -> Result<Placed> {
    let fail = |why: String| not_installed(remote, why);
    let probe = there(target, PROBE)?;
    let said = run(&probe, None, PROBE_WITHIN).await.map_err(fail)?;
    let mut lines = said.lines();
    let uname = lines.next().unwrap_or_default().trim();
    let here = format!("{} {}", std::env::consts::OS, std::env::consts::ARCH);
    if platform(uname).as_deref() != Some(here.as_str()) {
        return Err(fail(format!(
            "that machine is `{uname}`, this Redline is built for {here}: install Redline there \
             (docs/remote.md)"
        )));
    }
    let unreadable = |e: std::io::Error| fail(format!("{} cannot be read: {e}", build.display()));
    let (sum, bytes) = sha256(build).await.map_err(unreadable)?;
    if lines.next().map(str::trim) == Some(sum.as_str()) {
        return Ok(Placed::Already);
    }
    let copy = there(target, &COPY.replace("SUM", &sum))?;
    run(&copy, Some(build), COPY_WITHIN).await.map_err(fail)?;
    Ok(Placed::Copied(bytes))
}

/// The headless build `--install` copies to remote `remote`: this program when it is one
/// (`headless`), else the one the package puts beside it.
pub fn build_to_copy(remote: &str, headless: bool) -> Result<PathBuf> {
    let not = |why: String| not_installed(remote, why);
    let exe = std::env::current_exe().map_err(|e| not(format!("this program's path: {e}")))?;
    if headless {
        return Ok(exe);
    }
    let beside = exe.with_file_name(format!("redline-headless{}", std::env::consts::EXE_SUFFIX));
    if beside.is_file() {
        return Ok(beside);
    }
    Err(not(format!(
        "this Redline has no headless build beside it ({}) to copy: install Redline there \
         (docs/headless.md)",
        beside.display()
    )))
}

/// The failure said to the user: the far side's words (its `uname`, its shell's last line) made
/// fit to show as every remote's text is, no escape sequence reaching the terminal.
fn not_installed(remote: &str, why: String) -> crate::Error {
    RemoteFailure::NotInstalled {
        remote: remote.to_owned(),
        why: label(&why),
    }
    .into()
}

/// Whether `--install` can go with `target`: only a shorthand's command, which Redline makes, can
/// run its scripts there. Checked when the arguments are read, before anything runs.
pub fn takes(target: &str) -> Result<()> {
    there(target, "").map(drop)
}

/// The command that runs `script` on `target`'s machine.
fn there(target: &str, script: &str) -> Result<Vec<String>> {
    match shorthand::there(target, script)? {
        Some((_, command)) => Ok(command),
        None => Err(crate::Error::Usage(
            "--install goes with ssh://… or wsl://…: with a command of your own, install \
             Redline there yourself"
                .into(),
        )),
    }
}

/// `uname -sm` as `std::env::consts` names it: `Linux aarch64` is `linux aarch64`, `Darwin
/// arm64` is `macos aarch64`; `None` for a system no Redline is built for.
fn platform(uname: &str) -> Option<String> {
    let (os, arch) = uname.split_once(' ')?;
    let os = match os {
        "Linux" => "linux",
        "Darwin" => "macos",
        _ => return None,
    };
    let arch = match arch {
        "x86_64" | "amd64" => "x86_64",
        "aarch64" | "arm64" => "aarch64",
        _ => return None,
    };
    Some(format!("{os} {arch}"))
}

/// The file's sha256, in lower-case hex as sha256sum prints it, and its length in bytes.
async fn sha256(path: &Path) -> std::io::Result<(String, u64)> {
    let mut file = tokio::fs::File::open(path).await?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut len = 0u64;
    loop {
        let n = file.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        len += n as u64;
    }
    let hex = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((hex, len))
}

/// Runs `command` with `input`'s bytes on its stdin (else none) within `within`: its stdout,
/// or why it failed in its own last words.
async fn run(
    command: &[String],
    input: Option<&Path>,
    within: Duration,
) -> std::result::Result<String, String> {
    let (program, args) = command.split_first().ok_or("no command")?;
    let mut child = without_terminal(program, args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .spawn()
        .map_err(|e| format!("`{program}` could not be run: {e}"))?;
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let feed = async {
        if let (Some(path), Some(mut stdin)) = (input, stdin) {
            let mut file = tokio::fs::File::open(path).await?;
            tokio::io::copy(&mut file, &mut stdin).await?;
            stdin.shutdown().await?;
        }
        std::io::Result::Ok(())
    };
    let done = async {
        // Its words read while it is fed: a far side that stops reading fails the copy, and
        // they then say why.
        let (fed, out, err) = tokio::join!(feed, kept(stdout), kept(stderr));
        (fed, child.wait().await, out, err)
    };
    let (fed, status, out, err) = tokio::time::timeout(within, done)
        .await
        .map_err(|_| format!("no answer within {} s", within.as_secs()))?;
    let last = err
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    match status {
        Ok(s) if s.success() && fed.is_ok() => Ok(out),
        Ok(s) if !last.is_empty() => Err(format!("{last} ({s})")),
        Ok(s) => Err(match fed {
            Err(e) => format!("the copy was cut short: {e} ({s})"),
            Ok(()) => format!("it ended with {s}"),
        }),
        Err(e) => Err(e.to_string()),
    }
}

/// Up to [`SAID_KEPT`] bytes of a pipe, read to its end.
async fn kept(pipe: Option<impl tokio::io::AsyncRead + Unpin>) -> String {
    let Some(pipe) = pipe else {
        return String::new();
    };
    let mut bytes = Vec::new();
    let mut limited = pipe.take(SAID_KEPT);
    let _ = limited.read_to_end(&mut bytes).await;
    // The rest drained, so the far side never blocks on a full pipe.
    let _ = tokio::io::copy(&mut limited.into_inner(), &mut tokio::io::sink()).await;
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uname_is_named_as_this_build_names_its_platform() {
        assert_eq!(platform("Linux x86_64").as_deref(), Some("linux x86_64"));
        assert_eq!(platform("Linux aarch64").as_deref(), Some("linux aarch64"));
        assert_eq!(platform("Darwin arm64").as_deref(), Some("macos aarch64"));
        assert_eq!(platform("FreeBSD amd64"), None);
        assert_eq!(platform("Linux riscv64"), None);
        assert_eq!(platform(""), None);
    }

    /// The copy script run by the real `sh` with a HOME of its own, fed `bytes` expected to
    /// have sha256 `sum`: what it said, and what its bin directory holds after.
    #[cfg(unix)]
    async fn copied(bytes: &[u8], sum: &str) -> (std::result::Result<String, String>, Vec<String>) {
        let home = tempfile::tempdir().unwrap();
        let from = home.path().join("build");
        std::fs::write(&from, bytes).unwrap();
        let script = format!(
            "HOME='{}'; {}",
            home.path().display(),
            COPY.replace("SUM", sum)
        );
        let command = ["sh".to_owned(), "-c".to_owned(), script];
        let said = run(&command, Some(&from), Duration::from_secs(30)).await;
        let bin = home.path().join(".local/share/redline/bin");
        let mut left: Vec<String> = std::fs::read_dir(bin)
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        left.sort();
        if left == ["redline"] {
            let there =
                std::fs::read(home.path().join(".local/share/redline/bin/redline")).unwrap();
            assert_eq!(there, bytes);
        }
        (said, left)
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn only_a_whole_copy_that_runs_there_takes_the_place() {
        let program = std::fs::read("/bin/true").unwrap();
        let good = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(good.path(), &program).unwrap();
        let (sum, len) = sha256(good.path()).await.unwrap();
        assert_eq!(len, program.len() as u64);
        assert_eq!(
            copied(&program, &sum).await,
            (Ok(String::new()), vec!["redline".into()])
        );

        // Damaged on the way (another sum): said, and nothing left.
        let (said, left) = copied(&program, &"0".repeat(64)).await;
        let said = said.unwrap_err();
        assert!(
            said.starts_with("the copy arrived damaged (sha256 "),
            "{said}"
        );
        assert!(left.is_empty(), "{left:?}");

        // Whole, and it does not run there (here: no program at all).
        let text = b"\x7fELF but not really\n";
        let damaged = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(damaged.path(), text).unwrap();
        let (said, left) = copied(text, &sha256(damaged.path()).await.unwrap().0).await;
        assert!(said.is_err());
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_far_sides_escape_sequences_never_reach_the_message() {
        let said = not_installed("box", "\x1b]0;owned\x07uname \x1b[31mLinux\r\n".into());
        let text = said.to_string();
        assert!(!text.chars().any(char::is_control), "{text:?}");
        assert!(text.contains("Linux"), "{text}");
    }

    #[test]
    fn the_scripts_go_through_sh_c_in_single_quotes() {
        assert!(!PROBE.contains('\'') && !COPY.contains('\''));
    }
}
