//! Redline's own hook file in a CLI's hooks directory (Copilot CLI's `hooks/*.json`): written
//! whole (the pre-edit hook, and in the turn modes the prompt and end-of-turn hooks), found, and
//! removed, never touching a file of that name that is not Redline's.

use super::hook_entry::{
    bytes, ours, pre_command, read, start_command, turn_command, Found, HookInstalled, ReviewMode,
};
use crate::clients::HookCli;
use crate::discovery::DiscoveryError;
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::path::Path;

/// The hooks `mode` needs, each `(event, command, matcher)`: the pre-edit hook, and in the turn
/// modes the prompt and end-of-turn hooks (no matcher: they run once a prompt).
fn hooks(
    site: &HookCli,
    program: &Path,
    mode: ReviewMode,
) -> Vec<(&'static str, String, Option<&'static str>)> {
    let mut all = vec![(
        site.event,
        pre_command(site, program, mode),
        Some(site.matcher),
    )];
    if mode.turns() {
        all.extend(
            site.start_event
                .map(|e| (e, start_command(site, program), None)),
        );
        all.extend(
            site.turn_event
                .map(|e| (e, turn_command(site, program), None)),
        );
    }
    all
}

/// The file's whole text holding `hooks`.
fn text(
    site: &HookCli,
    file: &Path,
    hooks: &[(&'static str, String, Option<&'static str>)],
) -> Result<String> {
    // The CLI runs `bash` on Unix and `powershell` on Windows; the command is quoted for one.
    let shell = match cfg!(windows) {
        true => "powershell",
        false => "bash",
    };
    let mut events = serde_json::Map::new();
    for (event, command, matcher) in hooks {
        let mut entry = json!({ "type": "command" });
        entry[shell] = json!(command);
        if let Some(matcher) = matcher {
            entry["matcher"] = json!(matcher);
        }
        // The end-of-turn hook waits for the user as long as the pre-edit one.
        entry["timeoutSec"] = json!(site.timeout_value());
        events.insert((*event).to_owned(), json!([entry]));
    }
    let doc = json!({ "version": 1, "hooks": events });
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: e.to_string(),
    })?;
    text.push('\n');
    Ok(text)
}

/// Redline's entry for `event` in a parsed file, if the file is Redline's: every hook in it is
/// Redline's (one the user added beside it is theirs, and is never dropped with the file).
fn entry<'a>(site: &HookCli, doc: &'a Value, event: &str) -> Option<&'a Value> {
    let events = doc.get("hooks")?.as_object()?;
    let mut all = events.values().map(Value::as_array);
    if !all.all(|hooks| hooks.is_some_and(|h| h.iter().all(|h| ours(h, site)))) {
        return None;
    }
    events.get(event)?.as_array()?.first()
}

fn foreign(file: &Path) -> DiscoveryError {
    DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: "a file of that name is there and is not Redline's (it holds a hook of someone else's, or none)".into(),
    }
}

/// Writes the file with the hooks `mode` needs (atomically) unless it says exactly this already;
/// refuses one not Redline's.
pub fn install(
    site: &HookCli,
    file: &Path,
    program: &Path,
    mode: ReviewMode,
) -> Result<HookInstalled> {
    let want = text(site, file, &hooks(site, program, mode))?;
    let done = match bytes(file)? {
        Some(bytes) if bytes == want.as_bytes() => return Ok(HookInstalled::Already),
        Some(_) => match entry(site, &read(file)?, site.event) {
            Some(_) => HookInstalled::Replaced,
            None => return Err(foreign(file).into()),
        },
        None => HookInstalled::Added,
    };
    crate::platform::private_file::write(file, want.as_bytes())?;
    Ok(done)
}

/// Removes the file if it is Redline's; one that is not is refused and left. False: no file.
pub fn uninstall(site: &HookCli, file: &Path) -> Result<bool> {
    if find(site, file)?.is_none() {
        return match file.exists() {
            true => Err(foreign(file).into()),
            false => Ok(false),
        };
    }
    std::fs::remove_file(file).map_err(|e| Error::io(file, e))?;
    Ok(true)
}

/// Redline's pre-edit hook in the file, if the file is there and is Redline's.
pub fn find(site: &HookCli, file: &Path) -> Result<Option<Found>> {
    find_event(site, file, site.event)
}

/// Redline's hook on `event` in the file, if the file is there and is Redline's.
pub fn find_event(site: &HookCli, file: &Path, event: &str) -> Result<Option<Found>> {
    if !file.exists() {
        return Ok(None);
    }
    let doc = read(file)?;
    Ok(entry(site, &doc, event).map(|h| Found {
        command: ["bash", "powershell", "command"]
            .iter()
            .find_map(|k| h.get(*k).and_then(Value::as_str))
            .unwrap_or_default()
            .to_owned(),
        timeout: h.get("timeoutSec").and_then(Value::as_u64),
    }))
}
