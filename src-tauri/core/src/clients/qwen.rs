//! Qwen Code (`@qwen-code/qwen-code`, a Gemini CLI fork), as `clients.md` describes what the
//! real one does.

use super::cli::{
    Cli, Container, ContainerHost, Discovery, Doctor, Ide, IdeMode, Order, Pinned, Transport,
};
use super::format::Format;
use super::hook_site::{Dialect, Entries, HookSite, Layout, Reads};
use super::location::{Base, Location};

/// `$QWEN_HOME`, else `~/.qwen`.
const HOME: Location = Location {
    var: Some("QWEN_HOME"),
    base: Base::Home,
    default: ".qwen",
    sub: "",
};

pub const QWEN: Cli = Cli {
    id: "qwen",
    name: "Qwen Code",
    binary: "qwen",
    packages: &["@qwen-code/qwen-code"],
    programs: &[],
    ide: Some(IDE),
    hook: Some(HOOK),
    context: None,
    connect: "`/ide enable`",
};

/// Its IDE connection.
const IDE: Ide = Ide {
    transport: Transport::Http,
    mcp_revision: "2025-11-25",
    discovery: Discovery {
        dir: Location { sub: "ide", ..HOME },
        format: Format::QwenLock,
    },
    container: Container {
        host: ContainerHost::LoopbackFirst,
        host_var: None,
    },
    // No token variable: the token comes from the lock.
    env: &[("QWEN_CODE_IDE_SERVER_PORT", Pinned::Port)],
    doctor: Doctor {
        owner_only: false,
        skips_dead_pid: true,
        order: Order::PortVarThenNewest,
        port_var_makes_eligible: false,
        ide_mode: IdeMode::Setting {
            file: Location {
                sub: "settings.json",
                ..HOME
            },
        },
        known_bad: &[],
    },
    sessions: None,
};

/// Its `PreToolUse` hook: it runs after Qwen Code's own approval and takes no changed input, so
/// it can only deny (with the user's reason). Its turn: `UserPromptSubmit` and `Stop`, whose
/// `decision: block` sends the reason to the model as the next user message.
const HOOK: HookSite = HookSite {
    dialect: Dialect::Qwen,
    names_turn: false,
    // `JSON.parse(stripJsonComments(stripUtf8Bom(text)))`.
    reads: Reads {
        comments: true,
        bom: true,
    },
    config: Location {
        sub: "settings.json",
        ..HOME
    },
    event: "PreToolUse",
    matcher: "write_file|edit",
    start_event: Some("UserPromptSubmit"),
    turn_event: Some("Stop"),
    // `sendMessageStream` fires `UserPromptSubmit` for a tool call's result too, with no words.
    start_every_request: true,
    timeout_secs: 3600,
    // Qwen Code 0.24.4 reads a value of 1000 or more as milliseconds.
    timeout_in_ms: true,
    takes_edits: false,
    trust: None,
    layout: Layout::Settings(Entries::Grouped),
    fails_open: false,
};
