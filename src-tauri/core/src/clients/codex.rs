//! Codex CLI (`@openai/codex`): no IDE diff protocol, so Redline reviews its edits through its
//! `PreToolUse` hook (`../shared/specs/cli-hooks.md`).

use super::cli::{Base, Location};
use super::hook_site::{Entries, HookSite, Layout, Reads};

pub const CODEX: HookSite = HookSite {
    reads: Reads::JSON,
    id: "codex",
    name: "Codex CLI",
    binary: "codex",
    packages: &["@openai/codex"],
    // `hooks.json` beside the user's `config.toml`.
    config: Location {
        var: Some("CODEX_HOME"),
        base: Base::Home,
        default: ".codex",
        sub: "hooks.json",
    },
    event: "PreToolUse",
    matcher: "apply_patch",
    turn_event: Some("Stop"),
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
