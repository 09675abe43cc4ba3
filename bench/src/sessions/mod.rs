//! `redline-bench sessions`: what MCP sessions leave in the server once they are gone. Opens N
//! sessions without DELETE (the server keeps at most its cap and ends the rest), waits until the
//! server has ended the ones it kept, then N more ended with DELETE, and reads the server's
//! memory at each step: glibc's bytes in use (`malloc_stats()` called in the server through
//! gdb, when gdb is there), its resident anonymous memory and its threads.

mod memory;

use crate::flag_value::{count, seconds};
use crate::machine::loadavg;
use crate::mcp::{Endpoint, Session};
use crate::target::{redline_bin, start_redline, RedlineTarget, Scratch};
use anyhow::{anyhow, bail, Context, Result};
use memory::Memory;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Sessions in each phase (without DELETE, then with)
    #[arg(long, value_name = "N", default_value = "3000", value_parser = count)]
    sessions: usize,
    /// Redline binary [default: $REDLINE_BIN, else target/release/redline]
    #[arg(long, value_name = "PATH")]
    redline_bin: Option<PathBuf>,
    /// Per-request timeout, in seconds
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    timeout: Duration,
    /// The longest wait for the server to end the sessions it kept, in seconds (its own limit
    /// for a session with no stream is 60 s, checked every 15 s), and its threads to settle
    #[arg(long, value_name = "SECS", default_value = "150", value_parser = seconds)]
    settle: Duration,
    /// The most the bytes in use may end above where they started, in KiB
    #[arg(long, value_name = "KIB", default_value = "2048")]
    budget_kib: u64,
    /// Also write the markdown report to FILE
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// One reading, and when in the run it was taken.
struct Step {
    what: String,
    mem: Memory,
}

/// Runs the phases, reading the server's memory after each, and prints the report; an error if
/// the memory did not come back within the budget.
pub async fn run(o: Args) -> Result<()> {
    let redline_bin = redline_bin(o.redline_bin.as_deref());
    let scratch = Scratch::new()?;
    let ws = scratch.root.join("ws");
    std::fs::create_dir_all(&ws)?;
    let load_before = loadavg();
    let mut target = start_redline(&redline_bin, &scratch.root, &ws, o.timeout)?;
    let pid = target.server.pid();
    let log = target.server.log.clone();
    let ep = target.endpoint.clone();
    let read = |what: &str| -> Result<Step> {
        Ok(Step {
            what: what.to_owned(),
            mem: Memory::read(pid, &log)?,
        })
    };
    // One session first: what the server sets up once (its first peer lookup, lazy statics)
    // is not counted against the sessions.
    one(&ep, o.timeout, true).await.context("warm-up session")?;
    let quiet = settle(&target, pid, o.settle).await?;
    let mut steps = vec![read("start (after one session, settled)")?];
    let started = Instant::now();
    sessions(&ep, &o, false).await?;
    let open_secs = started.elapsed().as_secs_f64();
    let kept = target.clients()?;
    steps.push(read(&format!(
        "{} sessions without DELETE, {kept} still kept",
        o.sessions
    ))?);
    let waited = settle(&target, pid, o.settle).await?;
    steps.push(read("… once the server ended the kept ones")?);
    sessions(&ep, &o, true).await?;
    steps.push(read(&format!(
        "{} more, each ended with DELETE",
        o.sessions
    ))?);
    settle(&target, pid, o.settle).await?;
    steps.push(read("… settled")?);
    let ended = target.server.stop();
    let report = memory::report(&memory::Run {
        sessions: o.sessions,
        bin: &redline_bin,
        load_before: &load_before,
        open_secs,
        quiet,
        waited,
        steps: &steps
            .iter()
            .map(|s| (s.what.as_str(), &s.mem))
            .collect::<Vec<_>>(),
        budget_kib: o.budget_kib,
        ended: &ended,
    });
    publish(&o, &report)
}

/// `--sessions` sessions one after the other, each ended with DELETE if `delete`.
async fn sessions(ep: &Endpoint, o: &Args, delete: bool) -> Result<()> {
    let how = if delete { "DELETE" } else { "no DELETE" };
    for n in 0..o.sessions {
        one(ep, o.timeout, delete)
            .await
            .with_context(|| format!("session {n} ({how})"))?;
    }
    Ok(())
}

/// The report on stdout and in `--out`'s file; an error if the memory did not come back.
fn publish(o: &Args, report: &memory::Report) -> Result<()> {
    println!("{}", report.text);
    if let Some(out) = &o.out {
        std::fs::write(out, &report.text).with_context(|| format!("write {}", out.display()))?;
    }
    if !report.within_budget {
        bail!(
            "the server's memory did not come back within {} KiB",
            o.budget_kib
        );
    }
    Ok(())
}

impl RedlineTarget {
    /// How many CLI sessions `redline status --json` lists for the workspace.
    pub fn clients(&self) -> Result<usize> {
        let out = crate::target::redline_cmd(&self.bin, &self.dirs)
            .args(["status", "--json"])
            .output()
            .context("redline status --json")?;
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).with_context(|| {
            format!(
                "redline status --json: {}",
                String::from_utf8_lossy(&out.stdout)
            )
        })?;
        v["workspaces"][0]["clients"]
            .as_array()
            .map(Vec::len)
            .ok_or_else(|| anyhow!("redline status --json lists no workspace: {v}"))
    }
}

/// Opens one session (initialize, notifications/initialized), and ends it with DELETE if asked;
/// its connection closes when it returns.
async fn one(ep: &Endpoint, timeout: Duration, delete: bool) -> Result<()> {
    let mut s = Session::new(ep, timeout);
    s.initialize().await?;
    if delete {
        let status = s.delete().await?;
        if !(200..300).contains(&status) {
            bail!("DELETE /mcp answered {status}");
        }
    }
    Ok(())
}

/// Waits until the server lists no session and its thread count has held still for longer than
/// tokio keeps an idle blocking-pool thread (10 s; a thread's malloc cache goes when it ends);
/// how long that took.
async fn settle(
    target: &crate::target::RedlineTarget,
    pid: u32,
    limit: Duration,
) -> Result<Duration> {
    const STILL: Duration = Duration::from_secs(12);
    let start = Instant::now();
    let mut last = (memory::threads(pid)?, Instant::now());
    loop {
        let clients = target.clients()?;
        let now = memory::threads(pid)?;
        if now != last.0 || clients != 0 {
            last = (now, Instant::now());
        } else if last.1.elapsed() >= STILL {
            return Ok(start.elapsed());
        }
        if start.elapsed() > limit {
            bail!("not settled within {limit:?}: {clients} session(s) still listed, {now} threads");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}
