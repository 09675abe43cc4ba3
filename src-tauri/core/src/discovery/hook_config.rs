//! Redline's hook in a CLI's own hook config: merged in beside whatever else is there, found,
//! and taken out again, never touching another hook.

use crate::clients::HookSite;
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

/// The command line a CLI's hook runs: `program` quoted for the shell that runs it.
pub fn command(site: &HookSite, program: &Path) -> String {
    format!(
        "{} hook {} --deny-after {}",
        quote(program),
        site.id,
        site.deny_after()
    )
}

/// The command line with `--record-turn`, for a pre-edit hook that keeps the turn's files for
/// the end-of-turn review.
pub fn command_recording(site: &HookSite, program: &Path) -> String {
    format!("{} --record-turn", command(site, program))
}

/// The command line the end-of-turn hook runs (`--turn-review`).
pub fn turn_command(site: &HookSite, program: &Path) -> String {
    format!("{} hook {} --turn-review", quote(program), site.id)
}

/// Puts `command` into `file` as the `site` hook, leaving every other hook as it is.
pub fn install(site: &HookSite, file: &Path, command: &str) -> Result<HookInstalled> {
    install_all(site, file, command, None)
}

/// As `install`, and the end-of-turn hook running `turn` (`Some`) or none of Redline's there
/// (`None`: one installed before is taken out), in one write.
pub fn install_all(
    site: &HookSite,
    file: &Path,
    command: &str,
    turn: Option<&str>,
) -> Result<HookInstalled> {
    let mut doc = read(file)?;
    let entry =
        |c: &str| json!({ "type": "command", "command": c, "timeout": site.timeout_value() });
    let edit = put(
        &mut doc,
        site,
        file,
        site.event,
        Some(site.matcher),
        entry(command),
    )?;
    let turned = match (site.turn_event, turn) {
        (Some(event), Some(c)) => put(&mut doc, site, file, event, None, entry(c))?,
        (Some(event), None) if has(&doc, event) => match take(&mut doc, site, file, event)? {
            true => HookInstalled::Replaced,
            false => HookInstalled::Already,
        },
        (None, Some(_)) => {
            return Err(Error::HookConfig {
                path: file.to_owned(),
                why: format!("Redline does not review {}'s turns yet", site.name),
            })
        }
        _ => HookInstalled::Already,
    };
    let done = match (edit, turned) {
        (HookInstalled::Already, HookInstalled::Already) => return Ok(HookInstalled::Already),
        (HookInstalled::Added, _) => HookInstalled::Added,
        _ => HookInstalled::Replaced,
    };
    write(file, &doc)?;
    Ok(done)
}

fn has(doc: &Value, event: &str) -> bool {
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
            match matcher {
                Some(m) => groups[g]["matcher"] = m,
                None => {
                    if let Some(o) = groups[g].as_object_mut() {
                        o.remove("matcher");
                    }
                }
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

/// Takes Redline's hooks (pre-edit and end-of-turn) out of `file`; a group left empty goes too.
/// False: none was there.
pub fn uninstall(site: &HookSite, file: &Path) -> Result<bool> {
    if !file.exists() {
        return Ok(false);
    }
    let mut doc = read(file)?;
    let mut removed = take(&mut doc, site, file, site.event)?;
    if let Some(event) = site.turn_event.filter(|e| has(&doc, e)) {
        removed |= take(&mut doc, site, file, event)?;
    }
    if !removed {
        return Ok(false);
    }
    write(file, &doc)?;
    Ok(true)
}

/// Takes Redline's entry out of `event`'s groups in `doc`, and the event if nothing is left;
/// false: it was not there.
fn take(doc: &mut Value, site: &HookSite, file: &Path, event: &str) -> Result<bool> {
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

/// Redline's hook in `file`, if it is there.
pub fn find(site: &HookSite, file: &Path) -> Result<Option<Found>> {
    find_at(site, file, site.event)
}

/// Redline's end-of-turn hook in `file`, if it is there.
pub fn find_turn(site: &HookSite, file: &Path) -> Result<Option<Found>> {
    match site.turn_event {
        Some(event) => find_at(site, file, event),
        None => Ok(None),
    }
}

fn find_at(site: &HookSite, file: &Path, event: &str) -> Result<Option<Found>> {
    if !file.exists() {
        return Ok(None);
    }
    let mut doc = read(file)?;
    if event != site.event && !has(&doc, event) {
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
    let turn = find_turn(site, file)?;
    let turn_review = turn.as_ref().is_some_and(|t| {
        t.command == turn_command(site, program) && t.timeout == Some(site.timeout_value())
    });
    let expected = match turn.is_some() {
        true => command_recording(site, program),
        false => command(site, program),
    };
    let current = (turn.is_none() || turn_review)
        && found
            .as_ref()
            .is_some_and(|f| f.command == expected && f.timeout == Some(site.timeout_value()));
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
