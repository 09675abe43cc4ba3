//! The arguments of `redline remote`: the other machines whose reviews this one shows, each
//! reached by a command (`ssh`, `wsl.exe`) that runs `redline bridge` there.

use crate::format::{json_help, JsonFlag};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum RemoteCmd {
    /// Show another machine's reviews here: NAME -- COMMAND... (the command's stdin and stdout
    /// reach `redline bridge` there), or ssh://[USER@]HOST[:PORT] or wsl://DISTRO. The command
    /// runs without a terminal: it must not ask for a password (ssh runs with BatchMode).
    #[command(after_long_help = "Example:\n  \
        redline remote add ssh://me@devbox\n  \
        redline remote add wsl://Ubuntu\n  \
        redline remote add ssh://me@devbox --install\n  \
        redline remote add gpu -- ssh -T -J bastion gpu redline bridge --start")]
    Add {
        /// The remote's name (letters, digits, `.`, `_`, `-`), or ssh://… or wsl://….
        target: String,
        /// With a shorthand: the name to give it (default: its host or distro).
        #[arg(long)]
        name: Option<String>,
        /// With a shorthand: first copy this Redline's headless build to that machine's
        /// ~/.local/share/redline/bin, if its OS and architecture are this one's (checked there
        /// by sha256 before it takes the place).
        #[arg(long)]
        install: bool,
        /// The program and its arguments, run as given (no shell on this side).
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Stop showing a machine's reviews (they wait on there) and forget it.
    #[command(after_long_help = "Example:\n  redline remote remove devbox")]
    Remove {
        /// The remote's name, as `redline remote list` shows it.
        name: String,
    },
    /// The workspaces of a remote's Redline: add, remove, list (its paths, on that machine).
    #[command(
        after_long_help = "Example:\n  redline remote workspace devbox add /home/me/src/app\n  \
        redline remote workspace devbox list"
    )]
    Workspace {
        /// The remote's name, as `redline remote list` shows it.
        name: String,
        #[command(subcommand)]
        cmd: RemoteWorkspaceCmd,
    },
    /// Each remote: its link's state (and why it is not connected), its reviews waiting here.
    #[command(
        after_long_help = "Example:\n  redline remote list --json",
        mut_arg(
            "json",
            json_help("Print them as a JSON array of `{name, state, reason, pending, …}`")
        )
    )]
    List {
        #[command(flatten)]
        output: JsonFlag,
    },
}

#[derive(Subcommand)]
pub enum RemoteWorkspaceCmd {
    /// Serve a folder of that machine (its path there, as its own `redline workspace add`).
    #[command(
        after_long_help = "Example:\n  redline remote workspace devbox add /home/me/src/app"
    )]
    Add {
        /// The folder's path on that machine.
        path: String,
        /// Add it even if it is `/`, the home folder there or a folder around other workspaces.
        #[arg(long)]
        force: bool,
    },
    /// Stop serving a folder of that machine and forget it.
    #[command(
        after_long_help = "Example:\n  redline remote workspace devbox remove /home/me/src/app"
    )]
    Remove {
        /// The workspace's path on that machine, as `redline remote workspace NAME list` shows it.
        path: String,
    },
    /// Its workspaces, on or off.
    #[command(
        after_long_help = "Example:\n  redline remote workspace devbox list --json",
        mut_arg(
            "json",
            json_help("Print them as a JSON array of `{path, enabled, …}`")
        )
    )]
    List {
        #[command(flatten)]
        output: JsonFlag,
    },
}
