//! The `git` program run for a checkpoint store: its own git directory, the workspace as work
//! tree, its own index, and no system or global config, no inherited `GIT_*` variable, no
//! hooks, no attributes that would change a file's bytes on the way in.

use super::changes::{self, Delta};
use super::error::{CheckpointError, CheckpointResult as Result};
use super::object::{Checkpoint, ObjectId};
use super::stand_in::StandIn;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod stand_ins;
mod tree;
pub use tree::{TreeEntry, EXECUTABLE, REGULAR};

/// The ref that keeps the newest checkpoint alive (a turn's are kept by the turn's own ref), and
/// the store's HEAD, so `git status` in the store compares the workspace with it.
pub const LATEST: &str = "refs/redline/latest";

/// Git's configuration for the store's commands: the bytes go in as they are on disk (no line-ending or
/// filter conversion), nothing runs in the background, paths print as they are.
const CONFIG: &[(&str, &str)] = &[
    ("core.autocrlf", "false"),
    ("core.safecrlf", "false"),
    ("core.symlinks", "true"),
    ("core.quotePath", "false"),
    ("core.fsmonitor", "false"),
    ("core.untrackedCache", "true"),
    ("core.hooksPath", "/dev/null"),
    ("gc.auto", "0"),
    // A file past git's big-file bound (512 MiB) is streamed into a pack at this level, not
    // read whole: level 1 hashes a 2 GB file in half the time of the default (the store never
    // repacks, so nothing else is written at it).
    ("pack.compression", "1"),
    ("maintenance.auto", "false"),
    ("diff.renames", "true"),
    // The store's refs keep no log: a pruned turn's objects are unreachable at once.
    ("core.logAllRefUpdates", "false"),
];

/// Read before the workspace's own `.gitattributes` (the store's `info/attributes` wins): every
/// file is kept byte for byte, whatever the workspace says of text, filters or encodings.
const ATTRIBUTES: &str = "* -text -filter -ident -working-tree-encoding\n";

/// Author and committer of every checkpoint commit: fixed, so nothing of the user's leaks in
/// and equal trees with equal parents make equal commits.
const IDENTITY: &[(&str, &str)] = &[
    ("GIT_AUTHOR_NAME", "Redline"),
    ("GIT_AUTHOR_EMAIL", "checkpoint@redline.invalid"),
    ("GIT_COMMITTER_NAME", "Redline"),
    ("GIT_COMMITTER_EMAIL", "checkpoint@redline.invalid"),
];

/// How git is run for one store.
pub struct Git {
    program: PathBuf,
    dir: PathBuf,
    work_tree: PathBuf,
}

impl Git {
    pub fn new(program: &Path, dir: &Path, work_tree: &Path) -> Git {
        Git {
            program: program.to_owned(),
            dir: dir.to_owned(),
            work_tree: work_tree.to_owned(),
        }
    }

