//! `redline-bench remote`: how much later a review made on another machine reaches the desktop's
//! window than the same review made on the desktop itself (issue 40: at most 20 ms more, p50), in
//! one run. Two headless Redlines; the far one is reached through `redline bridge` behind a
//! command (`env` with its dirs by default, as a same-host stand-in; `--via 'ssh -T HOST'` for a
//! real link). Each review is `redline propose FILE --content-file F` on one side, timed from its
//! start to the `added` line on a window channel held open on the desktop; then rejected there.

use crate::report_text::percentile;
use crate::target::{self, redline_cmd, RedlineTarget};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Timed reviews of each kind (after 3 of each as a warm-up)
    #[arg(long, default_value = "30", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    runs: u32,
    /// The most the far review's median may take over the local one's, in ms
    #[arg(long, default_value = "20")]
    budget_ms: f64,
    /// The redline binary (default: $REDLINE_BIN, else target/release/redline)
    #[arg(long)]
    redline_bin: Option<PathBuf>,
    /// A command put before the far side's `env … redline bridge` (e.g. `ssh -T -p 2222
    /// 127.0.0.1`, run as one shell word list; default: none, the bridge runs here)
    #[arg(long)]
    via: Option<String>,
}

/// The window channel held open on the desktop: where a review shows up.
struct Window {
    lines: BufReader<UnixStream>,
    next_id: u64,
}

pub fn run(a: Args) -> Result<()> {
    let scratch = tempfile::tempdir()?;
    let bin = target::redline_bin(a.redline_bin.as_deref());
    let (desk_ws, far_ws) = (
        scratch.path().join("desk-ws"),
        scratch.path().join("far-ws"),
    );
    for ws in [&desk_ws, &far_ws] {
        std::fs::create_dir_all(ws)?;
        std::fs::write(ws.join("a.rs"), "fn a() {}\n".repeat(40))?;
    }
    std::fs::write(scratch.path().join("proposal.rs"), "fn b() {}\n".repeat(40))?;
    let ready = Duration::from_secs(60);
    let desk = target::start_redline(&bin, &scratch.path().join("desk"), &desk_ws, ready)?;
    let far = target::start_redline(&bin, &scratch.path().join("far"), &far_ws, ready)?;
    attach(&desk, &far, a.via.as_deref())?;
    let mut window = Window::open(&desk.dirs.runtime)?;
    let proposal = scratch.path().join("proposal.rs");
    let (mut local, mut remote) = (Vec::new(), Vec::new());
    for i in 0..3 + a.runs as usize {
        // Alternately first, so a load that comes and goes weighs on both alike.
        let order = if i % 2 == 0 {
            [false, true]
        } else {
            [true, false]
        };
        for far_side in order {
            let (asker, ws) = if far_side {
                (&far, &far_ws)
            } else {
                (&desk, &desk_ws)
            };
            let took = window.one(asker, &ws.join("a.rs"), &proposal)?;
            if i >= 3 {
                if far_side { &mut remote } else { &mut local }.push(took);
            }
        }
    }
    report(&a, &mut local, &mut remote);
    Ok(())
}

