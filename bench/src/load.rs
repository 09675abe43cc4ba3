//! `redline-bench load`: N concurrent CLIs, each opening a review and deciding it in a loop,
//! with every decision checked on the CLI's own notification stream: throughput, latency from
//! openDiff to the decision's arrival, and no lost or duplicated decision (a run with one fails).

use crate::mcp::{check_open_diff_result, Endpoint, Session, PROTOCOL};
use crate::target::{start_redline, Scratch};
use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

struct Opts {
    clients: usize,
    duration: Duration,
    redline_bin: PathBuf,
    timeout: Duration,
    out: Option<PathBuf>,
}

fn parse() -> Result<Opts> {
    let mut o = Opts {
        clients: 8,
        duration: Duration::from_secs(10),
        redline_bin: std::env::var_os("REDLINE_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("target/release/redline")),
        timeout: Duration::from_secs(10),
        out: None,
    };
    let mut args = std::env::args().skip(2);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| anyhow!("{a} needs a value"));
        match a.as_str() {
            "--clients" => o.clients = val()?.parse()?,
            "--duration" => o.duration = Duration::from_secs_f64(val()?.parse()?),
            "--redline-bin" => o.redline_bin = val()?.into(),
            "--timeout" => o.timeout = Duration::from_secs_f64(val()?.parse()?),
            "--out" => o.out = Some(val()?.into()),
            "--help" | "-h" => {
                println!(
                    "redline-bench load [--clients N] [--duration SECS] [--redline-bin PATH] [--timeout SECS] [--out FILE]"
                );
                std::process::exit(0);
            }
            other => bail!("unknown option {other}"),
        }
    }
    Ok(o)
}

pub fn main() {
    let code = match parse().and_then(|o| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(run(o))
    }) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("redline-bench load: {e:#}");
            1
        }
    };
    std::process::exit(code);
}

/// A session's GET /mcp stream: chunked SSE, decoded here.
struct Events {
    stream: TcpStream,
    raw: Vec<u8>,
    text: String,
}

impl Events {
    async fn open(ep: &Endpoint, session: &str) -> Result<Events> {
        let mut stream = TcpStream::connect(ep.addr).await?;
        stream.set_nodelay(true)?;
        let req = format!(
            "GET /mcp HTTP/1.1\r\nhost: 127.0.0.1:{}\r\nauthorization: Bearer {}\r\naccept: text/event-stream\r\nmcp-protocol-version: {PROTOCOL}\r\nmcp-session-id: {session}\r\n\r\n",
            ep.addr.port(),
            ep.token
        );
        stream.write_all(req.as_bytes()).await?;
        let mut ev = Events {
            stream,
            raw: Vec::new(),
            text: String::new(),
        };
        let end = loop {
            if let Some(i) = ev.raw.windows(4).position(|w| w == b"\r\n\r\n") {
                break i;
            }
            ev.fill().await?;
        };
        let head = String::from_utf8_lossy(&ev.raw[..end]).into_owned();
        if !head.starts_with("HTTP/1.1 200") || !head.to_ascii_lowercase().contains("chunked") {
            bail!("GET /mcp: {head}");
        }
        ev.raw.drain(..end + 4);
        Ok(ev)
    }

    async fn fill(&mut self) -> Result<()> {
        let mut buf = [0u8; 16 * 1024];
        let n = self.stream.read(&mut buf).await?;
        if n == 0 {
            bail!("the notification stream ended");
        }
        self.raw.extend_from_slice(&buf[..n]);
        Ok(())
    }

    /// Moves every complete chunk from `raw` to `text`.
    fn decode(&mut self) -> Result<()> {
        loop {
            let Some(eol) = self.raw.windows(2).position(|w| w == b"\r\n") else {
                return Ok(());
            };
            let size_line = std::str::from_utf8(&self.raw[..eol])?;
            let size = usize::from_str_radix(size_line.split(';').next().unwrap_or("").trim(), 16)
                .with_context(|| format!("bad chunk size {size_line:?}"))?;
            if size == 0 {
                bail!("the notification stream ended");
            }
            if self.raw.len() < eol + 2 + size + 2 {
                return Ok(());
            }
            let data = &self.raw[eol + 2..eol + 2 + size];
            self.text.push_str(std::str::from_utf8(data)?);
            self.raw.drain(..eol + 2 + size + 2);
        }
    }

