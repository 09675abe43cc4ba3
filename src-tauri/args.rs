//! The command line's grammar: every `redline` command and its arguments, with their help.

use crate::format::{json_help, JsonFlag};
use crate::help_text::{doctor_about, hooks_about, long_about};
pub use crate::hook_args::{HookArgs, HooksCmd};
pub use crate::remote_args::RemoteCmd;
pub use crate::review_args::ReviewCmd;
pub use crate::turns_args::TurnsCmd;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use redline_core::surfaces::shell::Shell;
use std::net::Ipv4Addr;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "redline",
    version,
    about = "Diff review for AI coding CLIs",
    long_about = long_about(),
    after_long_help = "Examples:\n  redline workspace add ~/src/myproject\n  \
                       redline serve --headless\n  redline doctor ~/src/myproject\n  \
                       redline review list",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Run the app in this terminal until stopped, logging there (else: in the background)
    #[arg(long)]
    pub foreground: bool,
    /// What the app `redline` starts in the background runs as (hidden)
    #[arg(long = "started-in-background", hide = true)]
    pub started_in_background: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the companion servers of the enabled workspaces until stopped (what `redline` alone
    /// does, with a tray and the review window).
    #[command(
        after_long_help = "Example:\n  redline serve --headless   # prints `ready` once serving"
    )]
    Serve {
        /// No window and no tray: the servers and the control channel only.
        #[arg(long)]
        headless: bool,
    },
    /// Add, remove, enable, disable or list workspaces (the folders Redline serves).
    #[command(
        subcommand,
        after_long_help = "Example:\n  redline workspace add ~/src/myproject\n  redline workspace list"
    )]
    Workspace(WorkspaceCmd),
    /// Ports, discovery files, clients and pending reviews of each workspace.
    #[command(
        after_long_help = "Example:\n  redline status --json | jq '.workspaces[].port'",
        mut_arg("json", json_help("Print the status as one JSON object"))
    )]
    Status {
        #[command(flatten)]
        output: JsonFlag,
    },
    /// Pending reviews: list, show, accept, reject, wait.
    #[command(
        subcommand,
        after_long_help = "Example:\n  redline review list\n  redline review show 3\n  \
                           redline review accept 3"
    )]
    Review(ReviewCmd),
    /// Each CLI turn's change in a workspace: list, show, undo; and a checkpoint on demand.
    #[command(
        subcommand,
        after_long_help = "Example:\n  redline turns list\n  redline turns show 4\n  redline turns undo 4"
    )]
    Turns(TurnsCmd),
    /// Workspace tokens.
    #[command(
        subcommand,
        after_long_help = "Example:\n  redline token rotate ~/src/myproject"
    )]
    Token(TokenCmd),
    /// Print the exports that pin a CLI in this terminal to a workspace's server.
    #[command(after_long_help = "Example:\n  eval \"$(redline env)\"\n  \
                                  redline env --shell fish | source\n  \
                                  redline env --shell powershell | Invoke-Expression")]
    Env {
        /// The syntax of the exports: sh (also bash, zsh), fish or powershell (also pwsh).
        #[arg(
            long,
            default_value = "sh",
            value_parser = PossibleValuesParser::new(["sh", "bash", "zsh", "fish", "powershell", "pwsh"])
                .try_map(|s| s.parse::<Shell>())
        )]
        shell: Shell,
        /// A path inside the workspace (default: the current directory).
        path: Option<PathBuf>,
    },
    /// Whether each CLI started in DIR would connect to Redline, and if not, the fix.
    #[command(
        long_about = doctor_about(),
        after_long_help = "Example:\n  redline doctor ~/src/myproject\n  \
                           redline doctor --json | jq '.clis[] | {id, verdict}'",
        mut_arg("json", json_help("Print the report as one JSON object"))
    )]
    Doctor {
        /// The directory the CLI would start in (default: the current directory).
        dir: Option<PathBuf>,
        #[command(flatten)]
        output: JsonFlag,
    },
    /// Let CLIs inside Docker or Podman containers reach a workspace (off by default).
    #[command(
        subcommand,
        after_long_help = "Example:\n  redline container enable ~/src/myproject\n  \
                           docker run $(redline container args ~/src/myproject) IMAGE"
    )]
    Container(ContainerCmd),
    /// Stop the running instance.
    #[command(after_long_help = "Example:\n  redline quit")]
    Quit,
    /// Propose new text for FILE (in an enabled workspace) for review, as a CLI would: with
    /// --wait, prints the decision and the final text; exit 0 accepted, 1 rejected, 2 no
    /// decision or an error, 3 Redline not running. Never writes FILE.
    #[command(
        after_long_help = "Example:\n  \
        redline propose src/main.rs --content-file new.rs --wait --json\n  \
        if redline propose src/main.rs - --wait < new.rs > accepted.rs; \
        then mv accepted.rs src/main.rs; else rm -f accepted.rs; fi",
        mut_arg("json", json_help("Print `{decision, content}` as JSON"))
    )]
    Propose(ProposeArgs),
    /// Show LEFT against RIGHT (files or directories; one tab per changed file), read-only
    /// unless --edit. For `git difftool -t redline` and `git difftool --dir-diff`.
    #[command(after_long_help = "Example:\n  redline diff old.rs new.rs\n  \
        git config difftool.redline.cmd 'redline diff \"$LOCAL\" \"$REMOTE\"'\n  \
        git difftool -d -t redline")]
    Diff(DiffArgs),
    /// The command a CLI's pre-edit hook runs (`redline hooks install CLI` sets it up): reads the
    /// hook's JSON on stdin, opens a review of the edit, and answers the CLI with the decision.
    /// Redline not running, or the folder in no enabled workspace: one line on stderr, and the
    /// CLI's own approval runs.
    #[command(
        after_long_help = "Example (what Codex runs):\n  redline hook codex --deny-after 3540"
    )]
    Hook(HookArgs),
    /// Install, remove or check Redline's pre-edit hook in a CLI's own config.
    #[command(
        subcommand,
        long_about = hooks_about(),
        after_long_help = "Example:\n  redline hooks install codex\n  redline hooks status"
    )]
    Hooks(HooksCmd),
    /// An editor plugin's channel to the running instance: one JSON message per line on stdin
    /// (`context`, `mention`, `review`, `reject`) and stdout (`ready`, `ok`, `error`,
    /// `accepted`); it ends when stdin closes or the instance stops.
    #[command(after_long_help = "Example:\n  \
        echo '{\"type\":\"review\",\"id\":1}' | redline editor --stdio")]
    Editor {
        /// Speak on stdin and stdout (the only transport for now).
        #[arg(long)]
        stdio: bool,
    },
    /// This machine's reviews for a desktop's Redline: joins stdin and stdout to the running
    /// instance as one long-lived link (JSON lines). A desktop runs it over ssh
    /// or wsl.exe; it ends when stdin closes, the instance stops or the link goes silent.
    #[command(after_long_help = "Example:\n  ssh -T devbox redline bridge --start")]
    Bridge {
        /// Start `redline serve --headless` first when no instance runs.
        #[arg(long)]
        start: bool,
    },
    /// Other machines whose reviews this one shows (SSH hosts, WSL distros): add, remove, list.
    #[command(
        subcommand,
        after_long_help = "Example:\n  redline remote add ssh://me@devbox\n  redline remote list"
    )]
    Remote(RemoteCmd),
    /// Point the connected CLIs at lines of a file: FILE:L1-L2 (1-based).
    #[command(after_long_help = "Example:\n  redline mention src/main.rs:10-24")]
    Mention {
        /// FILE:L1-L2 or FILE:L (1-based, inclusive); FILE relative to the current directory.
        #[arg(value_name = "FILE:L1-L2")]
        target: String,
    },
    /// Tell the connected CLIs which file is open, where the cursor is and what is selected.
    #[command(after_long_help = "Example:\n  \
        redline context --file src/main.rs --line 12 --col 5 --selection 12:5-14:1")]
    Context {
        /// The open file (relative to the current directory, or absolute).
        #[arg(long)]
        file: PathBuf,
        /// The cursor's line, 1-based.
        #[arg(long)]
        line: u32,
        /// The cursor's column, 1-based, in characters.
        #[arg(long)]
        col: Option<u32>,
        /// L1:C1-L2:C2, 1-based; the end column just past the last selected character. Given
        /// again for each of several selections (the first is the one a CLI reading one gets).
        #[arg(long)]
        selection: Vec<String>,
    },
    /// Print the completion script for SHELL (bash, zsh, fish, powershell, elvish).
    #[command(after_long_help = "Example:\n  \
        redline completions bash > ~/.local/share/bash-completion/completions/redline\n  \
        redline completions powershell | Out-String | Invoke-Expression")]
    Completions {
        /// The shell the script is for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): read it with `redline man | man -l -`.
    #[command(after_long_help = "Example:\n  redline man | man -l -")]
    Man,
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
    /// Propose empty text for a file that has some (deleting all of it); without it, empty
    /// input is refused, as a pipe that gave nothing would otherwise propose that.
    #[arg(long)]
    pub allow_empty: bool,
    #[command(flatten)]
    pub output: JsonFlag,
}

