//! opencode (`opencode-ai`): no command hooks, so Redline reviews its edits through a plugin of
//! its own that runs `redline hook opencode` before each file-writing tool, and in the turn
//! modes at each turn's start and end (`../shared/specs/cli-hooks.md`).

use super::cli::{ClaudeClient, Cli, ContextRoute};
use super::hook_site::{Dialect, HookSite, Layout, Reads};
use super::location::{Base, Location};

pub const OPENCODE: Cli = Cli {
    id: "opencode",
    name: "opencode",
    binary: "opencode",
    packages: &["opencode-ai"],
    programs: &[],
    ide: None,
    hook: Some(HOOK),
    // Its TUI reads Claude Code's locks (`~/.claude/ide`) and takes the selection and mentions
    // over Claude Code's WebSocket, as a client of its own.
    context: Some(ContextRoute::ClaudeLocks(ClaudeClient {
        client_name: "opencode",
        // It shows Claude Code's numbers as they come, as an editor's (`#2-4`, `@a.txt#2-4`),
        // and reads a mentioned file from that line.
        one_based_lines: true,
        // opencode 1.18 reads `ranges` before the one-range fields, and renders them as
        // "Selection 1: …, Selection 2: …".
        ranges: true,
    })),
    connect: "`redline hooks install opencode` in a shell",
};

const HOOK: HookSite = HookSite {
    dialect: Dialect::Opencode,
    names_turn: false,
    reads: Reads::JSON,
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
    // The plugin's own hooks, read in opencode 1.18.33's bundled source: `chat.message`, awaited
    // before the model gets the user's message (`sessionID`); the bus's `session.idle`
    // (`{sessionID}`), handed to the plugin's `event` hook without awaiting it, so the plugin
    // waits for the review itself and sends a Continue as the session's next prompt.
    start_event: Some("chat.message"),
    turn_event: Some("session.idle"),
    start_every_request: false,
    fails_open: false,
};
