//! `redline`: the command line of the Redline companion.

mod args;
mod cli;
mod editor_channels;
mod editor_cli;
mod local;
mod manual;
mod output;
mod request;

fn main() -> std::process::ExitCode {
    cli::main()
}
