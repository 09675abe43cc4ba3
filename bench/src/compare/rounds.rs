//! One target's state across the comparison's rounds, and the latency and throughput rounds that fill it.

use super::Args;
use crate::machine::proc_cpu_ticks;
use crate::mcp::{check_open_diff_result, Endpoint, Session};
use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// One target's state across rounds.
pub struct Target {
    pub label: String,
    pub detail: String,
    pub endpoint: Endpoint,
    pub pid: u32,
    pub latency_session: Session,
    pub latency_args: String,
    pub tput_sessions: Vec<(Session, String)>,
    pub framing: String,
    pub latencies_ns: Vec<u64>,
    pub tput_rounds: Vec<TputRound>,
    pub latency_cpu: CpuSample,
    pub latency_cut_short: bool,
}

#[derive(Clone, Copy, Default)]
pub struct CpuSample {
    /// Server CPU time (user+system) spent, in clock ticks.
    pub ticks: u64,
    pub calls: u64,
}

pub struct TputRound {
    pub calls: u64,
    pub elapsed: Duration,
    pub server_ticks: u64,
}

pub fn file_content(lines: usize, changed: bool) -> String {
    let mut s = String::new();
    for i in 0..lines {
        if changed && i % 10 == 3 {
            let _ = writeln!(
                s,
                "line {i}: the quick brown fox jumps over the lazy cat (edited)"
            );
        } else {
            let _ = writeln!(s, "line {i}: the quick brown fox jumps over the lazy dog");
        }
    }
    s
}

pub fn open_diff_args(path: &Path, new_content: &str) -> String {
    serde_json::json!({"filePath": path.to_string_lossy(), "newContent": new_content}).to_string()
}

async fn call_open_diff(s: &mut Session, args: &str) -> Result<()> {
    let (id, body) = s.next_call("openDiff", args);
    let r = s.request_raw(id, &body).await?;
    check_open_diff_result(&r)
}

pub async fn prepare(
    label: &str,
    detail: String,
    endpoint: Endpoint,
    pid: u32,
    ws: &Path,
    opts: &Args,
    new_content: &str,
) -> Result<Target> {
    let mut latency_session = Session::new(&endpoint, opts.timeout);
    latency_session
        .initialize()
        .await
        .with_context(|| format!("{label}: first session"))?;
    latency_session
        .check_tools()
        .await
        .with_context(|| format!("{label}: tools/list"))?;
    let latency_args = open_diff_args(&ws.join("src").join("latency.txt"), new_content);
    // One call to learn the response framing (and fail early with a clear message).
    call_open_diff(&mut latency_session, &latency_args)
        .await
        .with_context(|| format!("{label}: first openDiff"))?;
    let framing = latency_session
        .last_framing
        .map(|f| f.name().to_string())
        .unwrap_or_default();
    let mut tput_sessions = Vec::new();
    for i in 0..opts.concurrency {
        let mut s = Session::new(&endpoint, opts.timeout);
        s.initialize()
            .await
            .with_context(|| format!("{label}: throughput session {i}"))?;
        let args = open_diff_args(&ws.join("src").join(format!("tput-{i}.txt")), new_content);
        tput_sessions.push((s, args));
    }
    Ok(Target {
        label: label.to_string(),
        detail,
        endpoint,
        pid,
        latency_session,
        latency_args,
        tput_sessions,
        framing,
        latencies_ns: Vec::new(),
        tput_rounds: Vec::new(),
        latency_cpu: CpuSample::default(),
        latency_cut_short: false,
    })
}

pub async fn latency_round(t: &mut Target, opts: &Args) -> Result<()> {
    // Both loops are bounded in time too, so a slow server cannot stall the run.
    let warm_until = Instant::now() + opts.latency_max / 4;
    for _ in 0..opts.warmup_calls {
        call_open_diff(&mut t.latency_session, &t.latency_args)
            .await
            .with_context(|| format!("{}: latency warm-up", t.label))?;
        if Instant::now() >= warm_until {
            break;
        }
    }
    let cpu0 = proc_cpu_ticks(t.pid);
    t.latencies_ns.reserve(opts.latency_calls);
    let until = Instant::now() + opts.latency_max;
    let mut n = 0;
    for _ in 0..opts.latency_calls {
        let start = Instant::now();
        call_open_diff(&mut t.latency_session, &t.latency_args)
            .await
            .with_context(|| format!("{}: latency run", t.label))?;
        let end = Instant::now();
        t.latencies_ns.push((end - start).as_nanos() as u64);
        n += 1;
        if end >= until {
            t.latency_cut_short = true;
            break;
        }
    }
    t.latency_cpu.ticks += proc_cpu_ticks(t.pid).saturating_sub(cpu0);
    t.latency_cpu.calls += n;
    Ok(())
}

pub async fn throughput_round(t: &mut Target, opts: &Args) -> Result<()> {
    let start = Instant::now() + Duration::from_millis(20);
    let measure_from = start + opts.tput_warmup;
    let until = measure_from + opts.duration;
    let sessions = std::mem::take(&mut t.tput_sessions);
    let mut tasks = Vec::new();
    for (mut s, args) in sessions {
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(start.into()).await;
            let mut counted = 0u64;
            let mut last = Instant::now();
            let mut res = Ok(());
            loop {
                let now = Instant::now();
                if now >= until {
                    break;
                }
                if let Err(e) = call_open_diff(&mut s, &args).await {
                    res = Err(e);
                    break;
                }
                last = Instant::now();
                if now >= measure_from {
                    counted += 1;
                }
            }
            (s, args, counted, last, res)
        }));
    }
    let mut cpu0 = None;
    // Sample the server's CPU at the start of the timed window.
    tokio::time::sleep_until(measure_from.into()).await;
    cpu0.get_or_insert(proc_cpu_ticks(t.pid));
    let mut total = 0u64;
    let mut end = until;
    let mut first_err = None;
    for task in tasks {
        let (s, args, counted, last, res) = task.await.context("throughput task panicked")?;
        t.tput_sessions.push((s, args));
        total += counted;
        end = end.max(last);
        if let Err(e) = res {
            first_err.get_or_insert(e);
        }
    }
    let cpu1 = proc_cpu_ticks(t.pid);
    if let Some(e) = first_err {
        return Err(e.context(format!("{}: throughput run", t.label)));
    }
    t.tput_rounds.push(TputRound {
        calls: total,
        elapsed: end - measure_from,
        server_ticks: cpu1.saturating_sub(cpu0.unwrap_or(cpu1)),
    });
    Ok(())
}