/// `redline remote add far -- [VIA] env … redline bridge` on the desktop, once connected.
fn attach(desk: &RedlineTarget, far: &RedlineTarget, via: Option<&str>) -> Result<()> {
    let dirs = &far.dirs;
    let mut command: Vec<String> = via
        .map(|v| v.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    command.extend(["env".into(), "-i".into(), "PATH=/usr/bin:/bin".into()]);
    for (k, p) in [
        ("HOME", &dirs.home),
        ("TMPDIR", &dirs.tmp),
        ("XDG_CONFIG_HOME", &dirs.config),
        ("XDG_RUNTIME_DIR", &dirs.runtime),
    ] {
        command.push(format!("{k}={}", p.display()));
    }
    command.extend([far.bin.display().to_string(), "bridge".into()]);
    let out = redline_cmd(&desk.bin, &desk.dirs)
        .args(["remote", "add", "far", "--"])
        .args(&command)
        .output()?;
    if !out.status.success() {
        bail!("remote add: {}", String::from_utf8_lossy(&out.stderr));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let out = redline_cmd(&desk.bin, &desk.dirs)
            .args(["remote", "list", "--json"])
            .output()?;
        let list: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        if list[0]["state"] == "connected" {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("the far Redline never connected: {list}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Window {
    /// A window channel on the desktop, its events flowing (a call answered says so).
    fn open(runtime: &Path) -> Result<Window> {
        let sock = UnixStream::connect(runtime.join("redline/control.sock"))
            .context("the desktop's control socket")?;
        sock.set_read_timeout(Some(Duration::from_secs(30)))?;
        let mut w = Window {
            lines: BufReader::new(sock),
            next_id: 0,
        };
        w.send(&json!({"cmd": "window"}))?;
        w.call(json!({"cmd": "reviewsList"}))?;
        Ok(w)
    }

    fn send(&mut self, v: &Value) -> Result<()> {
        let mut line = serde_json::to_vec(v)?;
        line.push(b'\n');
        Ok(self.lines.get_mut().write_all(&line)?)
    }

    /// The next line whose `kind` is `kind` (others are dropped).
    fn until(&mut self, kind: &str) -> Result<Value> {
        loop {
            let mut l = String::new();
            if self.lines.read_line(&mut l)? == 0 {
                bail!("the desktop closed the window channel");
            }
            let v: Value = serde_json::from_str(&l)?;
            if v["kind"] == kind {
                return Ok(v);
            }
        }
    }

    fn call(&mut self, call: Value) -> Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"kind": "call", "id": id, "call": call}))?;
        loop {
            let reply = self.until("reply")?;
            if reply["id"] == id {
                return Ok(reply["answer"].clone());
            }
        }
    }

    /// One review proposed on `asker`'s side, timed (µs) until it is `added` here; rejected.
    fn one(&mut self, asker: &RedlineTarget, file: &Path, proposal: &Path) -> Result<u64> {
        let start = Instant::now();
        let out = redline_cmd(&asker.bin, &asker.dirs)
            .arg("propose")
            .arg(file)
            .arg("--content-file")
            .arg(proposal)
            .output()?;
        if !out.status.success() {
            bail!("propose: {}", String::from_utf8_lossy(&out.stderr));
        }
        let added = self.until("added")?;
        let took = start.elapsed().as_micros() as u64;
        let id = added["review"]["id"].clone();
        let answer = self.call(json!({"cmd": "reviewReject", "id": id}))?;
        if answer.get("error").is_some() {
            bail!("reject: {answer}");
        }
        Ok(took)
    }
}

fn report(a: &Args, local: &mut [u64], remote: &mut [u64]) {
    local.sort_unstable();
    remote.sort_unstable();
    let ms = |us: u64| us as f64 / 1000.0;
    let (l50, r50) = (percentile(local, 50.0), percentile(remote, 50.0));
    let (l90, r90) = (percentile(local, 90.0), percentile(remote, 90.0));
    let via = a.via.as_deref().unwrap_or("env (same host)");
    println!("review pop-up, {} of each, far side via {via}:", a.runs);
    println!(
        "  local   p50 {:>8.2} ms   p90 {:>8.2} ms",
        ms(l50),
        ms(l90)
    );
    println!(
        "  remote  p50 {:>8.2} ms   p90 {:>8.2} ms",
        ms(r50),
        ms(r90)
    );
    let over = ms(r50.saturating_sub(l50));
    let verdict = if over <= a.budget_ms {
        "MET"
    } else {
        "NOT MET"
    };
    println!(
        "verdict: {verdict}: the far review pops up {over:.2} ms after the local one at p50 \
         (budget {} ms)",
        a.budget_ms
    );
}
