//! The store's stand-ins (`checkpoint::stand_in`) in git: found with git's ignore rules, put in
//! the store's index as marked blobs that `git add` and `git status` leave alone
//! (assume-unchanged), and recognised again in a change.

use super::{args, Git};
use crate::checkpoint::changes::{ChangeKind, Delta};
use crate::checkpoint::error::{CheckpointError, CheckpointResult as Result};
use crate::checkpoint::object::ObjectId;
use crate::checkpoint::stand_in::{self, NotKept, StandIn};
use std::collections::HashSet;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

impl Git {
    /// Runs git with `args`, `input` on its standard input (fed from a thread, so a git that
    /// answers while it reads never blocks on a full pipe).
    fn run_fed(&self, a: &[OsString], input: &[u8]) -> Result<Output> {
        let mut child = self
            .command()
            .args(a)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(CheckpointError::GitMissing)?;
        let feed = child.stdin.take().map(|mut stdin| {
            let input = input.to_vec();
            std::thread::spawn(move || stdin.write_all(&input))
        });
        let out = child
            .wait_with_output()
            .map_err(CheckpointError::GitMissing)?;
        if let Some(feed) = feed {
            // A git that stopped reading early says why in its exit status, judged by the caller.
            let _ = feed.join();
        }
        Ok(out)
    }

    /// Like `run_fed`, its standard output, failing unless git exits 0.
    pub(super) fn run_fed_ok(
        &self,
        step: &'static str,
        a: &[OsString],
        input: &[u8],
    ) -> Result<Vec<u8>> {
        super::exited(step, self.run_fed(a, input)?, |code| code == Some(0))
    }

    /// Every file of the workspace a checkpoint does not store (over `limit` bytes, or
    /// special), by the same ignore rules `git add` follows.
    pub fn stand_ins(&self, limit: u64) -> Result<Vec<StandIn>> {
        let out = self.run(
            "ls-files",
            &args(&[
                "ls-files",
                "-z",
                "--others",
                "--ignored",
                "--exclude-standard",
                "--directory",
            ]),
        )?;
        let ignored: HashSet<Vec<u8>> = out
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(<[u8]>::to_vec)
            .collect();
        let found = stand_in::walk(&self.work_tree, &ignored, limit)
            .map_err(|e| CheckpointError::Store(self.work_tree.clone(), e))?;
        // git lists no special file as ignored (it lists none at all): asked by name.
        let specials: Vec<&StandIn> = found
            .iter()
            .filter(|s| matches!(s.what, NotKept::NotAFile(_)))
            .collect();
        if specials.is_empty() {
            return Ok(found);
        }
        let input = nul_list(specials.iter().map(|s| s.path.as_path()));
        let a = args(&["check-ignore", "-z", "--stdin", "--no-index"]);
        // Exit 1: none is ignored.
        let out = super::exited("check-ignore", self.run_fed(&a, &input)?, |code| {
            matches!(code, Some(0 | 1))
        })?;
        let named: Vec<PathBuf> = out
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(crate::checkpoint::object::path_of)
            .collect();
        Ok(found
            .into_iter()
            .filter(|s| !named.contains(&s.path))
            .collect())
    }

    /// The store's index made to hold `now`'s stand-ins (their blobs written), marked so that
    /// `git add` and `git status` never look at their files, and none of `before`'s others.
    pub fn set_stand_ins(&self, before: &[StandIn], now: &[StandIn]) -> Result<()> {
        let ids = self.write_blobs(now)?;
        let mut info = Vec::new();
        for gone in before
            .iter()
            .filter(|b| !now.iter().any(|n| n.path == b.path))
        {
            // Mode 0 removes the path from the index: `git add` then sees the file afresh.
            info.extend_from_slice(format!("0 {}\t", "0".repeat(40)).as_bytes());
            info.extend_from_slice(gone.path.as_os_str().as_encoded_bytes());
            info.push(0);
        }
        for (s, id) in now.iter().zip(&ids) {
            info.extend_from_slice(format!("100644 {}\t", id.0).as_bytes());
            info.extend_from_slice(s.path.as_os_str().as_encoded_bytes());
            info.push(0);
        }
        let a = args(&["update-index", "-z", "--index-info"]);
        self.run_fed_ok("update-index", &a, &info)?;
        if now.is_empty() {
            return Ok(());
        }
        let a = args(&["update-index", "-z", "--assume-unchanged", "--stdin"]);
        let paths = nul_list(now.iter().map(|s| s.path.as_path()));
        self.run_fed_ok("update-index", &a, &paths).map(|_| ())
    }

    /// Writes each stand-in's blob into the store; their ids, in order.
    fn write_blobs(&self, list: &[StandIn]) -> Result<Vec<ObjectId>> {
        if list.is_empty() {
            return Ok(Vec::new());
        }
        let tmp = self.dir.join("redline-stand-ins.tmp");
        let failed = |e| CheckpointError::Store(tmp.clone(), e);
        std::fs::create_dir_all(&tmp).map_err(failed)?;
        let mut files = Vec::new();
        for (i, s) in list.iter().enumerate() {
            let file = tmp.join(i.to_string());
            std::fs::write(&file, s.blob()).map_err(failed)?;
            files.push(file);
        }
        let a = args(&["hash-object", "-w", "--no-filters", "--stdin-paths"]);
        // One path a line: the store's own folder, no newline in it.
        let mut input = Vec::new();
        for f in &files {
            input.extend_from_slice(f.as_os_str().as_encoded_bytes());
            input.push(b'\n');
        }
        let out = self.run_fed_ok("hash-object", &a, &input);
        let _ = std::fs::remove_dir_all(&tmp);
        String::from_utf8_lossy(&out?)
            .lines()
            .map(|l| super::id(l.as_bytes()))
            .collect()
    }

