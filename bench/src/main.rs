//! Redline benchmark: openDiff round-trip latency and tools/call throughput over MCP
//! Streamable HTTP on loopback, side by side with a reference server built on the
//! official TypeScript SDK (bench/reference/server.mjs). See bench/README.md.
//!
//! This is a benchmark, not a test: it prints figures and a verdict and exits 0 unless
//! something failed outright (a server that would not start, an HTTP or JSON-RPC error).

mod floor;
mod http;
mod load;
mod mcp;
mod target;

use anyhow::{bail, Context, Result};
use mcp::{check_open_diff_result, Endpoint, Session};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const TARGET_P50_MS: f64 = 0.25;
const TARGET_RATIO: f64 = 3.0;

const USAGE: &str = "\
redline-bench: openDiff latency and tools/call throughput, Redline vs the TypeScript SDK

usage: redline-bench [options]
  --redline-bin PATH     redline binary (default target/release/redline)
  --reference PATH       reference server script (default bench/reference/server.mjs)
  --node PATH            node executable (default node)
  --redline-note TEXT    added to Redline's line in the report (e.g. its commit)
  --reference-json       reference answers POSTs with JSON (enableJsonResponse: true)
                         instead of the SDK's default SSE stream
  --only redline|reference   measure one target alone
  --latency-calls N      timed sequential openDiff calls per round (default 10000)
  --warmup-calls N       untimed calls before them (default 1000)
  --concurrency C        connections (one session each) for throughput (default 16)
  --duration SECS        timed throughput window per round (default 5)
  --throughput-warmup SECS   untimed load before it (default 1)
  --rounds R             rounds; targets alternate within each (default 3)
  --content-lines L      lines in the proposed file (default 40)
  --client-threads T     load generator worker threads; 1 = current-thread (default 1)
  --timeout SECS         per-request timeout (default 10)
  --latency-max-secs S   stop a round's timed latency calls after S seconds (default 60)
  --out FILE             also write the markdown report to FILE
  --keep-temp            keep the scratch directory (logs, workspace)
";

struct Opts {
    redline_bin: PathBuf,
    reference: PathBuf,
    node: String,
    reference_json: bool,
    redline_note: Option<String>,
    only: Option<String>,
    latency_calls: usize,
    warmup_calls: usize,
    concurrency: usize,
    duration: Duration,
    tput_warmup: Duration,
    rounds: usize,
    content_lines: usize,
    client_threads: usize,
    timeout: Duration,
    latency_max: Duration,
    out: Option<PathBuf>,
    keep_temp: bool,
}

fn parse_opts() -> Result<Opts> {
    let mut o = Opts {
        redline_bin: PathBuf::from("target/release/redline"),
        reference: PathBuf::from("bench/reference/server.mjs"),
        node: "node".into(),
        reference_json: false,
        redline_note: None,
        only: None,
        latency_calls: 10_000,
        warmup_calls: 1_000,
        concurrency: 16,
        duration: Duration::from_secs(5),
        tput_warmup: Duration::from_secs(1),
        rounds: 3,
        content_lines: 40,
        client_threads: 1,
        timeout: Duration::from_secs(10),
        latency_max: Duration::from_secs(60),
        out: None,
        keep_temp: false,
    };
    let mut args = std::env::args().skip(1);
    fn val(args: &mut impl Iterator<Item = String>, name: &str) -> Result<String> {
        args.next().with_context(|| format!("{name} needs a value"))
    }
    fn num<T: std::str::FromStr>(s: String, name: &str) -> Result<T> {
        s.parse()
            .ok()
            .with_context(|| format!("{name}: bad number {s:?}"))
    }
    fn secs(s: String, name: &str) -> Result<Duration> {
        let f: f64 = num(s, name)?;
        if !(f > 0.0 && f <= 3600.0) {
            bail!("{name}: out of range");
        }
        Ok(Duration::from_secs_f64(f))
    }
    while let Some(a) = args.next() {
        match a.as_str() {
            "--redline-bin" => o.redline_bin = val(&mut args, &a)?.into(),
            "--reference" => o.reference = val(&mut args, &a)?.into(),
            "--node" => o.node = val(&mut args, &a)?,
            "--only" => {
                let v = val(&mut args, &a)?;
                if v != "redline" && v != "reference" {
                    bail!("--only: redline or reference");
                }
                o.only = Some(v);
            }
            "--latency-calls" => o.latency_calls = num(val(&mut args, &a)?, &a)?,
            "--warmup-calls" => o.warmup_calls = num(val(&mut args, &a)?, &a)?,
            "--concurrency" => o.concurrency = num(val(&mut args, &a)?, &a)?,
            "--duration" => o.duration = secs(val(&mut args, &a)?, &a)?,
            "--throughput-warmup" => o.tput_warmup = secs(val(&mut args, &a)?, &a)?,
            "--rounds" => o.rounds = num(val(&mut args, &a)?, &a)?,
            "--content-lines" => o.content_lines = num(val(&mut args, &a)?, &a)?,
            "--client-threads" => o.client_threads = num(val(&mut args, &a)?, &a)?,
            "--timeout" => o.timeout = secs(val(&mut args, &a)?, &a)?,
            "--latency-max-secs" => o.latency_max = secs(val(&mut args, &a)?, &a)?,
            "--out" => o.out = Some(val(&mut args, &a)?.into()),
            "--keep-temp" => o.keep_temp = true,
            "--reference-json" => o.reference_json = true,
            "--redline-note" => o.redline_note = Some(val(&mut args, &a)?),
            "-h" | "--help" => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            _ => bail!("unknown argument {a:?}\n\n{USAGE}"),
        }
    }
    if o.latency_calls == 0 || o.concurrency == 0 || o.rounds == 0 || o.client_threads == 0 {
        bail!("counts must be at least 1");
    }
    if o.concurrency > 1024 {
        bail!("--concurrency: at most 1024");
    }
    Ok(o)
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("load") {
        load::main();
        return;
    }
    let opts = match parse_opts() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("redline-bench: {e:#}");
            std::process::exit(2);
        }
    };
    let rt = if opts.client_threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(opts.client_threads)
            .enable_all()
            .build()
    }
    .expect("tokio runtime");
    if let Err(e) = rt.block_on(run(opts)) {
        eprintln!("redline-bench: {e:#}");
        std::process::exit(1);
    }
}

