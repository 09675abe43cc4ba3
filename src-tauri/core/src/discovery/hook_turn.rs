//! The end-of-turn hook (`--turn-review`) beside the pre-edit one, for a CLI whose settings file
//! holds groups of hooks per event (Codex CLI's `Stop`, Claude Code's `Stop`, Gemini CLI's
//! `AfterAgent`): put in, found and taken out together with the pre-edit hook, in a group of
//! Redline's own (no matcher: the event has none), every other byte of the file kept.

use super::hook_entry::{command, command_recording, turn_command, Found, HookInstalled};
use super::hook_groups::{self, entry, fresh, group, slot as pre_slot, Op, Slot};
use crate::clients::{Entries, HookCli};
use crate::discovery::DiscoveryError;
use crate::error::Result;
use serde_json::Value;
use std::path::Path;

/// Where Redline's end-of-turn group goes.
pub(super) fn slot<'s>(site: &'s HookCli, event: &'s str) -> Slot<'s> {
    Slot {
        site,
        path: vec!["hooks", event],
        grouped: true,
    }
}

/// Redline's pre-edit hook (recording the turn's files when `turn_review`) and its end-of-turn
/// hook (or, without `turn_review`, none: one installed before is taken out), in one write.
pub fn install(
    site: &HookCli,
    file: &Path,
    program: &Path,
    turn_review: bool,
) -> Result<HookInstalled> {
    let Some(event) = site.turn_event else {
        return Err(DiscoveryError::HookConfig {
            path: file.to_owned(),
            why: format!("Redline does not review {}'s turns yet", site.name()),
        }
        .into());
    };
    let pre = match turn_review {
        true => command_recording(site, program),
        false => command(site, program),
    };
    let pre = Op::Put(
        pre_slot(site, Entries::Grouped),
        group(Some(site.matcher), entry(site, &pre)),
    );
    let turn = match turn_review {
        true => Op::Put(
            slot(site, event),
            group(None, entry(site, &turn_command(site, program))),
        ),
        false => Op::Take(slot(site, event)),
    };
    let edited = hook_groups::edit(file, site.reads, &fresh(Entries::Grouped), &[pre, turn])?;
    if !edited.changed {
        return Ok(HookInstalled::Already);
    }
    hook_groups::save(file, &edited)?;
    Ok(match edited.outcomes[0] {
        HookInstalled::Added => HookInstalled::Added,
        _ => HookInstalled::Replaced,
    })
}

/// Redline's end-of-turn hook in `file`, if the CLI has one and it is there.
pub fn find(site: &HookCli, file: &Path) -> Result<Option<Found>> {
    let Some(event) = site.turn_event else {
        return Ok(None);
    };
    let found = hook_groups::find(&slot(site, event), file, site.reads)?;
    Ok(found.map(|h| Found {
        command: h["command"].as_str().unwrap_or_default().to_owned(),
        timeout: h.get("timeout").and_then(Value::as_u64),
    }))
}
