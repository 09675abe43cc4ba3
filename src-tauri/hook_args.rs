//! The arguments of `redline hook` and `redline hooks`.

use clap::Subcommand;

#[derive(clap::Args)]
pub struct HookArgs {
    /// The CLI whose hook runs it: codex, claude, gemini, qwen, copilot, kiro, cursor or opencode.
    pub cli: redline_core::protocols::hook::HookCli,
    /// Deny the edit if nobody decides within SECS seconds: set below the CLI's own hook timeout,
    /// after which some CLIs go on with the edit.
    #[arg(long, value_name = "SECS")]
    pub deny_after: Option<u64>,
}

#[derive(Subcommand)]
pub enum HooksCmd {
    /// Add `redline hook CLI` to the CLI's hook config, beside any other hook (again: no change).
    #[command(after_long_help = "Example:\n  redline hooks install codex")]
    Install {
        /// The CLI: codex, claude, gemini, qwen, copilot, kiro, cursor or opencode.
        cli: redline_core::protocols::hook::HookCli,
    },
    /// Take Redline's hook out of the CLI's hook config, leaving every other hook.
    #[command(after_long_help = "Example:\n  redline hooks uninstall codex")]
    Uninstall {
        /// The CLI: codex, claude, gemini, qwen, copilot, kiro, cursor or opencode.
        cli: redline_core::protocols::hook::HookCli,
    },
    /// Which CLIs have Redline's hook, in which file, and what each still needs.
    #[command(after_long_help = "Example:\n  redline hooks status --json")]
    Status {
        /// Print the status as JSON.
        #[arg(long)]
        json: bool,
    },
}
