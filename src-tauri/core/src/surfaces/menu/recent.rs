//! The tray's *Recent turns*: per workspace its newest turns (CLI, time, files, +/−), each
//! opening the review window, and *Checkpoint now*.

use super::item::{name, Action, Item};
use crate::api::turns::{TurnState, TurnSummary};
use std::path::PathBuf;

/// Turns listed per workspace; `redline turns list` has them all.
pub const RECENT_PER_WORKSPACE: usize = 5;

/// The *Recent turns* submenu: for each served workspace (its turns newest first, as
/// `turns list` gives them), a heading, its newest few turns, and *Checkpoint now*.
pub fn recent_turns(turns: &[(PathBuf, Vec<TurnSummary>)]) -> Item {
    let mut items = Vec::new();
    for (i, (path, list)) in turns.iter().enumerate() {
        if i > 0 {
            items.push(Item::Separator);
        }
        items.push(Item::Note(name(path)));
        if list.is_empty() {
            items.push(Item::Note("no turns yet".into()));
        }
        items.extend(
            list.iter()
                .take(RECENT_PER_WORKSPACE)
                .map(|t| Item::Action {
                    label: label(t),
                    action: Action::OpenTurn {
                        path: path.clone(),
                        id: t.id,
                    },
                }),
        );
        items.push(Item::Action {
            label: "Checkpoint now".into(),
            action: Action::CheckpointNow { path: path.clone() },
        });
    }
    if items.is_empty() {
        items.push(Item::Note("none (no workspace is on)".into()));
    }
    Item::Submenu {
        label: "Recent turns".into(),
        items,
    }
}

/// One turn's row: `codex 08:41Z — 3 files +12 −4`, or `running`.
fn label(t: &TurnSummary) -> String {
    let at = hh_mm(t.started);
    if t.state == TurnState::Running {
        return format!("{} {at} — running", t.cli);
    }
    let added: u64 = t.files.iter().map(|f| f.added).sum();
    let removed: u64 = t.files.iter().map(|f| f.removed).sum();
    let files = match t.files.len() {
        1 => "1 file".to_owned(),
        n => format!("{n} files"),
    };
    format!("{} {at} — {files} +{added} −{removed}", t.cli)
}

/// `ms` since the Unix epoch as its UTC time of day, `08:41Z` (the menu is a glance; `turns
/// list` has the date).
fn hh_mm(ms: u64) -> String {
    let secs = ms / 1000 % 86_400;
    format!("{:02}:{:02}Z", secs / 3600, secs / 60 % 60)
}
