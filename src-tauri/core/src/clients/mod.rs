//! What Redline knows about each AI coding CLI, as data: one file per CLI declaring it once (who
//! it is, its IDE protocol, its hook, how it reads an editor's context), read by discovery,
//! containers, `redline env`, doctor, "who asked", the protocol adapters and `redline hook`.
//! Adding a CLI is one more such file (plus a protocol adapter when it speaks a new protocol).

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
mod location;
mod opencode;
mod qwen;
mod views;
pub mod words;

pub use amp::AMP;
pub use claude::CLAUDE;
pub use cli::{
    version_below, ClaudeClient, Cli, Container, ContainerHost, ContextRoute, Discovery, Doctor,
    Ide, IdeMode, KnownBad, Order, Pinned, Transport,
};
pub use codex::CODEX;
pub use copilot::COPILOT;
pub use cursor::CURSOR;
pub use format::Format;
pub use gemini::GEMINI;
pub use hook_site::{Dialect, Entries, HookSite, Layout, Reads};
pub use kiro::KIRO;
pub use location::{Base, Location, CONTAINER_TMPDIR};
pub use opencode::OPENCODE;
pub use qwen::QWEN;
pub use views::{served, HookCli, Served};

/// Every CLI Redline serves, each declared once; those it serves an IDE protocol first, in the
/// order files are written and doctor reports them (`served()`).
///
/// A new CLI is a file like `gemini.rs` added here. A discovery format of its own is a new
/// `Format` variant: the compiler then asks for its writer (`discovery`) and reader
/// (`format.rs`). A new protocol is a new `Transport` and its server; a new hook dialect a new
/// `Dialect` and its adapter in `protocols::hook`.
pub const ALL: [Cli; 9] = [
    GEMINI, QWEN, CLAUDE, COPILOT, AMP, CODEX, KIRO, CURSOR, OPENCODE,
];

/// The CLIs with a hook, in the order `redline hooks` and doctor report them (`HookCli::all()`).
const HOOK_ORDER: [&Cli; 8] = [
    &CODEX, &CLAUDE, &GEMINI, &QWEN, &COPILOT, &KIRO, &CURSOR, &OPENCODE,
];

impl Cli {
    /// The CLI served an IDE protocol that an npm package is, if Redline knows it.
    pub fn of_package(name: &str) -> Option<&'static Cli> {
        ALL.iter()
            .find(|c| c.ide.is_some() && c.packages.contains(&name))
    }

    /// The CLI served an IDE protocol whose native build runs as this executable, if Redline
    /// knows it.
    pub fn of_program(exe: &str) -> Option<&'static Cli> {
        ALL.iter()
            .find(|c| c.ide.is_some() && c.programs.contains(&exe))
    }

    /// The newest MCP revision Redline settles on with it (`Ide::mcp_revision`). Meant for a
    /// `const`, where a CLI served no IDE protocol fails the build rather than a run.
    pub const fn mcp_revision(&self) -> &'static str {
        match self.ide {
            Some(ide) => ide.mcp_revision,
            None => panic!("a CLI served no IDE protocol has no MCP revision"),
        }
    }

    /// The CLI that speaks Claude Code's WebSocket protocol as the client `name` (its
    /// `clientInfo.name`), other than Claude Code itself.
    pub fn on_claude_locks(name: &str) -> Option<(&'static Cli, &'static ClaudeClient)> {
        ALL.iter().find_map(|c| match &c.context {
            Some(ContextRoute::ClaudeLocks(client)) if client.client_name == name => {
                Some((c, client))
            }
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests;