/// One target's state across rounds.
struct Target {
    label: String,
    detail: String,
    endpoint: Endpoint,
    pid: u32,
    latency_session: Session,
    latency_args: String,
    tput_sessions: Vec<(Session, String)>,
    framing: String,
    latencies_ns: Vec<u64>,
    tput_rounds: Vec<TputRound>,
    latency_cpu: CpuSample,
    latency_cut_short: bool,
}

/// A path as a committed report prints it: relative to the repository, else to the working
/// directory, else its file name alone (never this machine's absolute path).
pub fn shown(p: &std::path::Path) -> String {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent();
    let relative = repo
        .and_then(|r| p.strip_prefix(r).ok().map(|r| r.to_path_buf()))
        .or_else(|| {
            let cwd = std::env::current_dir().ok()?;
            p.strip_prefix(cwd).ok().map(|r| r.to_path_buf())
        });
    match relative {
        Some(r) => r.display().to_string(),
        None if p.is_relative() => p.display().to_string(),
        None => p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reports_print_no_absolute_path_of_this_machine() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let repo = repo.canonicalize().unwrap();
        assert_eq!(
            super::shown(&repo.join("target/release/redline")),
            "target/release/redline"
        );
        assert_eq!(
            super::shown(std::path::Path::new("/opt/x/redline")),
            "redline"
        );
        assert_eq!(
            super::shown(std::path::Path::new("bench/reference")),
            "bench/reference"
        );
    }

    #[test]
    fn utc_and_compare() {
        assert_eq!(super::utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::utc(1_709_210_096), "2024-02-29 12:34 UTC");
        assert_eq!(super::compare(2.0, "faster", "slower"), "2.0× faster");
        assert_eq!(super::compare(0.5, "faster", "slower"), "2.0× slower");
        assert_eq!(super::compare(f64::INFINITY, "a", "b"), "n/a");
        assert_eq!(super::percentile(&[1, 2, 3, 4], 50.0), 2);
        assert_eq!(super::percentile(&[1, 2, 3, 4], 99.0), 4);
    }
}

#[derive(Clone, Copy, Default)]
struct CpuSample {
    /// Server CPU time (user+system) spent, in clock ticks.
    ticks: u64,
    calls: u64,
}

struct TputRound {
    calls: u64,
    elapsed: Duration,
    server_ticks: u64,
}

