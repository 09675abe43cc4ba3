//! The arguments of `redline turns`: a workspace's turns, each CLI turn's change, its undo.

use crate::format::{json_help, JsonFlag};
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum TurnsCmd {
    /// List the workspace's turns, newest first: id, CLI, session, start and end, state, and
    /// each file the turn changed with its status and lines added and removed.
    #[command(
        after_long_help = "Examples:\n  redline turns list\n  redline turns list ~/src/app --json",
        mut_arg(
            "json",
            json_help("Print them as a JSON array of `{id, cli, session, started, ended, state, files: [{path, status, added, removed, …}]}`")
        )
    )]
    List {
        /// The workspace, or a folder in it (default: the current directory).
        dir: Option<PathBuf>,
        #[command(flatten)]
        output: JsonFlag,
    },
    /// The turn's change as a unified diff (git style, renames named), of one file if named.
    #[command(
        after_long_help = "Examples:\n  redline turns show 4\n  redline turns show 4 src/main.rs | less"
    )]
    Show {
        /// The turn's id, from `redline turns list`.
        id: u64,
        /// Only this file: relative to the workspace's root, or absolute.
        path: Option<String>,
    },
    /// Undo the turn: whole, or each PATH whole, or the hunk covering PATH:LINE (LINE 1-based,
    /// in the file as the turn left it). Nothing is written if any file changed since the turn
    /// ended (exit status 1, the file named on standard error).
    #[command(
        after_long_help = "Examples:\n  redline turns undo 4\n  redline turns undo 4 src/a.rs src/b.rs:12"
    )]
    Undo {
        /// The turn's id, from `redline turns list`.
        id: u64,
        /// Files (relative to the workspace's root, or absolute), or FILE:LINE for one hunk.
        #[arg(value_name = "PATH | PATH:LINE")]
        picks: Vec<String>,
    },
    /// Checkpoint the workspace now (a CLI with no prompt hook, or before a change of your
    /// own).
    #[command(after_long_help = "Example:\n  redline turns checkpoint")]
    Checkpoint {
        /// The workspace, or a folder in it (default: the current directory).
        dir: Option<PathBuf>,
    },
}
