//! The turn-start hook's round trip as Claude Code pays it: `redline hook claude --turn-start`
//! started, fed a `UserPromptSubmit` input on standard input, and waited for, against a running
//! headless Redline serving the workspace (which checkpoints it before answering).

use crate::report_text::percentile;
use crate::target::{self, redline_cmd, RedlineTarget};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The hook's round trips in µs, sorted, in the two ways a turn starts: `fresh`, a session's
/// first prompt (a turn begins); `next`, the same session's next prompt with no end-of-turn
/// hook between (the hook ends the session's previous turn, then begins this one).
pub struct HookTimes {
    pub fresh: Vec<u64>,
    pub next: Vec<u64>,
    pub turns_recorded: usize,
}

impl HookTimes {
    pub fn p50(&self) -> (u64, u64) {
        (percentile(&self.fresh, 50.0), percentile(&self.next, 50.0))
    }
}

/// Serves `ws` with the Redline at `bin` (its dirs under `scratch`) and times `runs` prompt
/// hooks of each kind, alternately, after `warmup` of each.
pub fn measure(
    bin: &Path,
    scratch: &Path,
    ws: &Path,
    runs: usize,
    warmup: usize,
) -> Result<HookTimes> {
    let redline = target::start_redline(bin, scratch, ws, Duration::from_secs(60))?;
    let (mut fresh, mut next) = (Vec::new(), Vec::new());
    for i in 0..warmup + runs {
        let a = hook(&redline, ws, &format!("bench-fresh-{i}"))?;
        let b = hook(&redline, ws, "bench-next")?;
        if i >= warmup {
            fresh.push(a);
            next.push(b);
        }
    }
    fresh.sort_unstable();
    next.sort_unstable();
    let turns_recorded = count_turns(&redline, ws)?;
    Ok(HookTimes {
        fresh,
        next,
        turns_recorded,
    })
}

/// One prompt hook of `session`, timed from its start to its exit. Fails unless it answered
/// as a recorded turn does: exit 0, nothing on either output (a pass says why on stderr).
fn hook(redline: &RedlineTarget, ws: &Path, session: &str) -> Result<u64> {
    let input = serde_json::json!({
        "session_id": session,
        "transcript_path": ws.join(".bench-transcript.jsonl"),
        "cwd": ws,
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "bench: a turn starts",
    })
    .to_string();
    let start = Instant::now();
    let mut child = redline_cmd(&redline.bin, &redline.dirs)
        .args(["hook", "claude", "--turn-start"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("spawn redline hook claude --turn-start")?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes())?;
    }
    let out = child.wait_with_output()?;
    let took = start.elapsed().as_micros() as u64;
    if !out.status.success() || !out.stdout.is_empty() || !out.stderr.is_empty() {
        bail!(
            "the turn-start hook did not record a turn ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(took)
}

/// How many turns `redline turns list WS --json` lists.
fn count_turns(redline: &RedlineTarget, ws: &Path) -> Result<usize> {
    let out = redline_cmd(&redline.bin, &redline.dirs)
        .args(["turns", "list", "--json"])
        .arg(ws)
        .output()?;
    if !out.status.success() {
        bail!(
            "redline turns list: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    match v.as_array() {
        Some(turns) => Ok(turns.len()),
        None => bail!("redline turns list --json gave no list: {v}"),
    }
}
