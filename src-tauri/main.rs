//! `redline`: the command line of the Redline companion.

mod args;
mod cli;
mod editor_cli;
mod local;

fn main() -> std::process::ExitCode {
    cli::main()
}
