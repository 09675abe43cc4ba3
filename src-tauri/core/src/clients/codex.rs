//! Codex CLI (`@openai/codex`): no IDE diff protocol, so Redline reviews its edits through its
//! `PreToolUse` hook (`../shared/specs/cli-hooks.md`).

use super::cli::{Cli, ContextRoute};
use super::hook_site::{Dialect, Entries, HookSite, Layout, Reads};
use super::location::{Base, Location};

pub const CODEX: Cli = Cli {
    id: "codex",
    name: "Codex CLI",
    binary: "codex",
    packages: &["@openai/codex"],
    programs: &[],
    ide: None,
    hook: Some(HOOK),
    // `/ide on` asks Redline for the editor's context over Codex's IDE socket.
    context: Some(ContextRoute::CodexSocket),
    connect: "`redline hooks install codex` in a shell; `/ide on` for your editor's context",
};

const HOOK: HookSite = HookSite {
    dialect: Dialect::Codex,
    names_turn: true,
    reads: Reads::JSON,
    // `hooks.json` beside the user's `config.toml`.
    config: Location {
        var: Some("CODEX_HOME"),
        base: Base::Home,
        default: ".codex",
        sub: "hooks.json",
    },
    event: "PreToolUse",
    matcher: "apply_patch",
    start_event: Some("UserPromptSubmit"),
    turn_event: Some("Stop"),
    start_every_request: false,
    // Codex applies the patch once its hook times out: Redline's hook denies a minute before.
    timeout_secs: 3600,
    timeout_in_ms: false,
    takes_edits: true,
    trust: Some(
        "open Codex and trust it once in `/hooks` (Codex skips a new or changed hook until then)",
    ),
    layout: Layout::Settings(Entries::Grouped),
    fails_open: true,
};
