//! `redline-bench compare` (the default): openDiff latency and tools/call throughput over MCP
//! Streamable HTTP, Redline and the TypeScript SDK reference in alternating rounds.

mod report;
mod rounds;

use crate::flag_value::{connections, count, seconds};
use crate::machine::loadavg;
use crate::mcp::{self, Session};
use crate::report_text::{percentile, shown, utc};
use crate::{floor, target};
use anyhow::{Context, Result};
use rounds::{file_content, latency_round, prepare, throughput_round, Target};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Which target to measure alone.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    Redline,
    Reference,
}

#[derive(clap::Args)]
pub struct Args {
    /// Redline binary
    #[arg(long, value_name = "PATH", default_value = "target/release/redline")]
    pub redline_bin: PathBuf,
    /// Reference server script
    #[arg(
        long,
        value_name = "PATH",
        default_value = "bench/reference/server.mjs"
    )]
    pub reference: PathBuf,
    /// Node executable
    #[arg(long, value_name = "PATH", default_value = "node")]
    pub node: String,
    /// Added to Redline's line in the report (e.g. its commit)
    #[arg(long, value_name = "TEXT")]
    pub redline_note: Option<String>,
    /// The reference answers POSTs with JSON (enableJsonResponse: true) instead of the SDK's
    /// default SSE stream
    #[arg(long)]
    pub reference_json: bool,
    /// Measure one target alone
    #[arg(long, value_enum)]
    pub only: Option<Only>,
    /// Timed sequential openDiff calls per round
    #[arg(long, value_name = "N", default_value = "10000", value_parser = count)]
    pub latency_calls: usize,
    /// Untimed calls before them
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub warmup_calls: usize,
    /// Connections (one session each) for throughput, at most 1024
    #[arg(long, value_name = "C", default_value = "16", value_parser = connections)]
    pub concurrency: usize,
    /// Timed throughput window per round, in seconds
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = seconds)]
    pub duration: Duration,
    /// Untimed load before it, in seconds
    #[arg(
        long = "throughput-warmup",
        value_name = "SECS",
        default_value = "1",
        value_parser = seconds
    )]
    pub tput_warmup: Duration,
    /// Rounds; targets alternate within each
    #[arg(long, value_name = "R", default_value = "3", value_parser = count)]
    pub rounds: usize,
    /// Lines in the proposed file
    #[arg(long, value_name = "L", default_value_t = 40)]
    pub content_lines: usize,
    /// Load generator worker threads; 1 = current-thread
    #[arg(long, value_name = "T", default_value = "1", value_parser = count)]
    pub client_threads: usize,
    /// Per-request timeout, in seconds
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub timeout: Duration,
    /// Stop a round's timed latency calls after S seconds
    #[arg(
        long = "latency-max-secs",
        value_name = "S",
        default_value = "60",
        value_parser = seconds
    )]
    pub latency_max: Duration,
    /// Also write the markdown report to FILE
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Keep the scratch directory (logs, workspace)
    #[arg(long)]
    pub keep_temp: bool,
}

/// Runs the comparison and prints its report.
pub async fn run(opts: Args) -> Result<()> {
    let mut scratch = target::Scratch::new()?;
    scratch.keep = opts.keep_temp;
    let (ws, proposed) = workspace(&scratch.root, &opts)?;
    let ready_timeout = Duration::from_secs(30);

    // Servers are stopped by Drop on every path out of here, errors included.
    let mut red_server = None;
    let mut ref_server = None;
    let mut targets = Vec::new();
    let mut discovery = None;
    if opts.only != Some(Only::Reference) {
        let (t, server, file) =
            redline(&opts, &scratch.root, &ws, &proposed, ready_timeout).await?;
        red_server = Some(server);
        targets.push(t);
        discovery = Some(file);
    }
    if opts.only != Some(Only::Redline) {
        let (t, server) = reference(&opts, &scratch.root, &ws, &proposed, ready_timeout).await?;
        ref_server = Some(server);
        targets.push(t);
    }
    let mut context_lines = context_lines(&opts, proposed.len());
    rounds(&mut targets, &opts).await?;
    context_lines.push(floor_line(&targets, &opts).await?);

    let mut closing = close_sessions(&mut targets).await;
    if let Some(mut s) = red_server.take() {
        closing.push(format!("Redline {}", s.stop()));
        if let Some(d) = discovery.filter(|d| d.exists()) {
            closing.push(format!(
                "NOTE: Redline's discovery file {} still exists after it stopped",
                d.display()
            ));
        }
    }
    if let Some(mut s) = ref_server.take() {
        closing.push(format!("reference {}", s.stop()));
    }
    publish(&targets, &opts, &context_lines, &closing)?;
    if opts.keep_temp {
        eprintln!("scratch kept at {}", scratch.root.display());
    }
    Ok(())
}