#[derive(clap::Args)]
pub struct DiffArgs {
    /// The original: a file or a directory.
    pub left: PathBuf,
    /// The changed side: a file, or a directory if LEFT is one.
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
    #[command(
        after_long_help = "Example:\n  redline container enable ~/src/myproject\n  \
        redline container enable ~/src/myproject --address 10.88.0.1"
    )]
    Enable {
        /// The workspace (its own path, as `redline workspace list` shows it).
        path: PathBuf,
        /// The host address containers reach (default: the bridge interface's).
        #[arg(long, value_name = "ADDR")]
        address: Option<Ipv4Addr>,
    },
    /// Back to loopback only.
    #[command(after_long_help = "Example:\n  redline container disable ~/src/myproject")]
    Disable {
        /// The workspace (its own path, as `redline workspace list` shows it).
        path: PathBuf,
    },
    /// Print `docker run` / `podman run` arguments, one per line: `docker run $(redline
    /// container args) IMAGE …`.
    #[command(
        after_long_help = "Example:\n  \
        docker run -it $(redline container args --path /workspace) node:22 gemini",
        mut_arg(
            "json",
            json_help("Print the mounts, variables and hosts as one JSON object")
        )
    )]
    Args {
        /// A path in the workspace (default: the current directory).
        path: Option<PathBuf>,
        /// Where the container sees the workspace (default: at its own path).
        #[arg(long = "path", value_name = "CONTAINER_PATH")]
        container_path: Option<String>,
        /// The CLI's home directory inside the container (Qwen Code looks in ~/.qwen/ide).
        #[arg(long, default_value = redline_core::workspace::container::DEFAULT_HOME)]
        home: String,
        #[command(flatten)]
        output: JsonFlag,
    },
}

