//! Kiro CLI (`kiro-cli`, formerly Amazon Q Developer CLI): no IDE diff protocol, so Redline
//! reviews its edits through its `PreToolUse` hook. Built from Kiro's docs, not proven against
//! the real CLI (`../shared/specs/cli-hooks.md`, docs/hooks.md).

use super::cli::Cli;
use super::hook_site::{Dialect, Entries, HookSite, Layout, Reads};
use super::location::{Base, Location};

pub const KIRO: Cli = Cli {
    id: "kiro",
    name: "Kiro CLI",
    binary: "kiro-cli",
    // Installed by its own installer, not from a package registry.
    packages: &[],
    programs: &[],
    ide: None,
    hook: Some(HOOK),
    context: None,
    connect: "`redline hooks install kiro` in a shell (its reviews are read-only)",
};

const HOOK: HookSite = HookSite {
    dialect: Dialect::Kiro,
    names_turn: false,
    reads: Reads::JSON,
    // A hooks file of Redline's own among the user's global hooks (Kiro CLI reads every
    // `~/.kiro/hooks/*.json`), so no file of the user's is ever rewritten.
    config: Location {
        var: None,
        base: Base::Home,
        default: ".kiro",
        sub: "hooks/redline.json",
    },
    event: "PreToolUse",
    // A regular expression on the tool's name: its file-writing tool, by either name, and
    // `str_replace`, which Kiro's V3 hook docs match beside `fs_write`.
    matcher: "fs_write|write|str_replace",
    // Kiro's docs do not say what a timed-out hook does to the tool call: Redline's hook denies
    // a minute before.
    timeout_secs: 3600,
    timeout_in_ms: false,
    // Its PreToolUse can block (exit 2) but not change the tool's input.
    takes_edits: false,
    trust: Some(
        "run Kiro CLI in its V3 mode (`kiro-cli --v3`), which reads `~/.kiro/hooks/`; Kiro CLI \
         2.x reads hooks only from an agent's config (docs/hooks.md)",
    ),
    // Its docs do not say what a timed-out hook does to the edit.
    // Redline does not review its turns.
    start_event: None,
    turn_event: None,
    start_every_request: false,
    fails_open: false,
    layout: Layout::Settings(Entries::Kiro),
};
