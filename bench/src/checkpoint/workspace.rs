//! The workspace `redline-bench checkpoint` measures, generated the same byte for byte from a
//! seed: a git repository of committed files in nested folders (text and some binary), a history
//! of several commits, files its `.gitignore` ignores, and untracked files never added.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// What to generate.
#[derive(clap::Args, Clone)]
pub struct Shape {
    /// Files committed in the workspace's repository
    #[arg(long, default_value = "10000")]
    pub tracked: usize,
    /// Files never added, not ignored (a checkpoint keeps them too)
    #[arg(long, default_value = "1000")]
    pub untracked: usize,
    /// Bytes in all, spread over the tracked and untracked files
    #[arg(long, default_value = "100000000")]
    pub bytes: usize,
    /// Commits after the first, each changing 1 in 50 of the tracked files
    #[arg(long, default_value = "4")]
    pub commits: usize,
    /// The generator's seed: the same seed, the same workspace
    #[arg(long, default_value = "39")]
    pub seed: u64,
}

/// Ignored by the workspace's `.gitignore`: a build folder and logs, never checkpointed.
const GITIGNORE: &str = "/target/\n*.log\n";
const IGNORED: usize = 500;

/// Words the text files are made of: compressible as source is, so git's zlib works as hard.
const WORDS: &str = "fn let mut self return match impl struct pub use the workspace checkpoint \
    review turn file path Result Option Some None Ok Err 0 1 42 = + { } ( ) ; -> & ::";

/// SplitMix64: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Generates the workspace at `ws` (which must not exist yet); its HEAD commit, the same for
/// the same shape and seed.
pub fn generate(ws: &Path, shape: &Shape) -> Result<String> {
    if ws.exists() {
        bail!("{} exists: the workspace is generated afresh", ws.display());
    }
    std::fs::create_dir_all(ws)?;
    let mut rng = Rng(shape.seed);
    let mean = shape.bytes / (shape.tracked + shape.untracked).max(1);
    git(ws, &["init", "-q", "-b", "main"])?;
    std::fs::write(ws.join(".gitignore"), GITIGNORE)?;
    for i in 0..shape.tracked {
        write_file(&ws.join(tracked_path(i)), i, mean, &mut rng)?;
    }
    commit(ws, 0)?;
    for round in 1..=shape.commits {
        for _ in 0..shape.tracked / 50 {
            let i = rng.below(shape.tracked);
            write_file(&ws.join(tracked_path(i)), i + round, mean, &mut rng)?;
        }
        commit(ws, round)?;
    }
    for i in 0..shape.untracked {
        let name = format!("src/m{:02}/s{}/scratch{i}.txt", i % 100, i % 10);
        write_file(&ws.join(name), i, mean, &mut rng)?;
    }
    for i in 0..IGNORED {
        let name = format!("target/debug/o{:02}/unit{i}.o", i % 20);
        write_file(&ws.join(name), i, mean / 4, &mut rng)?;
    }
    let head = git(ws, &["rev-parse", "HEAD"])?;
    Ok(String::from_utf8_lossy(&head).trim().to_owned())
}

/// The `i`th tracked file: 100 folders of 10 each, 10 files a folder at 10,000 files.
fn tracked_path(i: usize) -> String {
    let ext = ["rs", "ts", "md", "json", "toml"][i % 5];
    let ext = if i % 50 == 7 { "png" } else { ext };
    format!("src/m{:02}/s{}/f{i}.{ext}", i % 100, (i / 100) % 10)
}

/// A file of about `mean` bytes (a quarter to 1.75 times it): random bytes for a `.png` (git
/// compresses nothing there), lines of words for the rest.
fn write_file(path: &Path, salt: usize, mean: usize, rng: &mut Rng) -> Result<()> {
    let size = mean / 4 + rng.below(mean * 3 / 2 + 1);
    let mut body = Vec::with_capacity(size + 64);
    if path.extension().is_some_and(|e| e == "png") {
        while body.len() < size {
            body.extend_from_slice(&rng.next().to_le_bytes());
        }
    } else {
        let words: Vec<&str> = WORDS.split_ascii_whitespace().collect();
        body.extend_from_slice(format!("// file {salt}\n").as_bytes());
        while body.len() < size {
            for _ in 0..1 + rng.below(12) {
                body.extend_from_slice(words[rng.below(words.len())].as_bytes());
                body.push(b' ');
            }
            body.push(b'\n');
        }
    }
    body.truncate(size.max(1));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, body).with_context(|| format!("write {}", path.display()))
}

/// Commits everything not ignored, at a fixed date and identity (the same ids every time).
fn commit(ws: &Path, round: usize) -> Result<()> {
    git(ws, &["add", "-A"])?;
    let date = format!("{} +0000", 1_780_000_000 + round * 3600);
    let out = base(ws)
        .args(["commit", "-q", "-m", &format!("commit {round}")])
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .output()?;
    check(&["commit"], out).map(|_| ())
}

/// Runs git in `ws` with no system or global config; its standard output.
pub fn git(ws: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let out = base(ws).args(args).output().context("running git")?;
    check(args, out)
}

/// Git in `ws` as a user with no config of their own, a fixed identity.
pub fn base(ws: &Path) -> Command {
    let mut c = Command::new("git");
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("GIT_") {
            c.env_remove(name);
        }
    }
    c.current_dir(ws)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.invalid")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.invalid");
    c
}

fn check<T: AsRef<str>>(args: &[T], out: std::process::Output) -> Result<Vec<u8>> {
    if !out.status.success() {
        let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
        bail!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(out.stdout)
}
