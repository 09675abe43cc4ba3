//! A settings file's grouped hooks (`hooks.{event}` lists `{matcher, hooks: [...]}`, Claude Code's
//! shape, which Codex, Gemini and Qwen copied): Redline's entry put in, found and taken out for an
//! event, every other entry left as it is.

use super::hook_entry::{ours, HookInstalled};
use crate::clients::HookSite;
use crate::error::{Error, Result};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Redline's entry in a group, running `command`.
pub(super) fn entry(site: &HookSite, command: &str) -> Value {
    json!({ "type": "command", "command": command, "timeout": site.timeout_value() })
}

/// Puts `entry` into `event`'s groups of `doc` (a new group with `matcher`, if any), in place of
/// Redline's entry there; what it did (nothing is written yet).
pub(super) fn put(
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
    match doc.get("hooks") {
        None => return Ok(false),
        Some(h) if h.is_object() && h.get(event).is_none() => return Ok(false),
        // Any other shape: `groups` says what is wrong with it.
        Some(_) => {}
    }
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
        let events = doc.get_mut("hooks").and_then(Value::as_object_mut);
        // `hooks` emptied by this goes too: the file reads as before Redline's install.
        let emptied = events.is_some_and(|e| {
            e.remove(event);
            e.is_empty()
        });
        if let (true, Some(root)) = (emptied, doc.as_object_mut()) {
            root.remove("hooks");
        }
    }
    Ok(removed)
}

/// Redline's entry in `event`'s groups of `doc`, if it is there (nothing is added).
pub(super) fn find<'a>(doc: &'a Value, site: &HookSite, event: &str) -> Option<&'a Value> {
    doc.get("hooks")?
        .get(event)?
        .as_array()?
        .iter()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .find(|h| ours(h, site))
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
