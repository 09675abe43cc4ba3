//! Redline benchmark: openDiff round-trip latency and tools/call throughput over MCP
//! Streamable HTTP on loopback, side by side with a reference server built on the
//! official TypeScript SDK (bench/reference/server.mjs); and a review load of many CLIs
//! opening and deciding reviews at once. See bench/README.md.
//!
//! This is a benchmark, not a test: it prints figures and a verdict and exits 0 unless
//! something failed outright (a server that would not start, an HTTP or JSON-RPC error,
//! a lost decision).

mod compare;
mod flag_value;
mod floor;
mod http;
mod load;
mod machine;
mod mcp;
mod report_text;
mod target;

use clap::{Parser, Subcommand};

/// openDiff latency and tools/call throughput, Redline vs the TypeScript SDK.
///
/// Without a subcommand, runs `compare` with the options given.
#[derive(Parser)]
#[command(name = "redline-bench", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    compare: compare::Args,
}

#[derive(Subcommand)]
enum Command {
    /// openDiff latency and tools/call throughput, Redline vs the TypeScript SDK reference
    /// (the default)
    Compare(compare::Args),
    /// N concurrent CLIs opening and deciding reviews; fails on a lost or duplicated decision
    Load(load::Args),
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Load(args)) => load::main(args),
        Some(Command::Compare(args)) => compare::main(args),
        None => compare::main(cli.compare),
    };
    std::process::exit(code);
}
