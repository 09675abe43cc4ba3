//! `redline-bench checkpoint`: what a turn's checkpoint costs on a large git workspace (issue
//! 39), against git itself in the same run: the first checkpoint against `git add -A` into a temp
//! index plus `git write-tree`, one of an unchanged workspace against `git status --porcelain`;
//! then the turn-start hook's round trip against a running headless Redline serving it.

mod turn_start;
mod workspace;

use crate::report_text::percentile;
use anyhow::Result;
use redline_core::checkpoint::Store;
use std::path::{Path, PathBuf};
use std::time::Instant;
use workspace::git;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    shape: workspace::Shape,
    /// Timed runs of each checkpoint (the median is reported)
    #[arg(long, default_value = "7")]
    runs: usize,
    /// The most a checkpoint may take, as a multiple of git's time
    #[arg(long, default_value = "1.5")]
    budget: f64,
    /// Timed turn-start hooks of each kind (0: none, no Redline started)
    #[arg(long, default_value = "30")]
    hook_runs: usize,
    /// The most the turn-start hook's median round trip may take, in ms
    #[arg(long, default_value = "50")]
    hook_budget_ms: f64,
    /// The redline binary the hook runs against (default: $REDLINE_BIN, else
    /// target/release/redline)
    #[arg(long)]
    redline_bin: Option<PathBuf>,
    /// Generate the workspace here and keep it (default: a temp folder, removed)
    #[arg(long)]
    workspace: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let scratch = tempfile::tempdir()?;
    let ws = match &a.workspace {
        Some(dir) => std::path::absolute(dir)?,
        None => scratch.path().join("ws"),
    };
    let started = Instant::now();
    let head = workspace::generate(&ws, &a.shape)?;
    println!(
        "workspace {} (HEAD {head}) generated in {:.1} s; git {}",
        ws.display(),
        started.elapsed().as_secs_f64(),
        String::from_utf8_lossy(&git(&ws, &["version"])?).trim()
    );
    let [first, again] = checkpoints(scratch.path(), &ws, a.runs)?;
    let hooks = match a.hook_runs {
        0 => None,
        n => {
            let bin = crate::target::redline_bin(a.redline_bin.as_deref());
            Some(turn_start::measure(&bin, scratch.path(), &ws, n, 3)?)
        }
    };
    print_report(&a, [first, again], hooks.as_ref());
    Ok(())
}

/// The medians (µs) of the first checkpoint of a fresh store against `git add -A` into a temp
/// index + `write-tree`, and of a checkpoint of the unchanged workspace against `git status`.
fn checkpoints(scratch: &Path, ws: &Path, runs: usize) -> Result<[(u64, u64); 2]> {
    let program = PathBuf::from("git");
    // Each pair run back to back, so a load that comes and goes weighs on both alike.
    let first = paired(
        runs,
        |i| {
            let mut store = Store::open(&program, &scratch.join(format!("first-{i}")), ws)?;
            store.checkpoint()?;
            Ok(())
        },
        |i| {
            let index = scratch.join(format!("index-{i}"));
            let env = |c: &mut std::process::Command| {
                c.env("GIT_INDEX_FILE", &index);
            };
            git_with(ws, &["add", "-A"], env)?;
            git_with(ws, &["write-tree"], env)
        },
    )?;
    let mut store = Store::open(&program, &scratch.join("warm"), ws)?;
    store.checkpoint()?;
    let again = paired(
        runs,
        |_| store.checkpoint().map(|_| ()).map_err(Into::into),
        |_| git(ws, &["status", "--porcelain"]).map(|_| ()),
    )?;
    Ok([first, again])
}

fn git_with(ws: &Path, args: &[&str], env: impl Fn(&mut std::process::Command)) -> Result<()> {
    let mut c = workspace::base(ws);
    env(&mut c);
    let out = c.args(args).output()?;
    if !out.status.success() {
        anyhow::bail!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(())
}

fn print_report(a: &Args, [first, again]: [(u64, u64); 2], hooks: Option<&turn_start::HookTimes>) {
    let s = &a.shape;
    println!(
        "{} tracked + {} untracked files, {} MB, {} commits; median of {} runs",
        s.tracked,
        s.untracked,
        s.bytes / 1_000_000,
        s.commits + 1,
        a.runs
    );
    let line = |what: &str, (ours, git): (u64, u64), anchor: &str| {
        let ratio = ours as f64 / git.max(1) as f64;
        println!(
            "{what:<22} {:>8.1} ms   {anchor:<40} {:>8.1} ms   {ratio:.2}×",
            ours as f64 / 1e3,
            git as f64 / 1e3
        );
        ratio
    };
    let r1 = line(
        "first checkpoint",
        first,
        "git add -A (temp index) + write-tree",
    );
    let r2 = line("unchanged checkpoint", again, "git status --porcelain");
    let mut met = r1 <= a.budget && r2 <= a.budget;
    if let Some(h) = hooks {
        met &= print_hooks(h, a.hook_budget_ms);
    }
    println!(
        "verdict: {} (budget {:.1}× git, a turn start's hook p50 {} ms)",
        if met { "met" } else { "not met" },
        a.budget,
        a.hook_budget_ms
    );
}

/// The hook's figures; whether a turn's start (a prompt after the previous turn ended, as the
/// end-of-turn hook ends it) is within `budget_ms` at the median. The same session's next
/// prompt with no end-of-turn hook between also ends the previous turn: shown beside it.
fn print_hooks(h: &turn_start::HookTimes, budget_ms: f64) -> bool {
    let ms = |us: u64| us as f64 / 1e3;
    let row = |what: &str, v: &[u64]| {
        println!(
            "turn-start hook, {what:<38} p50 {:>6.1} ms   p90 {:>6.1} ms   max {:>6.1} ms   ({} runs)",
            ms(percentile(v, 50.0)),
            ms(percentile(v, 90.0)),
            ms(v.last().copied().unwrap_or(0)),
            v.len()
        );
    };
    row("a session's first prompt", &h.fresh);
    row("its next (ends the previous turn)", &h.next);
    println!("turns recorded: {}", h.turns_recorded);
    let (fresh, next) = h.p50();
    if ms(next) > budget_ms {
        println!(
            "(the next prompt's median is over {budget_ms} ms: it ends a turn and begins one)"
        );
    }
    ms(fresh) <= budget_ms
}

/// The medians of `runs` timings of `ours` and of `theirs`, each run right after the other, in µs.
fn paired(
    runs: usize,
    mut ours: impl FnMut(usize) -> Result<()>,
    mut theirs: impl FnMut(usize) -> Result<()>,
) -> Result<(u64, u64)> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..runs.max(1) {
        a.push(timed(|| ours(i))?);
        b.push(timed(|| theirs(i))?);
    }
    a.sort_unstable();
    b.sort_unstable();
    Ok((percentile(&a, 50.0), percentile(&b, 50.0)))
}

fn timed(job: impl FnOnce() -> Result<()>) -> Result<u64> {
    let start = Instant::now();
    job()?;
    Ok(start.elapsed().as_micros() as u64)
}
