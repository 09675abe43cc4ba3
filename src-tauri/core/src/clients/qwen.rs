//! Qwen Code (`@qwen-code/qwen-code`, a Gemini CLI fork), as `clients.md` describes what the
//! real one does.

use super::cli::{
    Base, Cli, Container, ContainerHost, Discovery, Doctor, IdeMode, Location, Order, Pinned,
    Transport,
};
use super::format::Format;

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