/// CPU time (user+system, clock ticks) of `pid` and all its live descendants.
fn proc_cpu_ticks(pid: u32) -> u64 {
    // /proc/PID/stat: "pid (comm) state ppid ...": utime and stime are fields 14 and 15.
    fn stat(pid: u32) -> Option<(u32, u64)> {
        let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let rest = s.rsplit_once(')')?.1;
        let f: Vec<&str> = rest.split_whitespace().collect();
        // rest starts at field 3 (state), so field N is f[N-3].
        let ppid = f.get(1)?.parse().ok()?;
        let ut: u64 = f.get(11)?.parse().ok()?;
        let st: u64 = f.get(12)?.parse().ok()?;
        Some((ppid, ut + st))
    }
    let mut procs = Vec::new();
    if let Ok(rd) = std::fs::read_dir("/proc") {
        for e in rd.flatten() {
            if let Some(p) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) {
                if let Some((ppid, t)) = stat(p) {
                    procs.push((p, ppid, t));
                }
            }
        }
    }
    let mut tree = vec![pid];
    let mut total = 0;
    let mut i = 0;
    while i < tree.len() {
        let cur = tree[i];
        for &(p, ppid, t) in &procs {
            if p == cur {
                total += t;
            }
            if ppid == cur && !tree.contains(&p) {
                tree.push(p);
            }
        }
        i += 1;
    }
    total
}

