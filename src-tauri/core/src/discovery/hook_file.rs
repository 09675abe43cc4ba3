//! Redline's own hook file in a CLI's hooks directory (Copilot CLI's `hooks/*.json`): written
//! whole, found, and removed, never touching a file of that name that is not Redline's.

use super::hook_entry::{bytes, ours, read, Found, HookInstalled};
use crate::clients::HookCli;
use crate::discovery::DiscoveryError;
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::path::Path;

/// The file's whole text with `command` as the `site` hook.
fn text(site: &HookCli, file: &Path, command: &str) -> Result<String> {
    // The CLI runs `bash` on Unix and `powershell` on Windows; the command is quoted for one.
    let shell = match cfg!(windows) {
        true => "powershell",
        false => "bash",
    };
    let mut entry = json!({ "type": "command" });
    entry[shell] = json!(command);
    entry["matcher"] = json!(site.matcher);
    entry["timeoutSec"] = json!(site.timeout_value());
    let doc = json!({ "version": 1, "hooks": { site.event: [entry] } });
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: e.to_string(),
    })?;
    text.push('\n');
    Ok(text)
}

/// Redline's entry in a parsed file, if the file is Redline's: every hook in it is Redline's
/// (one the user added beside it is theirs, and is never dropped with the file).
fn entry<'a>(site: &HookCli, doc: &'a Value) -> Option<&'a Value> {
    let events = doc.get("hooks")?.as_object()?;
    let mut all = events.values().map(Value::as_array);
    if !all.all(|hooks| hooks.is_some_and(|h| h.iter().all(|h| ours(h, site)))) {
        return None;
    }
    events.get(site.event)?.as_array()?.first()
}

fn foreign(file: &Path) -> DiscoveryError {
    DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: "a file of that name is there and is not Redline's (it holds a hook of someone else's, or none)".into(),
    }
}

/// Writes the file (atomically) unless it says exactly this already; refuses one not Redline's.
pub fn install(site: &HookCli, file: &Path, command: &str) -> Result<HookInstalled> {
    let want = text(site, file, command)?;
    let done = match bytes(file)? {
        Some(bytes) if bytes == want.as_bytes() => return Ok(HookInstalled::Already),
        Some(_) => match entry(site, &read(file)?) {
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

/// Redline's hook in the file, if the file is there and is Redline's.
pub fn find(site: &HookCli, file: &Path) -> Result<Option<Found>> {
    if !file.exists() {
        return Ok(None);
    }
    let doc = read(file)?;
    Ok(entry(site, &doc).map(|h| Found {
        command: ["bash", "powershell", "command"]
            .iter()
            .find_map(|k| h.get(*k).and_then(Value::as_str))
            .unwrap_or_default()
            .to_owned(),
        timeout: h.get("timeoutSec").and_then(Value::as_u64),
    }))
}
