//! The end-of-turn hook (`--turn-review`) beside the pre-edit one, for a CLI whose settings file
//! holds groups of hooks per event (Codex CLI's `Stop`, Claude Code's `Stop`, Gemini CLI's
//! `AfterAgent`): put in, found and taken out together with the pre-edit hook.

use super::hook_entry::{
    command, command_recording, ours, read, turn_command, write, Found, HookInstalled,
};
use crate::clients::HookSite;
use crate::error::{Error, Result};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Redline's pre-edit hook (recording the turn's files when `turn_review`) and its end-of-turn
/// hook (or, without `turn_review`, none: one installed before is taken out), in one write.
pub fn install(
    site: &HookSite,
    file: &Path,
    program: &Path,
    turn_review: bool,
) -> Result<HookInstalled> {
    let Some(event) = site.turn_event else {
        return Err(Error::HookConfig {
            path: file.to_owned(),
            why: format!("Redline does not review {}'s turns yet", site.name),
        });
    };
    let mut doc = read(file)?;
    let entry =
        |c: &str| json!({ "type": "command", "command": c, "timeout": site.timeout_value() });
    let pre = match turn_review {
        true => command_recording(site, program),
        false => command(site, program),
    };
    let edit = put(
        &mut doc,
        site,
        file,
        site.event,
        Some(site.matcher),
        entry(&pre),
    )?;
    let turned = match turn_review {
        true => put(
            &mut doc,
            site,
            file,
            event,
            None,
            entry(&turn_command(site, program)),
        )?,
        false if has(&doc, event) => match take(&mut doc, site, file, event)? {
            true => HookInstalled::Replaced,
            false => HookInstalled::Already,
        },
        false => HookInstalled::Already,
    };
    let done = match (edit, turned) {
        (HookInstalled::Already, HookInstalled::Already) => return Ok(HookInstalled::Already),
        (HookInstalled::Added, _) => HookInstalled::Added,
        _ => HookInstalled::Replaced,
    };
    write(file, &doc)?;
    Ok(done)
}

/// Redline's end-of-turn hook in `file`, if the CLI has one and it is there.
pub fn find(site: &HookSite, file: &Path) -> Result<Option<Found>> {
    let Some(event) = site.turn_event else {
        return Ok(None);
    };
    if !file.exists() {
        return Ok(None);
    }
    let mut doc = read(file)?;
    if !has(&doc, event) {
        return Ok(None);
    }
    let groups = groups(&mut doc, event, file)?;
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

/// Whether `doc` has a list for `event` at all (one the user left empty stays theirs).
pub(super) fn has(doc: &Value, event: &str) -> bool {
    doc.get("hooks").and_then(|h| h.get(event)).is_some()
}

/// Puts `entry` into `event`'s groups of `doc` (a new group with `matcher`, if any), in place of
/// Redline's entry there; what it did (nothing is written yet).
fn put(
    doc: &mut Value,
    site: &HookSite,
    file: &Path,
    event: &str,
    matcher: Option<&str>,
    entry: Value,
) -> Result<HookInstalled> {
    let groups = groups(doc, event, file)?;
    let at = groups.iter().enumerate().find_map(|(g, group)| {
        let hooks = group.get("hooks")?.as_array()?;
        Some((g, hooks.iter().position(|h| ours(h, site))?))
    });
    let matcher = matcher.map(|m| json!(m));
    Ok(match at {
        Some((g, h))
            if groups[g]["hooks"][h] == entry && groups[g].get("matcher") == matcher.as_ref() =>
        {
            HookInstalled::Already
        }
        Some((g, h)) => {
            groups[g]["hooks"][h] = entry;
            match (matcher, groups[g].as_object_mut()) {
                (Some(m), Some(o)) => {
                    o.insert("matcher".into(), m);
                }
                (None, Some(o)) => {
                    o.remove("matcher");
                }
                (_, None) => {}
            }
            HookInstalled::Replaced
        }
        None => {
            let mut group = json!({ "hooks": [entry] });
            if let Some(m) = matcher {
                group["matcher"] = m;
            }
            groups.push(group);
            HookInstalled::Added
        }
    })
}

/// Takes Redline's entry out of `event`'s groups in `doc`, and the event if nothing is left;
/// false: it was not there.
pub(super) fn take(doc: &mut Value, site: &HookSite, file: &Path, event: &str) -> Result<bool> {
    let groups = groups(doc, event, file)?;
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
    // An event left empty by someone else stays as they wrote it.
    if removed && groups.is_empty() {
        if let Some(events) = doc.get_mut("hooks").and_then(Value::as_object_mut) {
            events.remove(event);
        }
    }
    Ok(removed)
}

/// The file's list of hook groups for `event`, made if missing.
fn groups<'a>(doc: &'a mut Value, event: &str, file: &Path) -> Result<&'a mut Vec<Value>> {
    let shape = |why: &str| Error::HookConfig {
        path: file.to_owned(),
        why: why.to_owned(),
    };
    let events = doc
        .as_object_mut()
        .ok_or_else(|| shape("it is not a JSON object"))?
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
