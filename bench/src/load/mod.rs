//! `redline-bench load`: N concurrent CLIs, each opening a review and deciding it in a loop,
//! with every decision checked on the CLI's own notification stream: throughput, latency from
//! openDiff to the decision's arrival, and no lost or duplicated decision (a run with one fails).

mod client;
mod events;

use crate::flag_value::{count, seconds};
use crate::machine::loadavg;
use crate::report_text::{percentile, shown};
use crate::target::{redline_bin, start_redline, Scratch};
use anyhow::{anyhow, bail, Context, Result};
use client::{client, Tally};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Concurrent CLIs, each its own MCP session and notification stream
    #[arg(long, value_name = "N", default_value = "8", value_parser = count)]
    clients: usize,
    /// How long the CLIs loop, in seconds
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    duration: Duration,
    /// Redline binary [default: $REDLINE_BIN, else target/release/redline]
    #[arg(long, value_name = "PATH")]
    redline_bin: Option<PathBuf>,
    /// Per-request timeout, and the longest wait for a decision, in seconds
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    timeout: Duration,
    /// Also write the markdown report to FILE
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs the load and prints its report; an error if any decision was lost or duplicated.
pub async fn run(o: Args) -> Result<()> {
    let redline_bin = redline_bin(o.redline_bin.as_deref());
    let scratch = Scratch::new()?;
    let ws = scratch.root.join("ws");
    std::fs::create_dir_all(&ws)?;
    let load_before = loadavg();
    let mut target = start_redline(&redline_bin, &scratch.root, &ws, o.timeout)?;
    let ep = target.endpoint.clone();
    let start = Instant::now();
    let until = start + o.duration;
    let tasks: Vec<_> = (0..o.clients)
        .map(|n| tokio::spawn(client(ep.clone(), ws.clone(), n, until, o.timeout)))
        .collect();
    let (mut all, failures) = gather(tasks).await;
    let elapsed = start.elapsed();
    let stopped = target.server.stop();
    if !failures.is_empty() {
        bail!("{}", failures.join("\n"));
    }
    all.latencies_ns.sort_unstable();
    if all.latencies_ns.is_empty() {
        bail!("no decision completed");
    }
    let report = report(&o, &all, elapsed, &load_before, &redline_bin, &stopped);
    print!("{report}");
    if let Some(out) = &o.out {
        std::fs::write(out, &report).with_context(|| format!("write {}", out.display()))?;
    }
    Ok(())
}

/// Every CLI's tally added up, and what went wrong with each that failed.
async fn gather(tasks: Vec<tokio::task::JoinHandle<Result<Tally>>>) -> (Tally, Vec<String>) {
    let mut all = Tally::default();
    let mut failures = Vec::new();
    for (n, t) in tasks.into_iter().enumerate() {
        match t.await.map_err(|e| anyhow!("{e}")).and_then(|r| r) {
            Ok(t) => {
                all.latencies_ns.extend(t.latencies_ns);
                all.accepted += t.accepted;
                all.rejected += t.rejected;
            }
            Err(e) => failures.push(format!("client {n}: {e:#}")),
        }
    }
    (all, failures)
}

/// The markdown report of a run whose decisions `all` holds (latencies sorted).
fn report(
    o: &Args,
    all: &Tally,
    elapsed: Duration,
    load_before: &str,
    redline_bin: &Path,
    stopped: &str,
) -> String {
    let decisions = all.latencies_ns.len();
    let ms = |ns: u64| ns as f64 / 1e6;
    format!(
        "## Review load: {clients} concurrent CLIs, open + decide in a loop\n\n\
         - machine: {cpus} CPU(s), load average at start {load_before}; client: tokio current-thread\n\
         - each CLI: its own MCP session and GET notification stream; per iteration `openDiff`, \
           then `acceptDiff` or `rejectDiff` (alternating, unique content), then waits for the \
           decision on its stream and checks it (method, filePath, content)\n\
         - run: {secs:.1} s\n\n\
         | | |\n|---|---:|\n\
         | decisions | {decisions} ({acc} accepted, {rej} rejected) |\n\
         | throughput | {tput:.0} decisions/s |\n\
         | open → decision p50 | {p50:.3} ms |\n\
         | open → decision p99 | {p99:.3} ms |\n\
         | open → decision max | {max:.3} ms |\n\
         | lost or duplicated decisions | 0 |\n\n\
         - Redline: `{bin}`; {stopped}\n",
        clients = o.clients,
        cpus = std::thread::available_parallelism().map_or(0, |n| n.get()),
        secs = elapsed.as_secs_f64(),
        acc = all.accepted,
        rej = all.rejected,
        tput = decisions as f64 / elapsed.as_secs_f64(),
        p50 = ms(percentile(&all.latencies_ns, 50.0)),
        p99 = ms(percentile(&all.latencies_ns, 99.0)),
        max = ms(percentile(&all.latencies_ns, 100.0)),
        bin = shown(redline_bin),
    )
}
