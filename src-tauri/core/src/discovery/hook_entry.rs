//! Redline's hook entry in any CLI's hook config: whether an entry is Redline's, what it says, and
//! the config file read as a JSON object (never overwritten when it is not one).

use crate::clients::{Entries, HookCli, Layout};
use crate::discovery::DiscoveryError;
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

/// Whether a hook entry is Redline's for this CLI: `type: "command"` (where the CLI has one)
/// and a command that is exactly one Redline writes (see [`runs_redline`]), in any of the keys
/// a CLI runs. A command that merely mentions `redline hook ID` is the user's.
pub(super) fn ours(hook: &Value, site: &HookCli) -> bool {
    let at = match site.layout {
        Layout::Settings(Entries::Kiro) => hook.get("action"),
        _ => Some(hook),
    };
    let Some(at) = at else { return false };
    if at.get("type").is_some_and(|t| t != "command") {
        return false;
    }
    ["command", "bash", "powershell"]
        .iter()
        .filter_map(|k| at.get(*k).and_then(Value::as_str))
        .any(|command| runs_redline(command, site))
}

/// Whether `command` is, whole, one of the command lines Redline writes for `site` (for any
/// `redline` path, so that one of a moved binary is found and replaced): the program, bare or
/// quoted as [`quote`] quotes it, named `redline` or `redline.exe`, then `hook ID`, then only
/// the flags Redline adds.
pub(super) fn runs_redline(command: &str, site: &HookCli) -> bool {
    let command = command.strip_prefix("& ").unwrap_or(command);
    let Some((program, rest)) = program(command) else {
        return false;
    };
    let name = program.rsplit(['/', '\\']).next();
    if !matches!(name, Some("redline" | "redline.exe")) {
        return false;
    }
    let Some(rest) = rest.strip_prefix(&format!(" hook {}", site.id())) else {
        return false;
    };
    if matches!(rest, " --turn-review" | " --turn-start" | " --record-only") {
        return true;
    }
    let rest = rest.strip_suffix(" --record-turn").unwrap_or(rest);
    match rest.strip_prefix(" --deny-after ") {
        Some(secs) => !secs.is_empty() && secs.bytes().all(|b| b.is_ascii_digit()),
        None => rest.is_empty(),
    }
}

/// The program at the start of a command line, unquoted, and what follows it.
fn program(command: &str) -> Option<(String, &str)> {
    if let Some(quoted) = command.strip_prefix('"') {
        let end = quoted.find('"')?;
        return Some((quoted[..end].to_owned(), &quoted[end + 1..]));
    }
    if command.starts_with('\'') {
        // POSIX single quotes, a quote inside written `'\''`.
        let mut out = String::new();
        let mut rest = command;
        while let Some(inner) = rest.strip_prefix('\'') {
            let end = inner.find('\'')?;
            out.push_str(&inner[..end]);
            rest = &inner[end + 1..];
            match rest.strip_prefix("\\'") {
                Some(more) if more.starts_with('\'') => {
                    out.push('\'');
                    rest = more;
                }
                _ => break,
            }
        }
        return Some((out, rest));
    }
    let end = command.find(' ').unwrap_or(command.len());
    let bare = &command[..end];
    let plain = bare
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/\\._-+:@".contains(&b));
    plain.then(|| (bare.to_owned(), &command[end..]))
}

/// A CLI's config is a few KiB; a larger one is not read whole.
const CAP: u64 = 4 << 20;

/// The file's bytes, `None` when it does not exist. A link (a settings file kept in dotfiles)
/// is followed; a FIFO, a device or anything past [`CAP`] is refused without blocking.
pub(super) fn bytes(file: &Path) -> Result<Option<Vec<u8>>> {
    match crate::platform::small_file::read_through(file, CAP) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => Err(DiscoveryError::HookConfig {
            path: file.to_owned(),
            why: format!("it is larger than {} MiB, so it is not read", CAP >> 20),
        }
        .into()),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => Err(DiscoveryError::HookConfig {
            path: file.to_owned(),
            why: "it is not a regular file (a FIFO, a device or a link to one), so it is \
                  neither read nor replaced"
                .into(),
        }
        .into()),
        Err(e) => Err(Error::io(file, e)),
    }
}

