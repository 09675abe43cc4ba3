//! Doctor's look at the CLIs that only ask an IDE for context (Codex CLI's IDE socket, opencode
//! on Claude Code's lock): whether Redline answers there, and with an editor's context for this
//! folder.

use super::install::find_program;
use super::report::{ContextReport, WorkspaceFound};
use super::Facts;
use crate::api::status::CodexRole;
use crate::clients::{CODEX, OPENCODE};

/// Codex CLI's and opencode's lines: what each finds from this folder.
pub fn check(facts: &Facts, workspace: Option<&WorkspaceFound>) -> Vec<ContextReport> {
    vec![codex(facts, workspace), opencode(facts, workspace)]
}

/// opencode's TUI reads Claude Code's locks in `~/.claude/ide` (it ignores `CLAUDE_CONFIG_DIR`)
/// and takes the selection and mentions from them.
fn opencode(facts: &Facts, workspace: Option<&WorkspaceFound>) -> ContextReport {
    let installed = find_program(OPENCODE.binary, OPENCODE.packages, facts);
    let claude = workspace.and_then(|w| {
        let status = facts.redline.as_ref()?;
        status.workspaces.iter().find(|s| s.path == w.path)?.ws_port
    });
    let (ok, reason) = match (&facts.redline, installed.is_some(), claude) {
        (_, false, _) => (true, "not installed".to_owned()),
        (None, true, _) => (
            false,
            "Redline is not running: opencode's TUI finds no IDE".to_owned(),
        ),
        (Some(_), true, None) => folder(
            facts,
            None,
            "Redline serves Claude Code's lock, which opencode's TUI reads".into(),
            OPENCODE.name,
        ),
        (Some(_), true, Some(port)) => folder(
            facts,
            workspace,
            format!(
                "opencode's TUI finds Redline by ~/.claude/ide/{port}.lock and takes the \
                 selection and mentions (lines 1-based)"
            ),
            OPENCODE.name,
        ),
    };
    ContextReport {
        id: OPENCODE.id.into(),
        name: OPENCODE.name.into(),
        installed,
        ok,
        reason,
    }
}

/// Codex CLI's line: what its `/ide on` finds from this folder.
fn codex(facts: &Facts, workspace: Option<&WorkspaceFound>) -> ContextReport {
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
                            CodexRole::Router => {
                                format!("after `/ide on`, Redline answers on {at}")
                            }
                            _ => format!(
                                "after `/ide on`: a Codex app or IDE extension holds {at}; \
                                 Redline answers behind it"
                            ),
                        };
                        folder(facts, workspace, via, CODEX.name)
                    }
                }
            }
        },
    };
    ContextReport {
        id: CODEX.id.into(),
        name: CODEX.name.into(),
        installed,
        ok,
        reason,
    }
}

/// Whether an editor has spoken for the workspace holding this folder; `via` says how the CLI
/// reaches Redline, `cli` names it.
fn folder(
    facts: &Facts,
    workspace: Option<&WorkspaceFound>,
    via: String,
    cli: &str,
) -> (bool, String) {
    let Some(w) = workspace else {
        return (
            false,
            format!(
                "{via}, but no workspace holds this folder: {cli} is told there is no IDE here"
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
            format!("{via}, with your editor's file and selection"),
        )
    } else {
        (
            true,
            format!(
                "{via}; no editor has spoken for {} yet, so the context is empty \
                 (docs/editors.md sets one up)",
                w.path.display()
            ),
        )
    }
}
