//! Cursor's agent (`cursor-agent`, Cursor CLI): no IDE diff protocol Redline serves, so Redline
//! reviews its edits through its `preToolUse` hook. Built from Cursor's docs, not proven against
//! the real CLI (`../shared/specs/cli-hooks.md`, docs/hooks.md).

use super::cli::Cli;
use super::hook_site::{Dialect, Entries, HookSite, Layout, Reads};
use super::location::{Base, Location};

pub const CURSOR: Cli = Cli {
    id: "cursor",
    name: "Cursor CLI",
    binary: "cursor-agent",
    // Installed by Cursor's own installer (npm's `cursor-agent` is someone else's package).
    packages: &[],
    programs: &[],
    ide: None,
    hook: Some(HOOK),
    context: None,
    connect: "`redline hooks install cursor` in a shell (its reviews are read-only)",
};

const HOOK: HookSite = HookSite {
    dialect: Dialect::Cursor,
    names_turn: false,
    reads: Reads::JSON,
    // The user's hooks, read in every project.
    config: Location {
        var: None,
        base: Base::Home,
        default: ".cursor",
        sub: "hooks.json",
    },
    event: "preToolUse",
    matcher: "Write|Edit|StrReplace",
    timeout_secs: 3600,
    timeout_in_ms: false,
    // Whether its preToolUse takes a changed input back is not settled in its docs: read-only.
    takes_edits: false,
    trust: None,
    // Its docs do not say what a timed-out hook does to the edit.
    // Redline does not review its turns.
    start_event: None,
    turn_event: None,
    start_every_request: false,
    fails_open: false,
    layout: Layout::Settings(Entries::Flat),
};