/// The file as JSON: `{}` when it does not exist; anything else that is not a JSON object is
/// refused, never overwritten.
pub(super) fn read(file: &Path) -> Result<Value> {
    let Some(bytes) = bytes(file)? else {
        return Ok(json!({}));
    };
    let text = String::from_utf8(bytes).map_err(|_| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: "it is not UTF-8 text".into(),
    })?;
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    let doc: Value = serde_json::from_str(&text).map_err(|e| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: format!("it is not valid JSON ({e})"),
    })?;
    match doc.is_object() {
        true => Ok(doc),
        false => Err(DiscoveryError::HookConfig {
            path: file.to_owned(),
            why: "it is not a JSON object".into(),
        }
        .into()),
    }
}

/// The command line a CLI's hook runs: `program` quoted for the shell that runs it (a plugin
/// runs it with no shell).
pub fn command(site: &HookCli, program: &Path) -> String {
    if site.layout == Layout::Plugin {
        return format!("{} hook {}", program.display(), site.id());
    }
    let program = invoke(site, program);
    match site.deny_after() {
        Some(secs) => format!("{program} hook {} --deny-after {secs}", site.id()),
        None => format!("{program} hook {}", site.id()),
    }
}

/// `program` as the CLI's hook shell runs it: quoted, and for a hooks file of Redline's own
/// called with `& ` when quoted (PowerShell, its Windows shell, reads a quoted path as a string,
/// not a program).
fn invoke(site: &HookCli, program: &Path) -> String {
    let program = quote(program);
    match site.layout == Layout::OwnFile && program.starts_with('"') {
        true => format!("& {program}"),
        false => program,
    }
}

/// The pre-edit command line with `--record-turn`, for a hook that keeps the turn's files for
/// the end-of-turn review.
pub fn command_recording(site: &HookCli, program: &Path) -> String {
    format!("{} --record-turn", command(site, program))
}

/// The pre-edit command line of the turn mode (`--record-only`): the turn's files recorded for
/// its review, no review of the edit, no waiting (so no `--deny-after`).
pub fn command_record_only(site: &HookCli, program: &Path) -> String {
    format!("{} hook {} --record-only", invoke(site, program), site.id())
}

/// The pre-edit command line `mode` installs.
pub fn pre_command(site: &HookCli, program: &Path, mode: ReviewMode) -> String {
    match mode {
        ReviewMode::Edit => command(site, program),
        ReviewMode::Turn => command_record_only(site, program),
        ReviewMode::Both => command_recording(site, program),
    }
}

/// The command line the prompt hook runs (`--turn-start`): the turn's checkpoint.
pub fn start_command(site: &HookCli, program: &Path) -> String {
    format!("{} hook {} --turn-start", invoke(site, program), site.id())
}

/// What Redline reviews of a CLI's work, as its installed hooks say (never stored elsewhere):
/// each edit before it lands (today's pre-edit review), each turn at its end (edits go through
/// without Redline asking), or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReviewMode {
    Edit,
    Turn,
    Both,
}

impl ReviewMode {
    /// Whether the turn's hooks (prompt and end of turn) go in.
    pub fn turns(self) -> bool {
        self != ReviewMode::Edit
    }

    /// The mode's word, as `--review` takes it and `hooks status --json` says it.
    pub fn word(self) -> &'static str {
        match self {
            ReviewMode::Edit => "edit",
            ReviewMode::Turn => "turn",
            ReviewMode::Both => "both",
        }
    }
}

/// The command line the end-of-turn hook runs (`--turn-review`).
pub fn turn_command(site: &HookCli, program: &Path) -> String {
    format!("{} hook {} --turn-review", invoke(site, program), site.id())
}

/// The file's text, `None` when it does not exist; refused when it is not UTF-8.
pub(super) fn text(file: &Path) -> Result<Option<String>> {
    let Some(bytes) = bytes(file)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|_| {
        DiscoveryError::HookConfig {
            path: file.to_owned(),
            why: "it is not UTF-8 text".into(),
        }
        .into()
    })
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
