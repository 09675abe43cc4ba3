//! What Redline knows about each AI coding CLI, as data: one file per CLI, read by discovery,
//! containers, `redline env`, doctor and "who asked". Adding a CLI is one more such file (plus a
//! protocol adapter when it speaks a new protocol).

pub(crate) mod amp;
mod claude;
mod cli;
mod codex;
mod copilot;
mod cursor;
pub(crate) mod format;
mod gemini;
mod hook_site;
mod kiro;
mod opencode;
mod qwen;

pub use amp::AMP;
pub use claude::{CLAUDE, CLAUDE_HOOK};
pub use cli::{
    version_below, Base, Cli, Container, ContainerHost, Discovery, Doctor, IdeMode, KnownBad,
    Location, Order, Pinned, Transport, CONTAINER_TMPDIR,
};
pub use codex::CODEX;
pub use copilot::{COPILOT, COPILOT_HOOK};
pub use cursor::CURSOR;
pub use format::Format;
pub use gemini::{GEMINI, GEMINI_HOOK};
pub use hook_site::{Entries, HookSite, Layout, Reads};
pub use kiro::KIRO;
pub use opencode::OPENCODE;
pub use qwen::{QWEN, QWEN_HOOK};

/// Every CLI Redline serves, in the order files are written and doctor reports them.
///
/// A new CLI is a file like `gemini.rs` added here. A discovery format of its own is a new
/// `Format` variant: the compiler then asks for its writer (`discovery`) and reader
/// (`format.rs`). A new protocol is a new `Transport` and its server.
pub const ALL: [Cli; 5] = [GEMINI, QWEN, CLAUDE, COPILOT, AMP];

/// Every CLI whose pre-edit hook Redline installs (`redline hooks`), in the order it reports them.
pub const HOOKED: [HookSite; 8] = [
    CODEX,
    CLAUDE_HOOK,
    GEMINI_HOOK,
    QWEN_HOOK,
    COPILOT_HOOK,
    KIRO,
    CURSOR,
    OPENCODE,
];

impl Cli {
    /// The CLI named by an npm package, if Redline knows it.
    pub fn of_package(name: &str) -> Option<&'static Cli> {
        ALL.iter().find(|c| c.packages.contains(&name))
    }

    /// The CLI whose native build runs as this executable, if Redline knows it.
    pub fn of_program(exe: &str) -> Option<&'static Cli> {
        ALL.iter().find(|c| c.programs.contains(&exe))
    }
}

#[cfg(test)]
mod tests;
