//! The arguments of `redline hook` and `redline hooks`.

use crate::format::{json_help, JsonFlag};
use clap::Subcommand;

/// The `CLI` argument's help: the ids of every CLI with a hook, from `clients::ALL`.
fn cli_help(what: &str) -> String {
    format!(
        "The CLI {what}: {}",
        redline_core::clients::words::hook_ids()
    )
}

#[derive(clap::Args)]
pub struct HookArgs {
    #[arg(help = cli_help("whose hook runs it"))]
    pub cli: redline_core::protocols::hook::HookCli,
    /// Deny the edit if nobody decides within SECS seconds: set below the CLI's own hook timeout,
    /// after which some CLIs go on with the edit.
    #[arg(long, value_name = "SECS")]
    pub deny_after: Option<u64>,
    /// Also record the files the edit touches, as they are before it, for the review at the end
    /// of the turn (`redline hooks install CLI --turn-review` sets it).
    #[arg(long, conflicts_with_all = ["turn_review", "turn_start", "record_only"])]
    pub record_turn: bool,
    /// The turn mode's pre-edit hook (`redline hooks install CLI --review turn` sets it): record
    /// the files the edit touches for the review at the end of the turn, and ask nothing: the
    /// edit goes on to the CLI's own approval.
    #[arg(long, conflicts_with_all = ["turn_review", "turn_start", "deny_after"])]
    pub record_only: bool,
    /// Run as the CLI's end-of-turn hook (Codex, Claude Code and Qwen Code `Stop`, Gemini CLI
    /// `AfterAgent`, Copilot CLI `agentStop`, opencode's `session.idle` through Redline's plugin):
    /// show every file the turn changed, and answer Done or Continue with the user's instructions.
    #[arg(long, conflicts_with = "turn_start")]
    pub turn_review: bool,
    /// Run as the CLI's prompt hook (Codex, Claude Code and Qwen Code `UserPromptSubmit`, Gemini
    /// CLI `BeforeAgent`, Copilot CLI `userPromptSubmitted`, opencode's `chat.message` through
    /// Redline's plugin): the workspace is checkpointed as the
    /// turn's start before the prompt goes on (`redline turns`). Never holds the prompt up: a
    /// failed checkpoint is said on standard error.
    #[arg(long)]
    pub turn_start: bool,
}

#[derive(Subcommand)]
pub enum HooksCmd {
    /// Add `redline hook CLI` to the CLI's hook config, beside any other hook (again: no change).
    #[command(
        after_long_help = "Examples:\n  redline hooks install codex\n  redline hooks install claude --review turn\n  redline hooks install gemini --review both"
    )]
    Install {
        #[arg(help = cli_help("whose config to change"))]
        cli: redline_core::protocols::hook::HookCli,
        /// What Redline reviews: each edit before it lands (edit), each turn's changes together
        /// at its end, edits going through without Redline asking (turn), or both; turn and
        /// both for codex, claude, gemini, qwen, copilot and opencode.
        #[arg(long, value_name = "MODE", value_parser = ["edit", "turn", "both"], conflicts_with = "turn_review")]
        review: Option<String>,
        /// The same as `--review both`.
        #[arg(long)]
        turn_review: bool,
    },
    /// Take Redline's hook out of the CLI's hook config, leaving every other hook.
    #[command(after_long_help = "Example:\n  redline hooks uninstall codex")]
    Uninstall {
        #[arg(help = cli_help("whose config to change"))]
        cli: redline_core::protocols::hook::HookCli,
    },
    /// Which CLIs have Redline's hook, in which file, and what each still needs.
    #[command(
        after_long_help = "Example:\n  redline hooks status --json",
        mut_arg("json", json_help("Print the status as JSON"))
    )]
    Status {
        #[command(flatten)]
        output: JsonFlag,
    },
}
