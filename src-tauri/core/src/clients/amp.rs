//! Amp (`@sourcegraph/amp`, now `@ampcode/cli`), as `clients.md` describes what the real one
//! (0.0.1790142911) does: a WebSocket of its own, found by a lock per port.

use super::cli::{
    Cli, Container, ContainerHost, Discovery, Doctor, Ide, IdeMode, Order, Transport,
};
use super::format::Format;
use super::location::{Base, Location};

/// The close reason Amp reads as a wrong token (it shows "IDE authentication failed").
pub const AUTH_FAILED: &str = "Authentication failed";

pub const AMP: Cli = Cli {
    id: "amp",
    name: "Amp",
    binary: "amp",
    packages: &["@sourcegraph/amp", "@ampcode/cli"],
    // A Bun single executable.
    programs: &["amp"],
    ide: Some(IDE),
    hook: None,
    context: None,
    connect: "nothing: it reads your editor's context by itself (its edits are not reviewed)",
};

/// Its IDE connection.
const IDE: Ide = Ide {
    transport: Transport::AmpWebSocket,
    // Not MCP: Amp's IDE messages have no revision.
    mcp_revision: "",
    discovery: Discovery {
        // `$XDG_DATA_HOME/amp/ide`, else `~/.local/share/amp/ide`, on every OS.
        dir: Location {
            var: Some("XDG_DATA_HOME"),
            base: Base::Home,
            default: ".local/share",
            sub: "amp/ide",
        },
        format: Format::AmpJson,
    },
    container: Container {
        // `ws://localhost:PORT`: the container itself, and no variable moves it.
        host: ContainerHost::LoopbackOnly,
        host_var: None,
    },
    env: &[],
    doctor: Doctor {
        owner_only: false,
        // `process.kill(pid, 0)`; it deletes the lock of a dead PID.
        skips_dead_pid: true,
        order: Order::ExactThenOnlyHolder,
        port_var_makes_eligible: false,
        // The TUI connects by itself (`--ide` is on unless `--no-ide`); `amp -x` never does.
        ide_mode: IdeMode::Always,
        known_bad: &[],
    },
    sessions: None,
};
