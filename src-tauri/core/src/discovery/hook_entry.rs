//! Redline's hook entry in any CLI's hook config: whether an entry is Redline's, what it says, and
//! the config file read as a JSON object (never overwritten when it is not one).

use crate::clients::{Entries, HookSite, Layout};
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::path::Path;

/// Redline's hook entry, as `file` holds it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub command: String,
    /// As the config writes it (seconds or milliseconds, as the CLI reads it).
    pub timeout: Option<u64>,
}

/// What `install` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookInstalled {
    /// The entry was there already, word for word: the file is untouched (and any trust the
    /// CLI keeps for it holds).
    Already,
    Added,
    /// An entry of Redline's said something else (another binary, another timeout): replaced.
    Replaced,
}

/// Whether a hook entry is Redline's for this CLI: a command running `redline hook ID`
/// (the program's path may be quoted, and hold spaces) in any of the keys a CLI runs.
pub(super) fn ours(hook: &Value, site: &HookSite) -> bool {
    let at = match site.layout {
        Layout::Settings(Entries::Kiro) => hook.get("action"),
        _ => Some(hook),
    };
    ["command", "bash", "powershell"]
        .iter()
        .filter_map(|k| at?.get(*k).and_then(Value::as_str))
        .any(|command| runs_redline(command, site))
}

fn runs_redline(command: &str, site: &HookSite) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    // Either separator: a config may be shared between Windows and a Unix machine.
    let redline = |word: &str| {
        let name = word.trim_matches(['\'', '"']).rsplit(['/', '\\']).next();
        matches!(name, Some("redline" | "redline.exe"))
    };
    words
        .windows(3)
        .any(|w| redline(w[0]) && w[1] == "hook" && w[2] == site.id)
}

/// A CLI's config is a few KiB; a larger one is not read whole.
const CAP: u64 = 4 << 20;

/// The file's bytes, `None` when it does not exist. A link (a settings file kept in dotfiles)
/// is followed; a FIFO, a device or anything past [`CAP`] is refused without blocking.
pub(super) fn bytes(file: &Path) -> Result<Option<Vec<u8>>> {
    match crate::platform::small_file::read_through(file, CAP) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => Err(Error::HookConfig {
            path: file.to_owned(),
            why: format!("it is larger than {} MiB, so it is not read", CAP >> 20),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => Err(Error::HookConfig {
            path: file.to_owned(),
            why: "it is not a regular file (a FIFO, a device or a link to one), so it is \
                  neither read nor replaced"
                .into(),
        }),
        Err(e) => Err(Error::io(file, e)),
    }
}

/// The file as JSON: `{}` when it does not exist; anything else that is not a JSON object is
/// refused, never overwritten.
pub(super) fn read(file: &Path) -> Result<Value> {
    let Some(bytes) = bytes(file)? else {
        return Ok(json!({}));
    };
    let text = String::from_utf8(bytes).map_err(|_| Error::HookConfig {
        path: file.to_owned(),
        why: "it is not UTF-8 text".into(),
    })?;
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    let doc: Value = serde_json::from_str(&text).map_err(|e| Error::HookConfig {
        path: file.to_owned(),
        why: format!("it is not valid JSON ({e})"),
    })?;
    match doc.is_object() {
        true => Ok(doc),
        false => Err(Error::HookConfig {
            path: file.to_owned(),
            why: "it is not a JSON object".into(),
        }),
    }
}

/// The command line a CLI's hook runs: `program` quoted for the shell that runs it (a plugin
/// runs it with no shell).
pub fn command(site: &HookSite, program: &Path) -> String {
    if site.layout == Layout::Plugin {
        return format!("{} hook {}", program.display(), site.id);
    }
    let program = quote(program);
    // PowerShell (a hooks file's Windows shell) reads a quoted path as a string, not a program.
    let call = match site.layout == Layout::OwnFile && program.starts_with('"') {
        true => "& ",
        false => "",
    };
    match site.deny_after() {
        Some(secs) => format!("{call}{program} hook {} --deny-after {secs}", site.id),
        None => format!("{call}{program} hook {}", site.id),
    }
}

/// The pre-edit command line with `--record-turn`, for a hook that keeps the turn's files for
/// the end-of-turn review.
pub fn command_recording(site: &HookSite, program: &Path) -> String {
    format!("{} --record-turn", command(site, program))
}

/// The command line the end-of-turn hook runs (`--turn-review`).
pub fn turn_command(site: &HookSite, program: &Path) -> String {
    format!("{} hook {} --turn-review", quote(program), site.id)
}

pub(super) fn write(file: &Path, doc: &Value) -> Result<()> {
    let mut text = serde_json::to_string_pretty(doc).map_err(|e| Error::HookConfig {
        path: file.to_owned(),
        why: e.to_string(),
    })?;
    text.push('\n');
    crate::platform::private_file::write(&through(file)?, text.as_bytes())
}

/// Where a write to `file` goes: what a link points to, so that a settings file linked from
/// the user's dotfiles stays a link and its target gets the change.
pub(super) fn through(file: &Path) -> Result<std::path::PathBuf> {
    match std::fs::symlink_metadata(file) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(file).map_err(|e| Error::io(file, e))
        }
        _ => Ok(file.to_owned()),
    }
}

/// A path as the CLI's shell reads it: bare when plain, else quoted (single quotes for a POSIX
/// shell, double quotes for Windows' `cmd.exe`).
fn quote(p: &Path) -> String {
    let s = p.to_string_lossy();
    if s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/\\._-+:@".contains(&b))
    {
        return s.into_owned();
    }
    match cfg!(windows) {
        true => format!("\"{s}\""),
        false => format!("'{}'", s.replace('\'', r"'\''")),
    }
}
