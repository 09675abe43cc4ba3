//! Redline's hook in a CLI's own hook config: merged in beside whatever else is there, found,
//! and taken out again, never touching another hook.

pub use super::hook_entry::{
    command, command_record_only, command_recording, pre_command, start_command, turn_command,
    Found, HookInstalled, ReviewMode,
};
use super::hook_groups::{self, fresh, slot, Op};
use super::{hook_file, hook_plugin, hook_turn};
use crate::clients::{Entries, HookCli, IdeMode, Layout};
use crate::discovery::DiscoveryError;
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::path::Path;

/// Makes `site`'s hook run `program`, leaving every other byte of the file as it is.
pub fn install(site: &HookCli, file: &Path, program: &Path) -> Result<HookInstalled> {
    let command = &command(site, program);
    let entries = match site.layout {
        Layout::Plugin => return hook_plugin::install(site, file, program, ReviewMode::Edit),
        Layout::OwnFile => return hook_file::install(site, file, program, ReviewMode::Edit),
        Layout::Settings(entries) => entries,
    };
    let ops = [Op::Put(slot(site, entries), member(site, entries, command))];
    let edited = hook_groups::edit(file, site.reads, &fresh(entries), &ops)?;
    if !edited.changed {
        return Ok(HookInstalled::Already);
    }
    hook_groups::save(file, &edited)?;
    Ok(edited.outcomes[0])
}

/// `install`, with the end-of-turn review too (`--turn-review`: only for a CLI whose turns Redline
/// reviews), or without it, taking out one installed before.
pub fn install_for(
    site: &HookCli,
    file: &Path,
    program: &Path,
    turn_review: bool,
) -> Result<HookInstalled> {
    let mode = match turn_review {
        true => ReviewMode::Both,
        false => ReviewMode::Edit,
    };
    install_mode(site, file, program, mode)
}

/// The hooks review `mode` needs (`--review`): the turn and both modes only for a CLI whose
/// turns Redline reviews; the edit mode takes out the turn's hooks installed before.
pub fn install_mode(
    site: &HookCli,
    file: &Path,
    program: &Path,
    mode: ReviewMode,
) -> Result<HookInstalled> {
    match (site.layout, site.turn_event) {
        (Layout::Settings(Entries::Grouped), Some(_)) => {
            hook_turn::install(site, file, program, mode)
        }
        (Layout::OwnFile, Some(_)) => hook_file::install(site, file, program, mode),
        (Layout::Plugin, Some(_)) => hook_plugin::install(site, file, program, mode),
        _ if mode.turns() => Err(DiscoveryError::HookConfig {
            path: file.to_owned(),
            why: format!("Redline does not review {}'s turns yet", site.name()),
        }
        .into()),
        _ => install(site, file, program),
    }
}

/// Redline's member of the hook list: a group holding its entry, or the entry.
fn member(site: &HookCli, entries: Entries, command: &str) -> Value {
    match entries {
        Entries::Grouped => {
            hook_groups::group(Some(site.matcher), hook_groups::entry(site, command))
        }
        _ => entry(site, entries, command),
    }
}

/// Takes Redline's hooks (pre-edit, and end-of-turn) out of `file`, and what Redline made for
/// them alone; a hooks file of Redline's own left empty is removed. False: it was not there.
pub fn uninstall(site: &HookCli, file: &Path) -> Result<bool> {
    let entries = match site.layout {
        Layout::Plugin => return hook_plugin::uninstall(site, file),
        Layout::OwnFile => return hook_file::uninstall(site, file),
        Layout::Settings(entries) => entries,
    };
    let mut ops = vec![Op::Take(slot(site, entries))];
    if let (Some(event), Entries::Grouped) = (site.turn_event, entries) {
        ops.push(Op::Take(hook_turn::slot(site, event)));
        ops.extend(hook_turn::start_slot(site).map(Op::Take));
    }
    let edited = hook_groups::edit(file, site.reads, &fresh(entries), &ops)?;
    if !edited.changed {
        return Ok(false);
    }
    // Kiro's hooks file is Redline's own: left with nothing but its schema version, it goes.
    let alone = serde_json::from_str::<Value>(&edited.body)
        .ok()
        .is_some_and(|doc| {
            doc.as_object().is_some_and(|o| {
                o.keys().all(|k| k == "version" || k == "hooks")
                    && o.get("hooks")
                        .is_none_or(|h| h.as_array().is_some_and(Vec::is_empty))
            })
        });
    if entries == Entries::Kiro && alone {
        std::fs::remove_file(file).map_err(|e| Error::io(file, e))?;
        return Ok(true);
    }
    hook_groups::save(file, &edited)?;
    Ok(true)
}

/// Whether `file` holds, to the byte, what is left of a config `install` created once its hooks
/// are taken out again: nothing but Redline's hook was ever in it (`{}`, or a schema version).
/// Only that, with [`super::hook_created`]'s record that install created it, lets `uninstall`
/// remove the file: the same text in a file the user had is theirs.
pub fn holds_nothing_else(site: &HookCli, file: &Path) -> Result<bool> {
    let Layout::Settings(entries) = site.layout else {
        return Ok(false);
    };
    let Some(text) = super::hook_entry::text(file)? else {
        return Ok(false);
    };
    let command = command(site, Path::new("redline"));
    let fresh = fresh(entries);
    let put = [Op::Put(
        slot(site, entries),
        member(site, entries, &command),
    )];
    let created = hook_groups::edit_text(file, "", site.reads, &fresh, &put)?;
    let take = [Op::Take(slot(site, entries))];
    let left = hook_groups::edit_text(file, &created.body, site.reads, &fresh, &take)?;
    Ok(text == left.body)
}