/// The temp workspace, its files at their original text; returns it and the proposed text.
fn workspace(root: &Path, opts: &Args) -> Result<(PathBuf, String)> {
    let ws = root.join("ws");
    std::fs::create_dir_all(ws.join("src"))?;
    let ws = ws.canonicalize()?;
    let original = file_content(opts.content_lines, false);
    let proposed = file_content(opts.content_lines, true);
    std::fs::write(ws.join("src").join("latency.txt"), &original)?;
    for i in 0..opts.concurrency {
        std::fs::write(ws.join("src").join(format!("tput-{i}.txt")), &original)?;
    }
    Ok((ws, proposed))
}

/// Redline started on `ws` and its sessions opened; with its server and its discovery file.
async fn redline(
    opts: &Args,
    root: &Path,
    ws: &Path,
    proposed: &str,
    ready_timeout: Duration,
) -> Result<(Target, target::Server, PathBuf)> {
    let rt = target::start_redline(&opts.redline_bin, root, ws, ready_timeout)?;
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
    let server = rt.server;
    let mut t = prepare("Redline", detail, ep, pid, ws, opts, proposed).await?;
    let info = &t.latency_session.server_info;
    if let Some(name) = info.get("name").and_then(|v| v.as_str()) {
        let version = info.get("version").and_then(|v| v.as_str()).unwrap_or("?");
        let named = format!("; serverInfo {name} {version}");
        t.detail.push_str(&named);
    }
    Ok((t, server, rt.discovery))
}

/// The TypeScript SDK's reference server started and its sessions opened; with its server.
async fn reference(
    opts: &Args,
    root: &Path,
    ws: &Path,
    proposed: &str,
    ready_timeout: Duration,
) -> Result<(Target, target::Server)> {
    let (server, ep) = target::start_reference(
        &opts.node,
        &opts.reference,
        opts.reference_json,
        root,
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
    let t = prepare("TS SDK reference", detail, ep, pid, ws, opts, proposed).await?;
    Ok((t, server))
}

/// The machine and the call measured, as the report's first lines say them (read at the start).
fn context_lines(opts: &Args, proposed_len: usize) -> Vec<String> {
    vec![
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
            proposed_len,
            mcp::PROTOCOL
        ),
    ]
}

/// The measured rounds: latency, then throughput, of each target.
async fn rounds(targets: &mut [Target], opts: &Args) -> Result<()> {
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
            latency_round(&mut targets[i], opts).await?;
        }
        for &i in &order {
            eprintln!(
                "round {}/{}: {} throughput…",
                round + 1,
                opts.rounds,
                targets[i].label
            );
            throughput_round(&mut targets[i], opts).await?;
        }
    }
    Ok(())
}

/// The loopback floor, for scale (same client, same request body, canned answer).
async fn floor_line(targets: &[Target], opts: &Args) -> Result<String> {
    let addr = floor::start()?;
    let (_, body) = Session::new(&targets[0].endpoint, opts.timeout)
        .next_call("openDiff", &targets[0].latency_args);
    let mut v =
        floor::latency(addr, &body, opts.warmup_calls, opts.latency_calls.min(5000)).await?;
    v.sort_unstable();
    Ok(format!(
        "loopback floor: this client against an in-process server on another thread that answers every POST at once with canned JSON: p50 {:.3} ms, p99 {:.3} ms ({} calls)",
        percentile(&v, 50.0) as f64 / 1e6,
        percentile(&v, 99.0) as f64 / 1e6,
        v.len()
    ))
}

/// Each target's sessions deleted: how DELETE was answered, and how often connections reopened.
async fn close_sessions(targets: &mut [Target]) -> Vec<String> {
    let mut closing = Vec::new();
    for t in targets {
        let mut statuses = std::collections::BTreeMap::new();
        let reconnects = t.latency_session.reconnects()
            + t.tput_sessions
                .iter()
                .map(|(s, _)| s.reconnects())
                .sum::<u64>();
        *statuses
            .entry(deleted(&mut t.latency_session).await)
            .or_insert(0) += 1;
        for (s, _) in &mut t.tput_sessions {
            *statuses.entry(deleted(s).await).or_insert(0) += 1;
        }
        closing.push(format!(
            "{}: DELETE /mcp answered {:?}; keep-alive connections reopened {} time(s)",
            t.label, statuses, reconnects
        ));
    }
    closing
}

/// How the server answered the session's DELETE, or why it did not.
async fn deleted(s: &mut Session) -> String {
    s.delete()
        .await
        .map(|s| s.to_string())
        .unwrap_or_else(|e| format!("{e:#}"))
}

/// The report, with the closing notes, on stdout and in `--out`'s file.
fn publish(targets: &[Target], opts: &Args, context: &[String], closing: &[String]) -> Result<()> {
    let mut out = report::report(targets, opts, context);
    out.push('\n');
    for c in closing {
        let _ = writeln!(out, "- {c}");
    }
    print!("{out}");
    if let Some(path) = &opts.out {
        std::fs::write(path, &out).with_context(|| format!("write {}", path.display()))?;
        eprintln!("report written to {}", path.display());
    }
    Ok(())
}
