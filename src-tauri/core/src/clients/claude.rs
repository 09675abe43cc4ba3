//! Claude Code (`@anthropic-ai/claude-code`), as `clients.md` and `tests/interop/claude/README.md`
//! describe what the real one does.

use super::cli::{
    Cli, Container, ContainerHost, Discovery, Doctor, Ide, IdeMode, Order, Pinned, Transport,
};
use super::format::Format;
use super::hook_site::{Dialect, Entries, HookSite, Layout, Reads};
use super::location::{Base, Location};

/// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
const CONFIG_DIR: Location = Location {
    var: Some("CLAUDE_CONFIG_DIR"),
    base: Base::Home,
    default: ".claude",
    sub: "",
};

pub const CLAUDE: Cli = Cli {
    id: "claude",
    name: "Claude Code",
    binary: "claude",
    packages: &["@anthropic-ai/claude-code"],
    // The native build is a single executable.
    programs: &["claude"],
    ide: Some(IDE),
    hook: Some(HOOK),
    context: None,
    connect: "`claude --ide`, or `/ide` inside it",
};

/// Its IDE connection.
const IDE: Ide = Ide {
    transport: Transport::WebSocket,
    // 2.1.332 offers 2026-07-28 too, and on a connection settled on 2026-07-28 or later it
    // registers no handler for custom notifications: `selection_changed` and `at_mentioned`
    // would be dropped without a word.
    mcp_revision: "2025-11-25",
    discovery: Discovery {
        dir: Location {
            sub: "ide",
            ..CONFIG_DIR
        },
        format: Format::ClaudeLock,
    },
    container: Container {
        host: ContainerHost::LoopbackFirst,
        // Without it Claude Code connects to 127.0.0.1, the container itself.
        host_var: Some("CLAUDE_CODE_IDE_HOST_OVERRIDE"),
    },
    // Breaks a tie between several matching locks.
    env: &[("CLAUDE_CODE_SSE_PORT", Pinned::Port)],
    doctor: Doctor {
        owner_only: false,
        skips_dead_pid: true,
        order: Order::PortVarThenNewest,
        port_var_makes_eligible: true,
        // `~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json`: beside the config dir, not in it.
        ide_mode: IdeMode::OnRequest {
            file: Location {
                var: Some("CLAUDE_CONFIG_DIR"),
                base: Base::Home,
                default: "",
                sub: ".claude.json",
            },
        },
        known_bad: &[],
    },
    sessions: None,
};

/// Its `PreToolUse` hook, for users who review through it rather than the IDE connection.
const HOOK: HookSite = HookSite {
    dialect: Dialect::Claude,
    names_turn: false,
    reads: Reads::JSON,
    config: Location {
        sub: "settings.json",
        ..CONFIG_DIR
    },
    event: "PreToolUse",
    matcher: "Write|Edit",
    start_event: Some("UserPromptSubmit"),
    turn_event: Some("Stop"),
    start_every_request: false,
    timeout_secs: 3600,
    timeout_in_ms: false,
    takes_edits: true,
    trust: None,
    layout: Layout::Settings(Entries::Grouped),
    fails_open: false,
};