/// Redline's hook in `file`, if it is there.
pub fn find(site: &HookCli, file: &Path) -> Result<Option<Found>> {
    let entries = match site.layout {
        Layout::Plugin => return hook_plugin::find(site, file),
        Layout::OwnFile => return hook_file::find(site, file),
        Layout::Settings(entries) => entries,
    };
    let hook = hook_groups::find(&slot(site, entries), file, site.reads)?;
    let at = match entries {
        Entries::Kiro => hook.as_ref().and_then(|h| h.get("action")),
        Entries::Grouped | Entries::Flat => hook.as_ref(),
    };
    Ok(hook.as_ref().map(|h| Found {
        command: at
            .and_then(|a| a.get("command"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        timeout: h.get("timeout").and_then(Value::as_u64),
    }))
}

/// Redline's hook entry as `site`'s config writes one (a flat list's; a group's is
/// [`hook_groups::entry`]).
fn entry(site: &HookCli, entries: Entries, command: &str) -> Value {
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
    /// What Redline reviews, as the hooks in the file say: each edit, each turn, or both;
    /// `None`: no hook of Redline's.
    pub review: Option<ReviewMode>,
    /// When the CLI still asks its own question about an edit, in this mode (Redline never
    /// changes the CLI's permission settings); `None`: no hook, or Redline's accept answers.
    pub own_questions: Option<String>,
    /// The CLI's IDE connection to Redline reviews every edit already: no hook is needed, and
    /// with one every edit is asked twice while that connection is up.
    pub ide_reviews: bool,
}

/// Whether `site`'s IDE connection to Redline sends every edit for review (its `ide`
/// declaration, unless edits never go to the IDE), so a hook would ask about each one again.
pub fn ide_reviews(site: &HookCli) -> bool {
    site.cli
        .ide
        .is_some_and(|ide| !matches!(ide.doctor.ide_mode, IdeMode::Always))
}

/// Where `site`'s hook stands in `file`, against the command `program` would install.
pub fn status(site: &HookCli, file: &Path, program: &Path) -> Result<HookStatus> {
    let found = find(site, file)?;
    let turn = hook_turn::find(site, file)?;
    let start = hook_turn::find_start(site, file)?;
    let is = |f: &Option<Found>, command: String| {
        f.as_ref()
            .is_some_and(|f| f.command == command && f.timeout == Some(site.timeout_value()))
    };
    let review = mode_of(site, found.as_ref(), turn.is_some());
    // A plugin is one file, written whole for its mode: current when it is that file to the byte.
    let turn_review = match site.layout {
        Layout::Plugin => {
            turn.is_some() && review.is_some_and(|m| hook_plugin::current(file, program, m))
        }
        _ => is(&turn, turn_command(site, program)),
    };
    // An end-of-turn hook without the prompt hook beside it (installed before there was one)
    // reviews only the edit tools' files: the install to run again is not this one.
    let start_current = match &start {
        _ if site.layout == Layout::Plugin => true,
        None => turn.is_none() || hook_turn::start_slot(site).is_none(),
        Some(_) => is(&start, start_command(site, program)),
    };
    let current = (turn.is_none() || turn_review)
        && start_current
        && found.as_ref().is_some_and(|f| match site.layout {
            Layout::Plugin => review.is_some_and(|m| hook_plugin::current(file, program, m)),
            Layout::Settings(_) | Layout::OwnFile => review.is_some_and(|mode| {
                f.command == pre_command(site, program, mode)
                    && f.timeout == Some(site.timeout_value())
            }),
        });
    Ok(HookStatus {
        cli: site.id(),
        name: site.name(),
        file: file.to_owned(),
        needs: found.as_ref().and(site.trust),
        command: found.map(|f| f.command),
        current,
        turn_review,
        own_questions: review.and_then(|mode| own_questions(site, mode)),
        review,
        ide_reviews: ide_reviews(site),
    })
}

/// The review mode `site`'s hooks in `file` say; `None`: no hook of Redline's.
pub fn mode(site: &HookCli, file: &Path) -> Result<Option<ReviewMode>> {
    let found = find(site, file)?;
    let turn = hook_turn::find(site, file)?;
    Ok(mode_of(site, found.as_ref(), turn.is_some()))
}

/// The review mode the hooks found say: the pre-edit hook recording only is the turn mode; an
/// end-of-turn hook beside a reviewing one is both.
fn mode_of(site: &HookCli, pre: Option<&Found>, turn: bool) -> Option<ReviewMode> {
    let pre = pre?;
    let record_only = pre.command.ends_with(" --record-only")
        && matches!(
            site.layout,
            Layout::Settings(Entries::Grouped) | Layout::OwnFile | Layout::Plugin
        );
    Some(match (record_only, turn) {
        (true, _) => ReviewMode::Turn,
        (false, true) => ReviewMode::Both,
        (false, false) => ReviewMode::Edit,
    })
}

/// When `site` still asks its own question about an edit in `mode`, and by which of its
/// settings.
pub fn own_questions(site: &HookCli, mode: ReviewMode) -> Option<String> {
    let name = site.name();
    match (mode, site.asks_after_accept()) {
        (ReviewMode::Turn, _) => Some(format!(
            "Redline answers no edit, so {name} asks before each edit as {} says",
            site.own_questions()
        )),
        (_, Some(unless)) => Some(format!(
            "{name} still asks its own question after you accept in Redline, {unless}"
        )),
        (_, None) => None,
    }
}

#[cfg(test)]
#[path = "hook_config_tests.rs"]
mod tests;

#[cfg(all(test, unix))]
#[path = "hook_config_hostile_tests.rs"]
mod hostile_tests;

#[cfg(all(test, unix))]
#[path = "hook_config_corpus_tests.rs"]
mod corpus_tests;
