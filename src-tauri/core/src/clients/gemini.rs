//! Gemini CLI (`@google/gemini-cli`), as `clients.md` describes what the real one does.

use super::cli::{
    Cli, Container, ContainerHost, Discovery, Doctor, Ide, IdeMode, Order, Pinned, Transport,
};
use super::format::Format;
use super::hook_site::{Dialect, Entries, HookSite, Layout, Reads};
use super::location::{Base, Location};

/// `~/.gemini`: its user settings.
const HOME: Location = Location {
    var: None,
    base: Base::Home,
    default: ".gemini",
    sub: "",
};

pub const GEMINI: Cli = Cli {
    id: "gemini",
    name: "Gemini CLI",
    binary: "gemini",
    packages: &["@google/gemini-cli"],
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
    // Node's `os.tmpdir()` + `/gemini/ide`, not under its home.
    discovery: Discovery {
        dir: Location {
            var: None,
            base: Base::NodeTmpdir,
            default: "gemini",
            sub: "ide",
        },
        format: Format::GeminiJson,
    },
    container: Container {
        host: ContainerHost::DockerHostUnless(&[
            "SSH_CONNECTION",
            "REMOTE_CONTAINERS",
            "VSCODE_REMOTE_CONTAINERS_SESSION",
        ]),
        host_var: None,
    },
    env: &[
        ("GEMINI_CLI_IDE_SERVER_PORT", Pinned::Port),
        ("GEMINI_CLI_IDE_WORKSPACE_PATH", Pinned::WorkspacePath),
        ("GEMINI_CLI_IDE_AUTH_TOKEN", Pinned::AuthToken),
    ],
    doctor: Doctor {
        owner_only: true,
        skips_dead_pid: false,
        order: Order::ProcessTree {
            pid_var: "GEMINI_CLI_IDE_PID",
        },
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

/// Its `BeforeTool` hook, for users who review through it rather than the IDE connection.
const HOOK: HookSite = HookSite {
    dialect: Dialect::Gemini,
    names_turn: false,
    // `JSON.parse(stripJsonComments(text))`: comments, but no byte-order mark.
    reads: Reads {
        comments: true,
        bom: false,
    },
    config: Location {
        sub: "settings.json",
        ..HOME
    },
    event: "BeforeTool",
    matcher: "write_file|replace",
    start_event: Some("BeforeAgent"),
    turn_event: Some("AfterAgent"),
    start_every_request: false,
    timeout_secs: 3600,
    timeout_in_ms: true,
    takes_edits: true,
    trust: None,
    layout: Layout::Settings(Entries::Grouped),
    fails_open: false,
};
