//! The end-of-turn hook (`--turn-review`) beside the pre-edit one, for a CLI whose settings file
//! holds groups of hooks per event (Codex CLI's `Stop`, Claude Code's `Stop`, Gemini CLI's
//! `AfterAgent`): put in, found and taken out together with the pre-edit hook.

use super::hook_entry::{
    command, command_recording, read, turn_command, write, Found, HookInstalled,
};
use super::hook_groups::{entry, put, take};
use crate::clients::HookSite;
use crate::error::{Error, Result};
use serde_json::Value;
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
        entry(site, &pre),
    )?;
    let turned = match turn_review {
        true => put(
            &mut doc,
            site,
            file,
            event,
            None,
            entry(site, &turn_command(site, program)),
        )?,
        false => match take(&mut doc, site, file, event)? {
            true => HookInstalled::Replaced,
            false => HookInstalled::Already,
        },
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
    let doc = read(file)?;
    Ok(super::hook_groups::find(&doc, site, event).map(|h| Found {
        command: h["command"].as_str().unwrap_or_default().to_owned(),
        timeout: h.get("timeout").and_then(Value::as_u64),
    }))
}