    /// The store's git directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("GIT_") {
                c.env_remove(name);
            }
        }
        c.env("GIT_DIR", &self.dir)
            .env("GIT_WORK_TREE", &self.work_tree)
            .env("GIT_INDEX_FILE", self.dir.join("redline.index"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", null_device())
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .envs(IDENTITY.iter().copied())
            // Given with each command, never written to the store: nothing to run at every
            // open, and a store made by an older Redline gets today's settings.
            .args(
                CONFIG
                    .iter()
                    .flat_map(|(k, v)| ["-c".to_owned(), format!("{k}={v}")]),
            )
            .current_dir(&self.work_tree)
            .stdin(Stdio::null());
        c
    }

    /// Runs git with `args`; its standard output, or why it failed.
    fn run(&self, step: &'static str, args: &[OsString]) -> Result<Vec<u8>> {
        let out = self
            .command()
            .args(args)
            .output()
            .map_err(CheckpointError::GitMissing)?;
        exited(step, out, |code| code == Some(0))
    }

    /// Makes the store on first use (idempotent): the git directory and its attributes.
    pub fn init(&self) -> Result<()> {
        let store = |e| CheckpointError::Store(self.dir.clone(), e);
        std::fs::create_dir_all(&self.dir).map_err(store)?;
        if !self.dir.join("HEAD").exists() {
            self.run("init", &args(&["init", "--quiet"]))?;
        }
        let info = self.dir.join("info");
        std::fs::create_dir_all(&info).map_err(store)?;
        std::fs::write(info.join("attributes"), ATTRIBUTES).map_err(store)?;
        // The store's HEAD is its newest checkpoint, so `git status` in the store compares the
        // workspace with it.
        let head = format!("ref: {LATEST}\n");
        write_if_changed(&self.dir.join("HEAD"), head.as_bytes()).map_err(store)?;
        self.borrow_objects().map_err(store)
    }

    /// The store's `info/exclude` made the workspace repository's own `.git/info/exclude` (read,
    /// never written), so what the user excludes there stays out of a checkpoint; none when the
    /// workspace has none.
    pub fn sync_excludes(&self) -> Result<()> {
        let theirs = self.work_tree.join(".git").join("info").join("exclude");
        let rules = match std::fs::symlink_metadata(&theirs) {
            Ok(m) if m.is_file() => {
                std::fs::read(&theirs).map_err(|e| CheckpointError::Store(theirs.clone(), e))?
            }
            _ => Vec::new(),
        };
        let ours = self.dir.join("info").join("exclude");
        write_if_changed(&ours, &rules).map_err(|e| CheckpointError::Store(ours, e))
    }

    /// Whether the workspace is exactly the newest checkpoint (`HEAD`), in one `git status`:
    /// nothing staged against it, nothing changed against the index, nothing untracked. Its
    /// untracked cache and the files' stat data are kept in the store's own index between
    /// checkpoints, so an unchanged workspace costs a walk of stats, no reading of files.
    pub fn unchanged(&self) -> Result<bool> {
        let out = self
            .command()
            .args([
                "status",
                "--porcelain",
                "-z",
                "--no-renames",
                "--untracked-files=normal",
                // A submodule's commit is compared (as `add` records it), its own work tree is
                // never entered.
                "--ignore-submodules=dirty",
            ])
            // The index written back is the store's own: the user's is never opened.
            .env("GIT_OPTIONAL_LOCKS", "1")
            .output()
            .map_err(CheckpointError::GitMissing)?;
        Ok(out.status.success() && out.stdout.is_empty())
    }

    /// Reads objects the workspace's own repository already has instead of writing them again
    /// (git's `alternates`: read only, git never writes there), so a checkpoint of a committed
    /// tree writes only what is new.
    fn borrow_objects(&self) -> std::io::Result<()> {
        let theirs = self.work_tree.join(".git").join("objects");
        let alternates = self.dir.join("objects").join("info").join("alternates");
        if std::fs::symlink_metadata(&theirs).is_ok_and(|m| m.is_dir()) {
            let mut line = theirs.into_os_string();
            line.push("\n");
            std::fs::write(alternates, line.as_encoded_bytes())
        } else {
            match std::fs::remove_file(alternates) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            }
        }
    }

    /// The commit `name` points at, with its tree; `None` when it points nowhere yet.
    pub fn resolve(&self, name: &str) -> Result<Option<Checkpoint>> {
        let spec = format!("{name}^{{commit}}");
        let Ok(commit) = self.run(
            "rev-parse",
            &args(&["rev-parse", "--verify", "--quiet", &spec]),
        ) else {
            return Ok(None);
        };
        let commit = id(&commit)?;
        let tree = id(&self.run(
            "rev-parse",
            &args(&["rev-parse", &format!("{}^{{tree}}", commit.0)]),
        )?)?;
        Ok(Some(Checkpoint { commit, tree }))
    }

    /// Every file not ignored, into the store's own index, written as a tree: `now`'s stand-ins
    /// instead of their files (`before`'s, the last checkpoint's, gone where no longer one). A
    /// file that cannot be read (no permission) is left out, not a failure.
    pub fn snapshot(&self, before: &[StandIn], now: &[StandIn]) -> Result<ObjectId> {
        if !before.is_empty() || !now.is_empty() {
            self.set_stand_ins(before, now)?;
        }
        self.run(
            "add",
            &args(&["add", "--all", "--ignore-errors", "--", "."]),
        )
        .or_else(|e| match e {
            // git add --ignore-errors still exits 1 when it skipped a file.
            CheckpointError::Git {
                step: "add",
                status,
                ..
            } if status.code() == Some(1) => Ok(Vec::new()),
            e => Err(e),
        })?;
        id(&self.run("write-tree", &args(&["write-tree"]))?)
    }

    /// A commit keeping `tree`, after `parent`.
    pub fn commit(&self, tree: &ObjectId, parent: Option<&ObjectId>) -> Result<ObjectId> {
        let mut a = args(&["commit-tree", &tree.0, "-m", "Redline checkpoint"]);
        if let Some(p) = parent {
            a.extend(args(&["-p", &p.0]));
        }
        id(&self.run("commit-tree", &a)?)
    }

    pub fn set_ref(&self, name: &str, commit: &ObjectId) -> Result<()> {
        self.run("update-ref", &args(&["update-ref", name, &commit.0]))
            .map(|_| ())
    }

    /// Sets every ref of `refs` in one git process (a turn's end moves two: one process fewer
    /// on the way to its review), all or none: git's ref transaction.
    pub fn set_refs(&self, refs: &[(&str, &ObjectId)]) -> Result<()> {
        let input: String = (refs.iter())
            .map(|(name, commit)| format!("update {name} {}\n", commit.0))
            .collect();
        let a = args(&["update-ref", "--stdin"]);
        self.run_fed_ok("update-ref", &a, input.as_bytes())
            .map(|_| ())
    }

    /// The changes from tree `a` to tree `b`.
    pub fn changes(&self, a: &ObjectId, b: &ObjectId) -> Result<Vec<Delta>> {
        let common = [
            "diff-tree",
            "-r",
            "-z",
            "-M",
            "--no-ext-diff",
            "--no-textconv",
        ];
        let mut status = args(&common);
        status.extend(args(&["--raw", &a.0, &b.0]));
        let mut counts = args(&common);
        counts.extend(args(&["--numstat", &a.0, &b.0]));
        changes::parse(
            &self.run("diff-tree", &status)?,
            &self.run("diff-tree", &counts)?,
        )
    }

    /// The unified diff (git's, renames named, binary files marked) from tree `a` to tree `b`,
    /// of `path` alone when one is named (and, for a rename, where it came from).
    pub fn patch(&self, a: &ObjectId, b: &ObjectId, paths: &[&Path]) -> Result<Vec<u8>> {
        let mut a = args(&[
            "diff-tree",
            "-r",
            "-p",
            "-M",
            "--no-ext-diff",
            "--no-textconv",
            "--no-color",
            &a.0,
            &b.0,
            "--",
        ]);
        a.extend(paths.iter().map(|p| p.as_os_str().to_owned()));
        self.run_literal("diff-tree", &a)
    }

    /// The bytes of `path` in `tree`; `None` if it has no such file.
    pub fn blob(&self, tree: &ObjectId, path: &Path) -> Result<Option<Vec<u8>>> {
        let mut spec = OsString::from(format!("{}:", tree.0));
        spec.push(path.as_os_str());
        let exists = self.command().args(["cat-file", "-e"]).arg(&spec).output();
        match exists {
            Ok(o) if o.status.success() => {}
            Ok(_) => return Ok(None),
            Err(e) => return Err(CheckpointError::GitMissing(e)),
        }
        let mut a = args(&["cat-file", "blob"]);
        a.push(spec);
        self.run("cat-file", &a).map(Some)
    }
}

