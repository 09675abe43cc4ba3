//! Redline's hook in a CLI's own hook config: merged in beside whatever else is there, found,
//! and taken out again, never touching another hook.

pub use super::hook_entry::{command, command_recording, turn_command, Found, HookInstalled};
use super::hook_entry::{ours, read, write};
use super::{hook_file, hook_groups, hook_plugin, hook_turn};
use crate::clients::{Entries, HookSite, Layout};
use crate::error::{Error, Result};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Makes `site`'s hook run `program`, leaving every other hook as it is.
pub fn install(site: &HookSite, file: &Path, program: &Path) -> Result<HookInstalled> {
    let command = &command(site, program);
    let entries = match site.layout {
        Layout::Plugin => return hook_plugin::install(site, file, program),
        Layout::OwnFile => return hook_file::install(site, file, command),
        Layout::Settings(entries) => entries,
    };
    let mut doc = read(file)?;
    let entry = entry(site, entries, command);
    let done = match entries {
        Entries::Grouped => {
            hook_groups::put(&mut doc, site, file, site.event, Some(site.matcher), entry)?
        }
        Entries::Flat | Entries::Kiro => {
            let list = list(&mut doc, site, entries, file)?;
            match list.iter().position(|h| ours(h, site)) {
                Some(i) if list[i] == entry => HookInstalled::Already,
                Some(i) => {
                    list[i] = entry;
                    HookInstalled::Replaced
                }
                None => {
                    list.push(entry);
                    HookInstalled::Added
                }
            }
        }
    };
    if done == HookInstalled::Already {
        return Ok(done);
    }
    // The schema version these files must name; one the user's file names already stays.
    let version = match entries {
        Entries::Grouped => None,
        Entries::Flat => Some(json!(1)),
        Entries::Kiro => Some(json!("v1")),
    };
    if let (Some(v), Some(root)) = (version, doc.as_object_mut()) {
        root.entry("version").or_insert(v);
    }
    write(file, &doc)?;
    Ok(done)
}

/// `install`, with the end-of-turn review too (`--turn-review`: only for a CLI whose turns Redline
/// reviews), or without it, taking out one installed before.
pub fn install_for(
    site: &HookSite,
    file: &Path,
    program: &Path,
    turn_review: bool,
) -> Result<HookInstalled> {
    match (site.layout, site.turn_event) {
        (Layout::Settings(Entries::Grouped), Some(_)) => {
            hook_turn::install(site, file, program, turn_review)
        }
        _ if turn_review => Err(Error::HookConfig {
            path: file.to_owned(),
            why: format!("Redline does not review {}'s turns yet", site.name),
        }),
        _ => install(site, file, program),
    }
}

/// Takes Redline's hooks (pre-edit, and end-of-turn) out of `file`; a group or event left empty
/// goes too, and a hooks file of Redline's own left empty is removed. False: it was not there.
pub fn uninstall(site: &HookSite, file: &Path) -> Result<bool> {
    let entries = match site.layout {
        Layout::Plugin => return hook_plugin::uninstall(site, file),
        Layout::OwnFile => return hook_file::uninstall(site, file),
        Layout::Settings(entries) => entries,
    };
    let mut doc = read(file)?;
    let turn_removed = match site.turn_event {
        Some(event) => hook_groups::take(&mut doc, site, file, event)?,
        None => false,
    };
    let removed = match entries {
        Entries::Grouped => hook_groups::take(&mut doc, site, file, site.event)?,
        Entries::Flat | Entries::Kiro => {
            let list = list(&mut doc, site, entries, file)?;
            let before = list.len();
            list.retain(|h| !ours(h, site));
            let removed = list.len() != before;
            // Nothing in it but the schema version and an empty list: the file was Redline's alone.
            let alone = |doc: &Value| {
                doc.as_object()
                    .is_some_and(|o| o.keys().all(|k| k == "version" || k == "hooks"))
            };
            match (removed && list.is_empty(), entries) {
                (true, Entries::Kiro) if alone(&doc) => {
                    std::fs::remove_file(file).map_err(|e| Error::io(file, e))?;
                    return Ok(true);
                }
                (true, _) => {
                    if let Some(events) = doc.get_mut("hooks").and_then(Value::as_object_mut) {
                        events.remove(site.event);
                    }
                }
                (false, _) => {}
            }
            removed
        }
    };
    if !removed && !turn_removed {
        return Ok(false);
    }
    write(file, &doc)?;
    Ok(true)
}

