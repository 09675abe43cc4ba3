//! The server's memory as the bench reads it: glibc's bytes in use through `malloc_stats()`
//! (called in the server by gdb; it prints to the server's stderr, which the bench logs), and
//! what `/proc/PID/status` says (resident anonymous memory, threads); and the report.

use anyhow::{anyhow, Context, Result};
use std::path::Path;
use std::process::Command;

#[derive(Clone, Debug)]
pub struct Memory {
    /// glibc's "in use bytes" (all arenas and mmapped blocks); `None` without gdb.
    pub in_use: Option<u64>,
    pub rss_anon_kib: u64,
    pub threads: u64,
}

fn status_field(pid: u32, name: &str) -> Result<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("read /proc/{pid}/status"))?;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| anyhow!("/proc/{pid}/status has no {name}"))
}

pub fn threads(pid: u32) -> Result<u64> {
    status_field(pid, "Threads")
}

impl Memory {
    pub fn read(pid: u32, log: &Path) -> Result<Memory> {
        Ok(Memory {
            in_use: malloc_in_use(pid, log),
            rss_anon_kib: status_field(pid, "RssAnon")?,
            threads: threads(pid)?,
        })
    }
}

/// Has gdb call `malloc_stats()` in `pid` (which prints to its stderr, logged to `log`) and reads
/// the total "in use bytes" it printed. `None` if gdb is missing or the call failed.
fn malloc_in_use(pid: u32, log: &Path) -> Option<u64> {
    let before = std::fs::metadata(log).map(|m| m.len()).unwrap_or(0);
    // gdb's exit status is no guide (in a container it may fail to restore a register set it
    // never changed, and say so): what the server printed is.
    Command::new("timeout")
        .args(["30", "gdb", "-nx", "-batch", "-p", &pid.to_string()])
        .args(["-ex", "call (void)malloc_stats()"])
        .output()
        .ok()?;
    let text = std::fs::read(log).ok()?;
    let text = String::from_utf8_lossy(text.get(before as usize..)?);
    let total = text.rsplit_once("Total (incl. mmap):")?.1;
    total
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("in use bytes")?
                .trim()
                .strip_prefix('=')
        })?
        .trim()
        .parse()
        .ok()
}

pub struct Run<'a> {
    pub sessions: usize,
    pub bin: &'a Path,
    pub load_before: &'a str,
    pub open_secs: f64,
    pub quiet: std::time::Duration,
    pub waited: std::time::Duration,
    pub steps: &'a [(&'a str, &'a Memory)],
    pub budget_kib: u64,
    pub ended: &'a str,
}

pub struct Report {
    pub text: String,
    pub within_budget: bool,
}

fn kib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1 << 20) as f64)
}

fn delta(now: u64, start: u64) -> String {
    let d = now as i64 - start as i64;
    format!(
        "{}{:.2} MiB",
        if d < 0 { "−" } else { "+" },
        d.unsigned_abs() as f64 / (1 << 20) as f64
    )
}

pub fn report(r: &Run<'_>) -> Report {
    let mut t = String::new();
    let (_, start) = r.steps[0];
    t.push_str("## MCP sessions once gone (`redline-bench sessions`)\n\n");
    t.push_str(&format!(
        "- {} sessions (initialize, notifications/initialized) without DELETE, each on its own \
         connection ({:.1} s), then {} more ended with DELETE; load average at start {}\n",
        r.sessions, r.open_secs, r.sessions, r.load_before
    ));
    t.push_str(&format!(
        "- the server ended the sessions it kept {:.0} s after the last one opened (its limit: 60 s \
         without a stream); each reading is taken once no session is listed and the server's \
         thread count has held still for 12 s (start: {:.0} s)\n",
        r.waited.as_secs_f64(),
        r.quiet.as_secs_f64()
    ));
    t.push_str(&format!("- Redline: `{}`\n\n", r.bin.display()));
    t.push_str("| | malloc in use | Δ | resident anonymous | Δ | threads |\n");
    t.push_str("|---|---:|---:|---:|---:|---:|\n");
    for (what, m) in r.steps {
        let (used, used_d) = match (m.in_use, start.in_use) {
            (Some(u), Some(s)) => (kib(u), delta(u, s)),
            _ => ("n/a (no gdb)".into(), String::new()),
        };
        t.push_str(&format!(
            "| {what} | {used} | {used_d} | {} | {} | {} |\n",
            kib(m.rss_anon_kib * 1024),
            delta(m.rss_anon_kib * 1024, start.rss_anon_kib * 1024),
            m.threads
        ));
    }
    let (_, last) = r.steps[r.steps.len() - 1];
    let budget = r.budget_kib * 1024;
    let within = |now: u64, start: u64| now <= start + budget;
    let within_budget = match (last.in_use, start.in_use) {
        (Some(u), Some(s)) => within(u, s),
        _ => within(last.rss_anon_kib * 1024, start.rss_anon_kib * 1024),
    } && r.steps.iter().filter(|(w, _)| w.starts_with('…')).all(
        |(_, m)| match (m.in_use, start.in_use) {
            (Some(u), Some(s)) => within(u, s),
            _ => true,
        },
    );
    t.push_str(&format!(
        "\n**Verdict: {}** — once the sessions are gone, the bytes in use are back within {} of \
         where they started.\n\n- Redline {}\n",
        if within_budget { "met" } else { "NOT met" },
        kib(budget),
        r.ended
    ));
    Report {
        text: t,
        within_budget,
    }
}
