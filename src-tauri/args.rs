//! The command line's grammar: every `redline` command and its arguments.

use clap::{Parser, Subcommand};
use redline_core::surfaces::shell::Shell;
use std::net::Ipv4Addr;
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "redline", version, about = "Diff review for AI coding CLIs")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the companion servers of the enabled workspaces until stopped (what `redline` alone
    /// does, with a tray and the review window).
    Serve {
        /// No window and no tray: the servers and the control channel only.
        #[arg(long)]
        headless: bool,
    },
    /// Add, remove or list workspaces.
    #[command(subcommand)]
    Workspace(WorkspaceCmd),
    /// Ports, discovery files, clients and pending reviews of each workspace.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Pending reviews: list, show, accept, reject, wait.
    #[command(subcommand)]
    Review(ReviewCmd),
    /// Workspace tokens.
    #[command(subcommand)]
    Token(TokenCmd),
    /// Print the exports that pin a CLI in this terminal to a workspace's server.
    Env {
        #[arg(long, default_value = "sh")]
        shell: Shell,
        /// A path inside the workspace (default: the current directory).
        path: Option<PathBuf>,
    },
    /// Whether Gemini CLI, Qwen Code, Claude Code and Copilot CLI started in DIR would connect,
    /// and if not, why and the one command that fixes it. Exits 1 if an installed CLI would not
    /// connect.
    Doctor {
        /// The directory the CLI would start in (default: the current directory).
        dir: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Let CLIs inside Docker or Podman containers reach a workspace (off by default).
    #[command(subcommand)]
    Container(ContainerCmd),
    /// Stop the running instance.
    Quit,
    /// Propose new text for FILE (in an enabled workspace) for review, as a CLI would: with
    /// --wait, prints the decision and the final text; exit 0 accepted, 1 rejected, 2 error.
    /// Never writes FILE.
    Propose(ProposeArgs),
    /// Show LEFT against RIGHT (files or directories; one tab per changed file), read-only
    /// unless --edit. For `git difftool -t redline` and `git difftool --dir-diff`.
    Diff(DiffArgs),
    /// An editor plugin's channel to the running instance: JSON lines on stdin and stdout
    /// (docs/editors.md).
    Editor {
        /// Speak on stdin and stdout (the only transport for now).
        #[arg(long)]
        stdio: bool,
    },
    /// Point the connected CLIs at lines of a file: FILE:L1-L2 (1-based).
    Mention { target: String },
    /// Tell the connected CLIs which file is open, where the cursor is and what is selected.
    Context {
        #[arg(long)]
        file: PathBuf,
        /// 1-based.
        #[arg(long)]
        line: u32,
        /// 1-based, in characters.
        #[arg(long)]
        col: Option<u32>,
        /// L1:C1-L2:C2, 1-based; the end column just past the last selected character.
        #[arg(long)]
        selection: Option<String>,
    },
}

#[derive(clap::Args)]
pub struct ProposeArgs {
    /// The file the proposal is for (it need not exist yet).
    pub file: PathBuf,
    /// Read the proposed text from F (`-`: standard input).
    #[arg(long, value_name = "F")]
    pub content_file: Option<PathBuf>,
    /// `-`: read the proposed text from standard input.
    #[arg(value_name = "-", value_parser = clap::builder::PossibleValuesParser::new(["-"]))]
    pub stdin: Option<String>,
    /// Wait for the decision and print it (without: open the review and return at once).
    #[arg(long)]
    pub wait: bool,
    /// Print `{decision, content}` as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct DiffArgs {
    pub left: PathBuf,
    pub right: PathBuf,
    /// Wait until every file is answered; exit 0 if all were accepted, 1 if any was rejected.
    #[arg(long)]
    pub wait: bool,
    /// Make RIGHT editable: accepting with edits writes them to RIGHT. Needs --wait, and RIGHT in
    /// an enabled workspace.
    #[arg(long)]
    pub edit: bool,
}

#[derive(Subcommand)]
pub enum ContainerCmd {
    /// Also listen on the container bridge's host address (docker0, Podman's bridge, or
    /// ADDR) and accept `host.docker.internal`.
    Enable {
        path: PathBuf,
        /// The host address containers reach (default: the bridge interface's).
        #[arg(long)]
        address: Option<Ipv4Addr>,
    },
    /// Back to loopback only.
    Disable { path: PathBuf },
    /// Print `docker run` / `podman run` arguments, one per line: `docker run $(redline
    /// container args) IMAGE …`.
    Args {
        /// A path in the workspace (default: the current directory).
        path: Option<PathBuf>,
        /// Where the container sees the workspace (default: at its own path).
        #[arg(long = "path", value_name = "CONTAINER_PATH")]
        container_path: Option<String>,
        /// The CLI's home directory inside the container (Qwen Code looks in ~/.qwen/ide).
        #[arg(long, default_value = redline_core::workspace::container::DEFAULT_HOME)]
        home: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
pub enum WorkspaceCmd {
    Add {
        path: PathBuf,
        /// Add it even if it is `/`, your home folder or a folder around other workspaces.
        #[arg(long)]
        force: bool,
    },
    Remove {
        path: PathBuf,
    },
    /// Turn a workspace on: its server starts and its discovery files are written.
    Enable {
        path: PathBuf,
    },
    /// Turn a workspace off: its server stops and its discovery files are removed.
    Disable {
        path: PathBuf,
    },
    List {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
pub enum ReviewCmd {
    List {
        #[arg(long)]
        json: bool,
    },
    /// A unified diff of the original and the current text.
    Show {
        id: u64,
    },
    /// Accept with the current text, or with a file's text as the edited result.
    Accept {
        id: u64,
        #[arg(long)]
        content_file: Option<PathBuf>,
    },
    Reject {
        id: u64,
    },
    /// Wait for a pending review and print it as JSON.
    Wait {
        /// Only a review of this file path (as the CLI sent it).
        #[arg(long)]
        file: Option<String>,
        /// Seconds to wait before giving up.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
    },
}

#[derive(Subcommand)]
pub enum TokenCmd {
    /// Replace a workspace's token and rewrite its discovery files.
    Rotate {
        /// The workspace, or a folder in it (default: the current directory).
        workspace: Option<PathBuf>,
    },
}
