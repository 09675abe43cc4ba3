//! opencode (`opencode-ai`): no command hooks, so Redline reviews its edits through a plugin of
//! its own that runs `redline hook opencode` before each file-writing tool
//! (`../shared/specs/cli-hooks.md`).

use super::cli::{Base, Location};
use super::hook_site::{HookSite, Layout, Reads};

pub const OPENCODE: HookSite = HookSite {
    reads: Reads::JSON,
    id: "opencode",
    name: "opencode",
    binary: "opencode",
    packages: &["opencode-ai"],
    // opencode loads `{plugin,plugins}/*.{js,ts}` from its global config folder,
    // `$XDG_CONFIG_HOME/opencode` (else `~/.config/opencode`), on every start.
    config: Location {
        var: Some("XDG_CONFIG_HOME"),
        base: Base::Home,
        default: ".config",
        sub: "opencode/plugin/redline.js",
    },
    // What the plugin hooks: opencode awaits it as long as it takes.
    event: "tool.execute.before",
    matcher: "write|edit|apply_patch",
    timeout_secs: 0,
    timeout_in_ms: false,
    takes_edits: true,
    trust: None,
    layout: Layout::Plugin,
    // Redline does not review its turns.
    turn_event: None,
    fails_open: false,
};