    /// The next decision notification (context updates and keep-alives skipped).
    async fn next_decision(&mut self) -> Result<Value> {
        loop {
            self.decode()?;
            while let Some(i) = self.text.find("\n\n") {
                let block: String = self.text.drain(..i + 2).collect();
                let data: String = block
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                if data.is_empty() {
                    continue;
                }
                let m: Value = serde_json::from_str(&data)?;
                if m["method"] != "ide/contextUpdate" {
                    return Ok(m);
                }
            }
            self.fill().await?;
        }
    }
}

#[derive(Default)]
struct Tally {
    latencies_ns: Vec<u64>,
    accepted: u64,
    rejected: u64,
}

async fn decide_once(
    s: &mut Session,
    ev: &mut Events,
    file: &str,
    content: &str,
    accept: bool,
    timeout: Duration,
) -> Result<()> {
    let args = json!({"filePath": file, "newContent": content}).to_string();
    let (id, body) = s.next_call("openDiff", &args);
    check_open_diff_result(&s.request_raw(id, &body).await?)?;
    let tool = if accept { "acceptDiff" } else { "rejectDiff" };
    let (id, body) = s.next_call(tool, &json!({"filePath": file}).to_string());
    let r = s.request_raw(id, &body).await?;
    if r["isError"] == true {
        bail!("{tool} failed: {r}");
    }
    let m = tokio::time::timeout(timeout, ev.next_decision())
        .await
        .map_err(|_| anyhow!("LOST: no decision for {file} within {timeout:?}"))??;
    let ok = if accept {
        m["method"] == "ide/diffAccepted"
            && m["params"]["filePath"] == file
            && m["params"]["content"] == content
    } else {
        m["method"] == "ide/diffRejected" && m["params"]["filePath"] == file
    };
    if !ok {
        bail!("LOST OR DUPLICATED: expected the {tool} of {content:?} for {file}, got {m}");
    }
    Ok(())
}

async fn client(
    ep: Endpoint,
    ws: PathBuf,
    n: usize,
    until: Instant,
    timeout: Duration,
) -> Result<Tally> {
    let mut s = Session::new(&ep, timeout);
    s.initialize().await?;
    let sid = s.id().ok_or_else(|| anyhow!("no session id"))?.to_owned();
    let mut ev = Events::open(&ep, &sid).await?;
    let path = ws.join(format!("load-{n}.txt"));
    std::fs::write(&path, "the original\n")?;
    let file = path.to_string_lossy().into_owned();
    let mut t = Tally::default();
    let mut i = 0u64;
    while Instant::now() < until {
        // Accept and reject alternate, each content unique: a duplicated or stray decision
        // can never pass for the next one.
        let accept = i.is_multiple_of(2);
        let content = format!("client {n}, proposal {i}\n");
        let t0 = Instant::now();
        decide_once(&mut s, &mut ev, &file, &content, accept, timeout).await?;
        t.latencies_ns.push(t0.elapsed().as_nanos() as u64);
        if accept {
            t.accepted += 1;
        } else {
            t.rejected += 1;
        }
        i += 1;
    }
    // A sentinel: a duplicate of the last decision would arrive before it.
    let sentinel = ws.join(format!("sentinel-{n}.txt"));
    let sentinel = sentinel.to_string_lossy();
    decide_once(&mut s, &mut ev, &sentinel, "sentinel\n", true, timeout).await?;
    s.delete().await?;
    Ok(t)
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    let n = sorted.len();
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1] as f64 / 1e6
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

async fn run(o: Opts) -> Result<()> {
    let scratch = Scratch::new()?;
    let ws = scratch.root.join("ws");
    std::fs::create_dir_all(&ws)?;
    let load_before = loadavg();
    let mut target = start_redline(&o.redline_bin, &scratch.root, &ws, o.timeout)?;
    let ep = target.endpoint.clone();
    let start = Instant::now();
    let until = start + o.duration;
    let tasks: Vec<_> = (0..o.clients)
        .map(|n| tokio::spawn(client(ep.clone(), ws.clone(), n, until, o.timeout)))
        .collect();
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
    let elapsed = start.elapsed();
    let stopped = target.server.stop();
    if !failures.is_empty() {
        bail!("{}", failures.join("\n"));
    }
    all.latencies_ns.sort_unstable();
    let decisions = all.latencies_ns.len();
    if decisions == 0 {
        bail!("no decision completed");
    }
    let report = format!(
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
        p50 = pct(&all.latencies_ns, 50.0),
        p99 = pct(&all.latencies_ns, 99.0),
        max = pct(&all.latencies_ns, 100.0),
        bin = crate::shown(&o.redline_bin),
    );
    print!("{report}");
    if let Some(out) = &o.out {
        std::fs::write(out, &report).with_context(|| format!("write {}", out.display()))?;
    }
    Ok(())
}
