//! Redline benchmark: openDiff round-trip latency and tools/call throughput over MCP
//! Streamable HTTP on loopback, side by side with a reference server built on the
//! official TypeScript SDK (bench/reference/server.mjs); and a review load of many CLIs
//! opening and deciding reviews at once. See bench/README.md.
//!
//! This is a benchmark, not a test: it prints figures and a verdict and exits 0 unless
//! something failed outright (a server that would not start, an HTTP or JSON-RPC error,
//! a lost decision).

// Issue 38: no function over 60 lines (clippy.toml) outside tests; tests may be long.
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

mod checkpoint;
mod compare;
mod flag_value;
mod floor;
mod http;
mod load;
mod machine;
mod mcp;
#[cfg(unix)]
mod remote;
mod report_text;
mod sessions;
mod target;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::future::Future;

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
    /// What MCP sessions leave in the server once gone: N without DELETE, then N with
    Sessions(sessions::Args),
    /// A turn's checkpoint on a large git workspace, against git itself
    Checkpoint(checkpoint::Args),
    /// A review made on another machine (through `redline bridge`) against the same made here
    #[cfg(unix)]
    Remote(remote::Args),
}

fn main() {
    let cli = Cli::parse();
    let (name, result) = match cli.command {
        Some(Command::Load(args)) => ("redline-bench load", on_runtime(1, load::run(args))),
        Some(Command::Sessions(args)) => {
            ("redline-bench sessions", on_runtime(1, sessions::run(args)))
        }
        Some(Command::Checkpoint(args)) => ("redline-bench checkpoint", checkpoint::run(args)),
        #[cfg(unix)]
        Some(Command::Remote(args)) => ("redline-bench remote", remote::run(args)),
        Some(Command::Compare(args)) => ("redline-bench", compare_on_runtime(args)),
        None => ("redline-bench", compare_on_runtime(cli.compare)),
    };
    if let Err(e) = result {
        eprintln!("{name}: {e:#}");
        std::process::exit(1);
    }
}

fn compare_on_runtime(args: compare::Args) -> Result<()> {
    on_runtime(args.client_threads, compare::run(args))
}

/// Runs `job` to its end on a tokio runtime with `threads` workers; 1 is a current-thread
/// runtime, so the load generator takes one core.
fn on_runtime(threads: usize, job: impl Future<Output = Result<()>>) -> Result<()> {
    let rt = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
    }
    .context("tokio runtime")?;
    rt.block_on(job)
}

#[cfg(test)]
mod tests {
    use super::{Cli, Command};
    use clap::{CommandFactory, Parser};

    #[test]
    fn flags_are_declared_consistently() {
        Cli::command().debug_assert();
    }

    #[test]
    fn documented_invocations_parse() {
        // bench/run's, with the extra arguments bench/README.md shows.
        let cli = Cli::try_parse_from([
            "redline-bench",
            "--redline-bin",
            "target/release/redline",
            "--redline-note",
            "source commit abc",
            "--reference",
            "bench/reference/server.mjs",
            "--out",
            "report.md",
            "--rounds",
            "5",
            "--duration",
            "10",
        ])
        .unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.compare.rounds, 5);
        assert_eq!(cli.compare.duration, std::time::Duration::from_secs(10));
        assert_eq!(
            cli.compare.redline_note.as_deref(),
            Some("source commit abc")
        );
        let cli = Cli::try_parse_from(["redline-bench", "--only", "reference"]).unwrap();
        assert!(cli.compare.only == Some(crate::compare::Only::Reference));
        let cli = Cli::try_parse_from([
            "redline-bench",
            "load",
            "--clients",
            "8",
            "--duration",
            "10",
            "--redline-bin",
            "target/release/redline",
        ])
        .unwrap();
        assert!(matches!(cli.command, Some(Command::Load(_))));
    }

    #[test]
    fn out_of_range_values_are_refused_before_a_run() {
        for bad in [
            &["--rounds", "0"][..],
            &["--concurrency", "1025"],
            &["--only", "both"],
            &["--duration", "0"],
            &["--rounds", "1", "load"],
            &["load", "--clients", "0"],
            &["load", "--rounds", "1"],
        ] {
            let args = std::iter::once("redline-bench").chain(bad.iter().copied());
            assert!(Cli::try_parse_from(args).is_err(), "{bad:?} was accepted");
        }
    }
}
