//! `redline-bench checkpoint`: what a turn's checkpoint costs on a large git workspace, against
//! git itself in the same run (issue 39): the first checkpoint against `git add -A` into a temp
//! index plus `git write-tree`, one of an unchanged workspace against `git status --porcelain`.

use crate::report_text::percentile;
use anyhow::{bail, Context, Result};
use redline_core::checkpoint::Store;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Files committed in the workspace's repository
    #[arg(long, default_value = "9000")]
    tracked: usize,
    /// Files never added (a checkpoint keeps them too)
    #[arg(long, default_value = "1000")]
    untracked: usize,
    /// Bytes in all, spread over the files
    #[arg(long, default_value = "100000000")]
    bytes: usize,
    /// Timed runs of each (the median is reported)
    #[arg(long, default_value = "5")]
    runs: usize,
    /// The most Redline may take, as a multiple of git's time
    #[arg(long, default_value = "1.5")]
    budget: f64,
}

pub fn run(a: Args) -> Result<()> {
    let scratch = tempfile::tempdir()?;
    let ws = scratch.path().join("ws");
    make_workspace(&ws, &a)?;
    let git = PathBuf::from("git");
    // Each pair run back to back, so a load that comes and goes weighs on both alike.
    let first = paired(
        a.runs,
        |i| {
            let mut store = Store::open(&git, &scratch.path().join(format!("first-{i}")), &ws)?;
            store.checkpoint()?;
            Ok(())
        },
        |i| {
            let index = scratch.path().join(format!("index-{i}"));
            git_in(&ws, &["add", "-A"], Some(&index))?;
            git_in(&ws, &["write-tree"], Some(&index))
        },
    )?;
    let mut store = Store::open(&git, &scratch.path().join("warm"), &ws)?;
    store.checkpoint()?;
    let again = paired(
        a.runs,
        |_| store.checkpoint().map(|_| ()).map_err(Into::into),
        |_| git_in(&ws, &["status", "--porcelain"], None),
    )?;
    print_report(&a, [first, again])
}

fn print_report(a: &Args, [first, again]: [(u64, u64); 2]) -> Result<()> {
    println!(
        "checkpoint of {} tracked + {} untracked files, {} MB, median of {} runs",
        a.tracked,
        a.untracked,
        a.bytes / 1_000_000,
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
    let met = r1 <= a.budget && r2 <= a.budget;
    println!(
        "verdict: {} (budget {:.1}× git)",
        if met { "met" } else { "not met" },
        a.budget
    );
    Ok(())
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

fn git_in(ws: &Path, args: &[&str], index: Option<&Path>) -> Result<()> {
    let mut c = Command::new("git");
    c.args(args)
        .current_dir(ws)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
    if let Some(i) = index {
        c.env("GIT_INDEX_FILE", i);
    }
    let out = c.output().context("running git")?;
    if !out.status.success() {
        bail!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(())
}

/// A repository of `tracked` committed files and `untracked` others, in 100 folders, `bytes`
/// of text in all.
fn make_workspace(ws: &Path, a: &Args) -> Result<()> {
    let total = a.tracked + a.untracked;
    let each = a.bytes / total.max(1);
    for i in 0..total {
        let dir = ws.join(format!("dir{:03}", i % 100));
        std::fs::create_dir_all(&dir)?;
        let line = format!("file {i}: the quick brown fox jumps over the lazy dog\n");
        let body = line.repeat(each / line.len() + 1);
        let name = if i < a.tracked {
            format!("f{i}.txt")
        } else {
            format!("u{i}.txt")
        };
        std::fs::write(dir.join(name), &body.as_bytes()[..each.min(body.len())])?;
    }
    git_in(ws, &["init", "-q"], None)?;
    std::fs::write(ws.join(".git/info/exclude"), "u*.txt\n")?;
    git_in(ws, &["add", "-A"], None)?;
    git_in(
        ws,
        &[
            "-c",
            "user.name=b",
            "-c",
            "user.email=b@b",
            "commit",
            "-qm",
            "base",
        ],
        None,
    )?;
    // The untracked files are untracked, not ignored: only this repository's exclude hid them
    // from the commit.
    std::fs::write(ws.join(".git/info/exclude"), "")?;
    Ok(())
}
