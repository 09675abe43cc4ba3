//! Redline's hook in a CLI's own hook config: merged in beside whatever else is there, found,
//! and taken out again, never touching another hook (a plugin file is `hook_plugin`'s).

use super::hook_plugin;
use crate::clients::{HookForm, HookSite};
use crate::error::{Error, Result};
use serde_json::{json, Map, Value};
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

/// The command line a CLI's hook runs: `program` quoted for the shell that runs it (a plugin
/// runs it with no shell).
pub fn command(site: &HookSite, program: &Path) -> String {
    match (site.form, site.deny_after()) {
        (HookForm::Plugin, _) => format!("{} hook {}", program.display(), site.id),
        (HookForm::Settings { .. }, Some(secs)) => {
            format!("{} hook {} --deny-after {secs}", quote(program), site.id)
        }
        (HookForm::Settings { .. }, None) => format!("{} hook {}", quote(program), site.id),
    }
}

/// The settings entry's event, matcher and timeout as the config writes it.
struct Entry {
    event: &'static str,
    matcher: &'static str,
    timeout: u64,
}

impl Entry {
    fn of(site: &HookSite) -> Option<Entry> {
        match site.form {
            HookForm::Settings {
                event,
                matcher,
                timeout_secs,
                timeout_in_ms,
            } => Some(Entry {
                event,
                matcher,
                timeout: match timeout_in_ms {
                    true => timeout_secs * 1000,
                    false => timeout_secs,
                },
            }),
            HookForm::Plugin => None,
        }
    }
}

/// Makes `site`'s hook run `program`, leaving every other hook as it is.
pub fn install(site: &HookSite, file: &Path, program: &Path) -> Result<HookInstalled> {
    let Some(e) = Entry::of(site) else {
        return hook_plugin::install(site, file, program);
    };
    let command = command(site, program);
    let mut doc = read(file)?;
    let groups = groups(&mut doc, e.event, file)?;
    let entry = json!({ "type": "command", "command": command, "timeout": e.timeout });
    let matcher = json!(e.matcher);
    let at = groups.iter().enumerate().find_map(|(g, group)| {
        let hooks = group.get("hooks")?.as_array()?;
        Some((g, hooks.iter().position(|h| ours(h, site))?))
    });
    let done = match at {
        Some((g, h))
            if groups[g]["hooks"][h] == entry && groups[g].get("matcher") == Some(&matcher) =>
        {
            return Ok(HookInstalled::Already)
        }
        Some((g, h)) => {
            groups[g]["hooks"][h] = entry;
            groups[g]["matcher"] = matcher;
            HookInstalled::Replaced
        }
        None => {
            groups.push(json!({ "matcher": e.matcher, "hooks": [entry] }));
            HookInstalled::Added
        }
    };
    write(file, &doc)?;
    Ok(done)
}

/// Takes Redline's hook out of `file`; a group left empty goes too. False: it was not there.
pub fn uninstall(site: &HookSite, file: &Path) -> Result<bool> {
    let Some(e) = Entry::of(site) else {
        return hook_plugin::uninstall(site, file);
    };
    if !file.exists() {
        return Ok(false);
    }
    let mut doc = read(file)?;
    let groups = groups(&mut doc, e.event, file)?;
    let mut removed = false;
    groups.retain_mut(|group| {
        let Some(hooks) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
            return true;
        };
        let before = hooks.len();
        hooks.retain(|h| !ours(h, site));
        removed |= hooks.len() != before;
        !(hooks.is_empty() && before > 0)
    });
    if !removed {
        return Ok(false);
    }
    if groups.is_empty() {
        if let Some(events) = doc.get_mut("hooks").and_then(Value::as_object_mut) {
            events.remove(e.event);
        }
    }
    write(file, &doc)?;
    Ok(true)
}

/// Redline's hook in `file`, if it is there.
pub fn find(site: &HookSite, file: &Path) -> Result<Option<Found>> {
    let Some(e) = Entry::of(site) else {
        return hook_plugin::find(site, file);
    };
    if !file.exists() {
        return Ok(None);
    }
    let mut doc = read(file)?;
    let groups = groups(&mut doc, e.event, file)?;
    Ok(groups
        .iter()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .find(|h| ours(h, site))
        .map(|h| Found {
            command: h["command"].as_str().unwrap_or_default().to_owned(),
            timeout: h.get("timeout").and_then(Value::as_u64),
        }))
}

/// Where a CLI's hook stands, for `redline hooks status` and doctor.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookStatus {
    pub cli: &'static str,
    pub name: &'static str,
    pub file: std::path::PathBuf,
    /// Redline's hook command, if the file has one.
    pub command: Option<String>,
    /// It runs this `redline` (not one since moved or removed), with the timeout Redline sets.
    pub current: bool,
    /// What the user still does in the CLI before it runs the hook.
    pub needs: Option<&'static str>,
}

/// Where `site`'s hook stands in `file`, against the command `program` would install.
pub fn status(site: &'static HookSite, file: &Path, program: &Path) -> Result<HookStatus> {
    let found = find(site, file)?;
    let current = found.as_ref().is_some_and(|f| match Entry::of(site) {
        Some(e) => f.command == command(site, program) && f.timeout == Some(e.timeout),
        None => hook_plugin::current(file, program),
    });
    Ok(HookStatus {
        cli: site.id,
        name: site.name,
        file: file.to_owned(),
        needs: found.as_ref().and(site.trust),
        command: found.map(|f| f.command),
        current,
    })
}

/// Whether a hook entry is Redline's for this CLI: a command running `redline hook ID`
/// (the program's path may be quoted, and hold spaces).
fn ours(hook: &Value, site: &HookSite) -> bool {
    let Some(command) = hook.get("command").and_then(Value::as_str) else {
        return false;
    };
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

/// The file as JSON: `{}` when it does not exist; anything else that is not a JSON object is
/// refused, never overwritten.
fn read(file: &Path) -> Result<Value> {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(json!({})),
        Err(e) => return Err(Error::io(file, e)),
    };
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

/// The file's list of hook groups for `event`, made if missing.
fn groups<'a>(doc: &'a mut Value, event: &str, file: &Path) -> Result<&'a mut Vec<Value>> {
    let shape = |why: &str| Error::HookConfig {
        path: file.to_owned(),
        why: why.to_owned(),
    };
    let root = doc
        .as_object_mut()
        .ok_or_else(|| shape("it is not a JSON object"))?;
    let events = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| shape("its `hooks` is not an object"))?;
    events
        .entry(event)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| shape(&format!("its `hooks.{event}` is not a list")))
}

fn write(file: &Path, doc: &Value) -> Result<()> {
    let mut text = serde_json::to_string_pretty(doc).map_err(|e| Error::HookConfig {
        path: file.to_owned(),
        why: e.to_string(),
    })?;
    text.push('\n');
    crate::platform::private_file::write(file, text.as_bytes())
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

#[cfg(test)]
#[path = "hook_config_tests.rs"]
mod tests;
