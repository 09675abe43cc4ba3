//! A CLI's review mode in its hooks (`--review edit|turn|both`), for a CLI whose settings file
//! holds groups of hooks per event: the end-of-turn hook (`--turn-review`: Codex CLI's, Claude
//! Code's and Qwen Code's `Stop`, Gemini CLI's `AfterAgent`) and the prompt hook (`--turn-start`:
//! `UserPromptSubmit`, `BeforeAgent`) beside the pre-edit one, put in, found and taken out
//! together, each in a group of Redline's own (no matcher: the events have none), every other
//! byte of the file kept.

use super::hook_entry::{
    pre_command, start_command, turn_command, Found, HookInstalled, ReviewMode,
};
use super::hook_groups::{self, entry, fresh, group, slot as pre_slot, Op, Slot};
use crate::clients::{Entries, HookCli, Layout};
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

/// Where Redline's prompt-hook group goes, for a CLI that has a prompt hook.
pub(super) fn start_slot(site: &HookCli) -> Option<Slot<'_>> {
    site.start_event.map(|event| slot(site, event))
}

/// The hooks `mode` needs, in one write: the pre-edit hook (reviewing, recording the turn's
/// files, or recording only), and the end-of-turn and prompt hooks (or, in the edit mode, none:
/// ones installed before are taken out).
pub fn install<'s>(
    site: &'s HookCli,
    file: &Path,
    program: &Path,
    mode: ReviewMode,
) -> Result<HookInstalled> {
    let Some(event) = site.turn_event else {
        return Err(DiscoveryError::HookConfig {
            path: file.to_owned(),
            why: format!("Redline does not review {}'s turns yet", site.name()),
        }
        .into());
    };
    let pre = Op::Put(
        pre_slot(site, Entries::Grouped),
        group(
            Some(site.matcher),
            entry(site, &pre_command(site, program, mode)),
        ),
    );
    let put_or_take = |slot: Slot<'s>, command: String| -> Op<'s> {
        match mode.turns() {
            true => Op::Put(slot, group(None, entry(site, &command))),
            false => Op::Take(slot),
        }
    };
    let mut ops = vec![
        pre,
        put_or_take(slot(site, event), turn_command(site, program)),
    ];
    if let Some(start) = start_slot(site) {
        ops.push(put_or_take(start, start_command(site, program)));
    }
    let edited = hook_groups::edit(file, site.reads, &fresh(Entries::Grouped), &ops)?;
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
    find_on(site, file, site.turn_event)
}

/// Redline's prompt hook in `file`, if the CLI has one and it is there.
pub fn find_start(site: &HookCli, file: &Path) -> Result<Option<Found>> {
    find_on(site, file, site.start_event)
}

/// Redline's hook on `event` in `file`: in a group of its own, in a hooks file of Redline's own
/// (Copilot CLI), or in Redline's plugin (opencode); none for a CLI without the event.
fn find_on(site: &HookCli, file: &Path, event: Option<&str>) -> Result<Option<Found>> {
    match (event, site.layout) {
        (Some(event), Layout::OwnFile) => super::hook_file::find_event(site, file, event),
        (Some(event), Layout::Plugin) => super::hook_plugin::find_event(site, file, event),
        (Some(event), Layout::Settings(Entries::Grouped)) => find_in(&slot(site, event), file),
        _ => Ok(None),
    }
}

/// Redline's entry in a group of its own at `slot`.
fn find_in(slot: &Slot<'_>, file: &Path) -> Result<Option<Found>> {
    let found = hook_groups::find(slot, file, slot.site.reads)?;
    Ok(found.map(|h| Found {
        command: h["command"].as_str().unwrap_or_default().to_owned(),
        timeout: h.get("timeout").and_then(Value::as_u64),
    }))
}