#[derive(Subcommand)]
pub enum WorkspaceCmd {
    /// Serve a folder: CLIs started in it (or below it) connect to Redline.
    #[command(after_long_help = "Example:\n  redline workspace add ~/src/myproject")]
    Add {
        /// The folder (it must exist).
        path: PathBuf,
        /// Add it even if it is `/`, your home folder or a folder around other workspaces.
        #[arg(long)]
        force: bool,
    },
    /// Stop serving a folder and forget it (its token too).
    #[command(after_long_help = "Example:\n  redline workspace remove ~/src/myproject")]
    Remove {
        /// The workspace's path, as `redline workspace list` shows it.
        path: PathBuf,
    },
    /// Turn a workspace on: its server starts and its discovery files are written.
    #[command(after_long_help = "Example:\n  redline workspace enable ~/src/myproject")]
    Enable {
        /// The workspace's path, as `redline workspace list` shows it.
        path: PathBuf,
    },
    /// Turn a workspace off: its server stops and its discovery files are removed.
    #[command(after_long_help = "Example:\n  redline workspace disable ~/src/myproject")]
    Disable {
        /// The workspace's path, as `redline workspace list` shows it.
        path: PathBuf,
    },
    /// List the workspaces, on or off.
    #[command(
        after_long_help = "Example:\n  redline workspace list --json",
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

#[derive(Subcommand)]
pub enum TokenCmd {
    /// Replace a workspace's token and rewrite its discovery files.
    #[command(
        after_long_help = "Example:\n  redline token rotate ~/src/myproject\n  cd ~/src/myproject && redline token rotate"
    )]
    Rotate {
        /// The workspace, or a folder in it (default: the current directory).
        workspace: Option<PathBuf>,
    },
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
