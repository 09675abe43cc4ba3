//! GitHub Copilot CLI (`@github/copilot`), as `shared/specs/copilot-cli-ide-protocol.md` and
//! `tests/interop/copilot/README.md` describe what the real one (1.0.102) does; its hook, as
//! `tests/interop/copilot-hook.test.mjs` proves it.

use super::cli::{
    Cli, Container, ContainerHost, Discovery, Doctor, Ide, IdeMode, Order, Transport,
};
use super::format::Format;
use super::hook_site::{Dialect, HookSite, Layout, Reads};
use super::location::{Base, Location};

/// `$COPILOT_HOME`, else `~/.copilot`.
const HOME: Location = Location {
    var: Some("COPILOT_HOME"),
    base: Base::Home,
    default: ".copilot",
    sub: "",
};

pub const COPILOT: Cli = Cli {
    id: "copilot",
    name: "Copilot CLI",
    binary: "copilot",
    packages: &["@github/copilot"],
    // The npm loader starts a native single executable of the same name.
    programs: &["copilot"],
    ide: Some(IDE),
    hook: Some(HOOK),
    context: None,
    connect: "nothing: it connects by itself; `/ide` shows Redline",
};

/// Its IDE connection.
const IDE: Ide = Ide {
    transport: Transport::UnixHttp,
    mcp_revision: "2025-11-25",
    discovery: Discovery {
        dir: Location { sub: "ide", ..HOME },
        format: Format::CopilotLock,
    },
    container: Container {
        // No host at all: the lock names a socket path, which a container sees only mounted.
        host: ContainerHost::SocketOnly,
        host_var: None,
    },
    // Nothing picks a server by variable: only the lock's socket path.
    env: &[],
    doctor: Doctor {
        owner_only: false,
        // `process.kill(pid, 0)`: EPERM counts as dead too.
        skips_dead_pid: true,
        order: Order::ExactFolder,
        port_var_makes_eligible: false,
        // On unless `ide.autoConnect` is false in `settings.json`.
        ide_mode: IdeMode::AutoUnlessOff {
            file: Location {
                sub: "settings.json",
                ..HOME
            },
        },
        known_bad: &[],
    },
    // `<id>/workspace.yaml` (`cwd:`) and `<id>/inuse.<PID>.lock` for each session.
    sessions: Some(Location {
        sub: "session-state",
        ..HOME
    }),
};

/// Its `preToolUse` hook, for users who review through it rather than the IDE connection: a file
/// of Redline's own in `$COPILOT_HOME/hooks/`, which Copilot CLI reads every `*.json` of. An
/// `allow` skips Copilot's own prompt, and its `modifiedArgs` are the arguments the tool runs with.
const HOOK: HookSite = HookSite {
    dialect: Dialect::Copilot,
    names_turn: false,
    reads: Reads::JSON,
    config: Location {
        sub: "hooks/redline.json",
        ..HOME
    },
    layout: Layout::OwnFile,
    event: "preToolUse",
    // A regular expression on the tool's name: its two file-writing tools.
    matcher: "^(edit|create)$",
    timeout_secs: 3600,
    timeout_in_ms: false,
    takes_edits: true,
    trust: None,
    // Copilot CLI 1.0.102's prompt and end-of-turn hooks, both with `sessionId` and `cwd`:
    // `agentStop`'s `{"decision": "block", "reason"}` sends the reason as the next user message.
    start_event: Some("userPromptSubmitted"),
    turn_event: Some("agentStop"),
    start_every_request: false,
    // On timeout the tool call proceeds: Redline's hook denies a minute before.
    fails_open: true,
};
