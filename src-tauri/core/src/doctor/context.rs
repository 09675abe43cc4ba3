//! Doctor's look at the CLIs that ask an IDE for context on a channel of their own (Codex CLI's
//! IDE socket): whether Redline answers there, and with an editor's context for this folder.

use super::install::find_program;
use super::report::{ContextReport, WorkspaceFound};
use super::Facts;
use crate::api::status::CodexRole;
use crate::clients::CODEX;

/// Codex CLI's line: what its `/ide on` finds from this folder.
pub fn check(facts: &Facts, workspace: Option<&WorkspaceFound>) -> Vec<ContextReport> {
    let installed = find_program(CODEX.binary, CODEX.packages, facts);
    let (ok, reason) = match (&facts.redline, installed.is_some()) {
        (_, false) => (true, "not installed".to_owned()),
        (None, true) => (
            false,
            "Redline is not running: Codex's `/ide on` finds no IDE".to_owned(),
        ),
        (Some(status), true) => match &status.codex_ide {
            None => (
                false,
                "this Redline does not serve Codex's IDE socket".to_owned(),
            ),
            Some(ide) => {
                let at = ide.path.display();
                match ide.role {
                    CodexRole::NotServed => (
                        false,
                        format!(
                            "Codex's IDE socket {at} is not served: {}",
                            ide.why.as_deref().unwrap_or("no reason given")
                        ),
                    ),
                    CodexRole::Router | CodexRole::Provider => {
                        let via = match ide.role {
                            CodexRole::Router => format!("Redline answers on {at}"),
                            _ => format!(
                                "a Codex app or IDE extension holds {at}; Redline answers behind it"
                            ),
                        };
                        folder(facts, workspace, via)
                    }
                }
            }
        },
    };
    vec![ContextReport {
        id: CODEX.id.into(),
        name: CODEX.name.into(),
        installed,
        ok,
        reason,
    }]
}

/// Whether an editor has spoken for the workspace holding this folder.
fn folder(facts: &Facts, workspace: Option<&WorkspaceFound>, via: String) -> (bool, String) {
    let Some(w) = workspace else {
        return (
            false,
            format!(
                "{via}, but no workspace holds this folder: Codex is told there is no IDE here"
            ),
        );
    };
    let editors = facts
        .redline
        .as_ref()
        .map(|s| &s.editors[..])
        .unwrap_or(&[]);
    if editors.iter().any(|e| e.workspaces.contains(&w.path)) {
        (
            true,
            format!("after `/ide on`, {via} with your editor's file and selection"),
        )
    } else {
        (
            true,
            format!(
                "after `/ide on`, {via}; no editor has spoken for {} yet, so Codex gets an empty \
                 context (docs/editors.md sets one up)",
                w.path.display()
            ),
        )
    }
}