impl Git {
    /// Runs git with `args`, its paths taken literally (no wildcard or pathspec magic).
    fn run_literal(&self, step: &'static str, a: &[OsString]) -> Result<Vec<u8>> {
        let mut all = args(&["--literal-pathspecs"]);
        all.extend_from_slice(a);
        self.run(step, &all)
    }
}

/// Writes `bytes` to `path` unless it holds them already.
fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match std::fs::read(path) {
        Ok(now) if now == bytes => Ok(()),
        _ => std::fs::write(path, bytes),
    }
}

fn args(a: &[&str]) -> Vec<OsString> {
    a.iter().map(OsString::from).collect()
}

/// An object id from git's output line.
fn id(out: &[u8]) -> Result<ObjectId> {
    let text = String::from_utf8_lossy(out).trim().to_owned();
    if text.len() >= 40 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(ObjectId(text))
    } else {
        Err(CheckpointError::Unreadable(format!(
            "not an object id: {text:?}"
        )))
    }
}

fn null_device() -> &'static str {
    if cfg!(windows) {
        "NUL"
    } else {
        "/dev/null"
    }
}

/// `out`'s standard output when git's exit code is one `ok` takes; else why `step` failed, with
/// what git said.
fn exited(
    step: &'static str,
    out: std::process::Output,
    ok: impl Fn(Option<i32>) -> bool,
) -> Result<Vec<u8>> {
    if !ok(out.status.code()) {
        return Err(CheckpointError::Git {
            step,
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    Ok(out.stdout)
}