    /// Marks each of `changes` whose blob is a stand-in with what it stands for (where the turn
    /// left it; a deleted file's, where it found it), its lines not counted. Only a one-line change can be one, and
    /// only a blob no longer than a stand-in is read.
    pub fn mark_stand_ins(&self, changes: &mut Vec<Delta>) -> Result<()> {
        let zero = |id: &ObjectId| id.0.bytes().all(|b| b == b'0');
        let mut ids: Vec<ObjectId> = changes
            .iter()
            .filter(|d| !d.binary && d.added <= 1 && d.removed <= 1)
            .flat_map(|d| [d.ids.1.clone(), d.ids.0.clone()])
            .filter(|id| !zero(id))
            .collect();
        ids.sort();
        ids.dedup();
        if ids.is_empty() {
            return Ok(());
        }
        let known = self.read_small(&ids)?;
        let of = |id: &ObjectId| known.iter().find(|(k, _)| k == id).map(|(_, n)| n.clone());
        let mut marked = Vec::with_capacity(changes.len());
        for mut d in changes.drain(..) {
            let (before, after) = (of(&d.ids.0), of(&d.ids.1));
            if before.is_none() && after.is_none() {
                marked.push(d);
                continue;
            }
            (d.added, d.removed) = (0, 0);
            match d.from.take() {
                // Git pairs two stand-ins that read alike (one line, a few digits apart): a
                // move only when the stand-in is the same (a large file's size and time).
                Some(from) if d.ids.0 != d.ids.1 => {
                    marked.push(Delta {
                        path: from,
                        status: ChangeKind::Deleted,
                        modes: (d.modes.0, 0),
                        ids: (d.ids.0.clone(), zero_id()),
                        not_kept: before,
                        ..d.clone()
                    });
                    d.status = ChangeKind::Added;
                    (d.modes.0, d.ids.0) = (0, zero_id());
                    d.not_kept = after;
                }
                from => {
                    d.from = from;
                    // What the file is where the turn left it; where it went, what it was.
                    d.not_kept = match d.status {
                        ChangeKind::Deleted => before,
                        _ => after,
                    };
                }
            }
            marked.push(d);
        }
        *changes = marked;
        Ok(())
    }

    /// Of `ids`, the stand-ins: each blob no longer than one read and asked.
    fn read_small(&self, ids: &[ObjectId]) -> Result<Vec<(ObjectId, NotKept)>> {
        let list: Vec<u8> = ids
            .iter()
            .flat_map(|i| format!("{}\n", i.0).into_bytes())
            .collect();
        let a = args(&["cat-file", "--batch-check=%(objectname) %(objectsize)"]);
        let sizes = self.run_fed_ok("cat-file", &a, &list)?;
        let small: Vec<&str> = std::str::from_utf8(&sizes)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_once(' '))
            .filter(|(_, size)| size.parse::<u64>().is_ok_and(|s| s <= stand_in::MAX_LEN))
            .map(|(id, _)| id)
            .collect();
        if small.is_empty() {
            return Ok(Vec::new());
        }
        let list: Vec<u8> = small
            .iter()
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let out = self.run_fed_ok("cat-file", &args(&["cat-file", "--batch"]), &list)?;
        Ok(batch_blobs(&out)
            .into_iter()
            .filter_map(|(id, bytes)| Some((id, stand_in::read(bytes)?)))
            .collect())
    }
}

/// The blobs of `git cat-file --batch`'s output: `<id> <type> <size>\n<bytes>\n` each.
fn batch_blobs(mut out: &[u8]) -> Vec<(ObjectId, &[u8])> {
    let mut blobs = Vec::new();
    while let Some(end) = out.iter().position(|b| *b == b'\n') {
        let head = String::from_utf8_lossy(&out[..end]).into_owned();
        let mut cols = head.split(' ');
        let (Some(id), Some(_), Some(Ok(size))) = (
            cols.next(),
            cols.next(),
            cols.next().map(str::parse::<usize>),
        ) else {
            // `<id> missing`: nothing follows it.
            out = &out[end + 1..];
            continue;
        };
        let Some(bytes) = out.get(end + 1..end + 1 + size) else {
            break;
        };
        blobs.push((ObjectId(id.to_owned()), bytes));
        out = out.get(end + 2 + size..).unwrap_or_default();
    }
    blobs
}

/// The id git gives where there is no file.
fn zero_id() -> ObjectId {
    ObjectId("0".repeat(40))
}

/// `paths`, each followed by a NUL.
fn nul_list<'a>(paths: impl Iterator<Item = &'a Path>) -> Vec<u8> {
    let mut out = Vec::new();
    for p in paths {
        out.extend_from_slice(p.as_os_str().as_encoded_bytes());
        out.push(0);
    }
    out
}