fn ticks_per_sec() -> f64 {
    // Linux's USER_HZ is 100 on every mainstream architecture.
    100.0
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn file_content(lines: usize, changed: bool) -> String {
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

fn open_diff_args(path: &Path, new_content: &str) -> String {
    serde_json::json!({"filePath": path.to_string_lossy(), "newContent": new_content}).to_string()
}

async fn call_open_diff(s: &mut Session, args: &str) -> Result<()> {
    let (id, body) = s.next_call("openDiff", args);
    let r = s.request_raw(id, &body).await?;
    check_open_diff_result(&r)
}

async fn prepare(
    label: &str,
    detail: String,
    endpoint: Endpoint,
    pid: u32,
    ws: &Path,
    opts: &Opts,
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

async fn latency_round(t: &mut Target, opts: &Opts) -> Result<()> {
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

async fn throughput_round(t: &mut Target, opts: &Opts) -> Result<()> {
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

struct Summary {
    p50_ms: f64,
    p99_ms: f64,
    mean_ms: f64,
    max_ms: f64,
    samples: usize,
    tput: f64,
    tput_all: Vec<f64>,
    cpu_us_per_call_lat: f64,
    cpu_us_per_call_tput: f64,
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    // nearest-rank
    let n = sorted.len();
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

fn summarize(t: &Target) -> Summary {
    let mut v = t.latencies_ns.clone();
    v.sort_unstable();
    let ms = |ns: u64| ns as f64 / 1e6;
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64 / 1e6;
    let mut tput_all: Vec<f64> = t
        .tput_rounds
        .iter()
        .map(|r| r.calls as f64 / r.elapsed.as_secs_f64())
        .collect();
    let tput_sorted = {
        let mut s = tput_all.clone();
        s.sort_by(|a, b| a.partial_cmp(b).unwrap());
        s
    };
    let tput = tput_sorted[tput_sorted.len() / 2];
    let tput_calls: u64 = t.tput_rounds.iter().map(|r| r.calls).sum();
    let tput_ticks: u64 = t.tput_rounds.iter().map(|r| r.server_ticks).sum();
    let us = |ticks: u64, calls: u64| {
        if calls == 0 {
            f64::NAN
        } else {
            ticks as f64 / ticks_per_sec() * 1e6 / calls as f64
        }
    };
    tput_all.iter_mut().for_each(|x| *x = x.round());
    Summary {
        p50_ms: ms(percentile(&v, 50.0)),
        p99_ms: ms(percentile(&v, 99.0)),
        mean_ms: mean,
        max_ms: ms(*v.last().unwrap()),
        samples: v.len(),
        tput,
        tput_all,
        cpu_us_per_call_lat: us(t.latency_cpu.ticks, t.latency_cpu.calls),
        cpu_us_per_call_tput: us(tput_ticks, tput_calls),
    }
}

/// "2.0× faster" for x = 2, "2.0× slower" for x = 0.5.
fn compare(x: f64, better: &str, worse: &str) -> String {
    if !x.is_finite() || x <= 0.0 {
        "n/a".into()
    } else if x >= 1.0 {
        format!("{x:.1}× {better}")
    } else {
        format!("{:.1}× {worse}", 1.0 / x)
    }
}

/// Unix seconds as "YYYY-MM-DD HH:MM UTC".
fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

fn thousands(x: f64) -> String {
    let n = x.round() as u64;
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn report(targets: &[Target], opts: &Opts, context_lines: &[String]) -> String {
    let sums: Vec<Summary> = targets.iter().map(summarize).collect();
    let mut r = String::new();
    let _ = writeln!(r, "## openDiff over MCP Streamable HTTP, loopback\n");
    for l in context_lines {
        let _ = writeln!(r, "- {l}");
    }
    let _ = writeln!(
        r,
        "- latency: {} sequential `tools/call openDiff` on one keep-alive connection per round after {} warm-up calls, {} round(s) pooled; time from writing the request to the end of the HTTP response",
        opts.latency_calls, opts.warmup_calls, opts.rounds
    );
    let _ = writeln!(
        r,
        "- throughput: {} connections, one session each, back-to-back `tools/call openDiff` for {:.1} s after {:.1} s warm-up; median of {} round(s)",
        opts.concurrency,
        opts.duration.as_secs_f64(),
        opts.tput_warmup.as_secs_f64(),
        opts.rounds
    );
    let _ = writeln!(r);
    let mut head = "| |".to_string();
    let mut sep = "|---|".to_string();
    for t in targets {
        let _ = write!(head, " {} |", t.label);
        sep.push_str("---:|");
    }
    let pair = targets.len() == 2;
    if pair {
        head.push_str(" ratio |");
        sep.push_str("---:|");
    }
    let _ = writeln!(r, "{head}\n{sep}");
    let row = |r: &mut String,
               name: &str,
               f: &dyn Fn(&Summary) -> f64,
               fmt: &dyn Fn(f64) -> String,
               ratio: Option<&dyn Fn(f64, f64) -> String>| {
        let _ = write!(r, "| {name} |");
        for s in &sums {
            let _ = write!(r, " {} |", fmt(f(s)));
        }
        if pair {
            match ratio {
                Some(rf) => {
                    let _ = write!(r, " {} |", rf(f(&sums[0]), f(&sums[1])));
                }
                None => r.push_str(" |"),
            }
        }
        r.push('\n');
    };
    let ms = |x: f64| format!("{x:.3} ms");
    let faster = |a: f64, b: f64| compare(b / a, "faster", "slower");
    let more = |a: f64, b: f64| {
        let x = a / b;
        if x.is_finite() {
            format!("{x:.1}×")
        } else {
            "n/a".into()
        }
    };
    let less_cpu = |a: f64, b: f64| compare(b / a, "less", "more");
    let _ = write!(r, "| response framing |");
    for t in targets {
        let _ = write!(r, " {} |", t.framing);
    }
    r.push_str(if pair { " |\n" } else { "\n" });
    row(&mut r, "openDiff p50", &|s| s.p50_ms, &ms, Some(&faster));
    row(&mut r, "openDiff p99", &|s| s.p99_ms, &ms, Some(&faster));
    row(&mut r, "openDiff mean", &|s| s.mean_ms, &ms, Some(&faster));
    row(&mut r, "openDiff max", &|s| s.max_ms, &ms, None);
    row(
        &mut r,
        "latency samples",
        &|s| s.samples as f64,
        &|x| thousands(x),
        None,
    );
    row(
        &mut r,
        &format!("tools/call throughput (C={})", opts.concurrency),
        &|s| s.tput,
        &|x| format!("{} calls/s", thousands(x)),
        Some(&more),
    );
    row(
        &mut r,
        "server CPU per call, latency run",
        &|s| s.cpu_us_per_call_lat,
        &|x| format!("{x:.0} µs"),
        Some(&less_cpu),
    );
    row(
        &mut r,
        "server CPU per call, throughput run",
        &|s| s.cpu_us_per_call_tput,
        &|x| format!("{x:.0} µs"),
        Some(&less_cpu),
    );
    let _ = write!(r, "\nthroughput per round:");
    for (t, s) in targets.iter().zip(&sums) {
        let all: Vec<String> = s.tput_all.iter().map(|x| thousands(*x)).collect();
        let _ = write!(r, " {} [{}];", t.label, all.join(", "));
    }
    r.pop();
    r.push('\n');
    let _ = writeln!(r);
    for (t, s) in targets.iter().zip(&sums) {
        let _ = writeln!(r, "- {}: {}", t.label, t.detail);
        if t.latency_cut_short {
            let _ = writeln!(
                r,
                "- {}: latency rounds cut short by --latency-max-secs ({} s): {} samples",
                t.label,
                opts.latency_max.as_secs_f64(),
                s.samples
            );
        }
    }
    let _ = writeln!(r);
    let red = targets.iter().position(|t| t.label == "Redline");
    let refi = targets.iter().position(|t| t.label != "Redline");
    if let (Some(a), Some(b)) = (red, refi) {
        let p50 = sums[a].p50_ms;
        let ratio = sums[a].tput / sums[b].tput;
        let ok1 = p50 < TARGET_P50_MS;
        let ok2 = ratio >= TARGET_RATIO;
        let _ = writeln!(
            r,
            "**Verdict: {}** — p50 {:.3} ms {} {TARGET_P50_MS} ms ({}); throughput {:.1}× the reference {} {TARGET_RATIO}× ({}).",
            if ok1 && ok2 { "targets met" } else { "targets NOT met" },
            p50,
            if ok1 { "<" } else { "≥" },
            if ok1 { "pass" } else { "FAIL" },
            ratio,
            if ok2 { "≥" } else { "<" },
            if ok2 { "pass" } else { "FAIL" },
        );
    }
    if let Some(a) = red {
        let p50 = sums[a].p50_ms;
        if (35.0..=50.0).contains(&p50) {
            let _ = writeln!(
                r,
                "\nHint: a p50 near 40 ms is the signature of Nagle's algorithm meeting the client's delayed ACK: the server sends the response head and its body in separate writes without TCP_NODELAY on the accepted socket (axum 0.8: `listener.tap_io(|s| s.set_nodelay(true))`)."
            );
        }
    }
    match (red, refi) {
        (Some(_), Some(_)) => {}
        (Some(a), None) => {
            let p50 = sums[a].p50_ms;
            let _ = writeln!(
                r,
                "**Verdict: partial** — p50 {:.3} ms ({} the {TARGET_P50_MS} ms target); no reference measured, so no throughput ratio.",
                p50,
                if p50 < TARGET_P50_MS { "within" } else { "OVER" }
            );
        }
        _ => {
            let _ = writeln!(r, "**Verdict: none** — Redline was not measured.");
        }
    }
    r
}

async fn run(opts: Opts) -> Result<()> {
    let mut scratch = target::Scratch::new()?;
    scratch.keep = opts.keep_temp;
    let ws = scratch.root.join("ws");
    std::fs::create_dir_all(ws.join("src"))?;
    let ws = ws.canonicalize()?;
    let original = file_content(opts.content_lines, false);
    let proposed = file_content(opts.content_lines, true);
    std::fs::write(ws.join("src").join("latency.txt"), &original)?;
    for i in 0..opts.concurrency {
        std::fs::write(ws.join("src").join(format!("tput-{i}.txt")), &original)?;
    }
    let want_red = opts.only.as_deref() != Some("reference");
    let want_ref = opts.only.as_deref() != Some("redline");
    let ready_timeout = Duration::from_secs(30);

    // Servers are stopped by Drop on every path out of here, errors included.
    let mut red_server = None;
    let mut ref_server = None;
    let mut targets = Vec::new();
    let mut notes = Vec::new();
    if want_red {
        let rt = target::start_redline(&opts.redline_bin, &scratch.root, &ws, ready_timeout)?;
        let bin = opts
            .redline_bin
            .canonicalize()
            .unwrap_or(opts.redline_bin.clone());
        let mtime = std::fs::metadata(&bin)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let detail = format!(
            "`{}` (built {}{}), port {} read from its discovery file",
            shown(&bin),
            utc(mtime),
            opts.redline_note
                .as_deref()
                .map(|n| format!(", {n}"))
                .unwrap_or_default(),
            rt.endpoint.addr.port()
        );
        let pid = rt.server.pid();
        let ep = rt.endpoint.clone();
        let discovery = rt.discovery.clone();
        red_server = Some(rt.server);
        let mut t = prepare("Redline", detail, ep, pid, &ws, &opts, &proposed).await?;
        if let Some(name) = t
            .latency_session
            .server_info
            .get("name")
            .and_then(|v| v.as_str())
        {
            let version = t
                .latency_session
                .server_info
                .get("version")
                .and_then(|v| v.as_str())
                .unwrap_or("?");
            t.detail.push_str(&format!("; serverInfo {name} {version}"));
        }
        targets.push(t);
        notes.push(("redline", discovery));
    }
    if want_ref {
        let (server, ep) = target::start_reference(
            &opts.node,
            &opts.reference,
            opts.reference_json,
            &scratch.root,
            ready_timeout,
        )?;
        let detail = format!(
            "`{}` on Node {}: @modelcontextprotocol/sdk 1.32.2 StreamableHTTPServerTransport, stateful, {}",
            shown(&opts.reference),
            target::node_version(&opts.node),
            if opts.reference_json {
                "enableJsonResponse: true (JSON, not the SDK default)"
            } else {
                "SDK default response mode (SSE stream per POST)"
            }
        );
        let pid = server.pid();
        ref_server = Some(server);
        targets.push(prepare("TS SDK reference", detail, ep, pid, &ws, &opts, &proposed).await?);
    }
    let context_lines = vec![
        format!(
            "machine: {} CPU(s), load average at start {}; load generator: Rust, tokio {}, {} worker thread(s), own HTTP/1.1 client",
            std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
            loadavg(),
            if opts.client_threads == 1 { "current-thread" } else { "multi-thread" },
            opts.client_threads
        ),
        format!(
            "each call: `openDiff {{filePath, newContent}}` on a {}-line file in a temp workspace ({} bytes of newContent), protocol {}",
            opts.content_lines,
            proposed.len(),
            mcp::PROTOCOL
        ),
    ];

    for round in 0..opts.rounds {
        // Alternate which target goes first, so drift in the machine's load hits both alike.
        let order: Vec<usize> = if round % 2 == 0 {
            (0..targets.len()).collect()
        } else {
            (0..targets.len()).rev().collect()
        };
        for &i in &order {
            eprintln!(
                "round {}/{}: {} latency…",
                round + 1,
                opts.rounds,
                targets[i].label
            );
            latency_round(&mut targets[i], &opts).await?;
        }
        for &i in &order {
            eprintln!(
                "round {}/{}: {} throughput…",
                round + 1,
                opts.rounds,
                targets[i].label
            );
            throughput_round(&mut targets[i], &opts).await?;
        }
    }

    // The loopback floor, for scale (same client, same request body, canned answer).
    let floor_line = {
        let addr = floor::start()?;
        let (_, body) = Session::new(&targets[0].endpoint, opts.timeout)
            .next_call("openDiff", &targets[0].latency_args);
        let mut v =
            floor::latency(addr, &body, opts.warmup_calls, opts.latency_calls.min(5000)).await?;
        v.sort_unstable();
        format!(
            "loopback floor: this client against an in-process server on another thread that answers every POST at once with canned JSON: p50 {:.3} ms, p99 {:.3} ms ({} calls)",
            percentile(&v, 50.0) as f64 / 1e6,
            percentile(&v, 99.0) as f64 / 1e6,
            v.len()
        )
    };
    let mut context_lines = context_lines;
    context_lines.push(floor_line);

    let mut closing = Vec::new();
    for t in &mut targets {
        let mut statuses = std::collections::BTreeMap::new();
        let reconnects = t.latency_session.reconnects()
            + t.tput_sessions
                .iter()
                .map(|(s, _)| s.reconnects())
                .sum::<u64>();
        *statuses
            .entry(
                t.latency_session
                    .delete()
                    .await
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| format!("{e:#}")),
            )
            .or_insert(0) += 1;
        for (s, _) in &mut t.tput_sessions {
            *statuses
                .entry(
                    s.delete()
                        .await
                        .map(|s| s.to_string())
                        .unwrap_or_else(|e| format!("{e:#}")),
                )
                .or_insert(0) += 1;
        }
        closing.push(format!(
            "{}: DELETE /mcp answered {:?}; keep-alive connections reopened {} time(s)",
            t.label, statuses, reconnects
        ));
        let _ = &t.endpoint;
    }
    if let Some(mut s) = red_server.take() {
        closing.push(format!("Redline {}", s.stop()));
        for (_, d) in &notes {
            if d.exists() {
                closing.push(format!(
                    "NOTE: Redline's discovery file {} still exists after it stopped",
                    d.display()
                ));
            }
        }
    }
    if let Some(mut s) = ref_server.take() {
        closing.push(format!("reference {}", s.stop()));
    }

    let mut out = report(&targets, &opts, &context_lines);
    out.push('\n');
    for c in &closing {
        let _ = writeln!(out, "- {c}");
    }
    print!("{out}");
    if let Some(path) = &opts.out {
        std::fs::write(path, &out).with_context(|| format!("write {}", path.display()))?;
        eprintln!("report written to {}", path.display());
    }
    if opts.keep_temp {
        eprintln!("scratch kept at {}", scratch.root.display());
    }
    Ok(())
}
