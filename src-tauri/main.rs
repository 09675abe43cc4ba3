//! `redline`: the command line of the Redline companion.

mod args;
mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
