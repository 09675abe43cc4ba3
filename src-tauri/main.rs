//! `redline`: the command line of the Redline companion.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