/// Redline's hook in `file`, if it is there.
pub fn find(site: &HookSite, file: &Path) -> Result<Option<Found>> {
    let entries = match site.layout {
        Layout::Plugin => return hook_plugin::find(site, file),
        Layout::OwnFile => return hook_file::find(site, file),
        Layout::Settings(entries) => entries,
    };
    let mut doc = read(file)?;
    let hook = match entries {
        Entries::Grouped => hook_groups::find(&doc, site, site.event),
        Entries::Flat | Entries::Kiro => {
            if doc.get("hooks").is_none() {
                return Ok(None);
            }
            list(&mut doc, site, entries, file)?
                .iter()
                .find(|h| ours(h, site))
        }
    };
    let at = match entries {
        Entries::Kiro => hook.and_then(|h| h.get("action")),
        Entries::Grouped | Entries::Flat => hook,
    };
    Ok(hook.map(|h| Found {
        command: at
            .and_then(|a| a.get("command"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        timeout: h.get("timeout").and_then(Value::as_u64),
    }))
}

/// Redline's hook entry as `site`'s config writes one.
fn entry(site: &HookSite, entries: Entries, command: &str) -> Value {
    let timeout = site.timeout_value();
    match entries {
        Entries::Grouped => hook_groups::entry(site, command),
        Entries::Flat => json!({ "command": command, "matcher": site.matcher, "timeout": timeout }),
        Entries::Kiro => json!({
            "name": "redline-review",
            "trigger": site.event,
            "matcher": site.matcher,
            "action": { "type": "command", "command": command },
            "timeout": timeout,
            "enabled": true,
        }),
    }
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
    /// The end-of-turn review is installed too (`--turn-review`).
    pub turn_review: bool,
}

/// Where `site`'s hook stands in `file`, against the command `program` would install.
pub fn status(site: &'static HookSite, file: &Path, program: &Path) -> Result<HookStatus> {
    let found = find(site, file)?;
    let turn = hook_turn::find(site, file)?;
    let turn_review = turn.as_ref().is_some_and(|t| {
        t.command == turn_command(site, program) && t.timeout == Some(site.timeout_value())
    });
    let expected = match turn.is_some() {
        true => command_recording(site, program),
        false => command(site, program),
    };
    let current = (turn.is_none() || turn_review)
        && found.as_ref().is_some_and(|f| match site.layout {
            Layout::Plugin => hook_plugin::current(file, program),
            Layout::Settings(_) | Layout::OwnFile => {
                f.command == expected && f.timeout == Some(site.timeout_value())
            }
        });
    Ok(HookStatus {
        cli: site.id,
        name: site.name,
        file: file.to_owned(),
        needs: found.as_ref().and(site.trust),
        command: found.map(|f| f.command),
        current,
        turn_review,
    })
}

/// The list Redline's entry goes in, made if missing: the event's entries (Cursor), or a Kiro
/// hooks file's `hooks`.
fn list<'a>(
    doc: &'a mut Value,
    site: &HookSite,
    entries: Entries,
    file: &Path,
) -> Result<&'a mut Vec<Value>> {
    let shape = |why: &str| Error::HookConfig {
        path: file.to_owned(),
        why: why.to_owned(),
    };
    let root = doc
        .as_object_mut()
        .ok_or_else(|| shape("it is not a JSON object"))?;
    if entries == Entries::Kiro {
        return root
            .entry("hooks")
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .ok_or_else(|| shape("its `hooks` is not a list"));
    }
    let events = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| shape("its `hooks` is not an object"))?;
    events
        .entry(site.event)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| shape(&format!("its `hooks.{}` is not a list", site.event)))
}

#[cfg(test)]
#[path = "hook_config_tests.rs"]
mod tests;

#[cfg(all(test, unix))]
#[path = "hook_config_hostile_tests.rs"]
mod hostile_tests;
