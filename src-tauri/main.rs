//! `redline`: the command line of the Redline companion.

// Issue 38: no function over 60 lines (clippy.toml) outside tests; tests may be long.
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

#[cfg(feature = "desktop")]
mod action;
mod args;
#[cfg(feature = "desktop")]
mod autostart;
mod bridge_cli;
mod child_ready;
mod cli;
mod comment_arg;
#[cfg(feature = "desktop")]
mod desktop;
#[cfg(feature = "desktop")]
mod display;
mod editor_channels;
mod editor_cli;
mod format;
mod help_text;
mod here;
mod hook;
mod hook_args;
mod hook_config;
#[cfg(all(unix, feature = "desktop"))]
mod launch;
mod local;
mod logging;
#[cfg(feature = "desktop")]
mod main_thread;
mod manual;
#[cfg(feature = "desktop")]
mod outcome;
mod output;
mod remote_args;
mod remote_cli;
mod request;
mod resolve;
mod review_args;
mod review_cli;
mod text;
#[cfg(feature = "desktop")]
mod tray;
mod turns_args;
mod turns_cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
