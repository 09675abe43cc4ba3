//! What changed between two checkpoints, read from `git diff-tree -z`'s raw and numstat forms.

use super::error::{CheckpointError, CheckpointResult as Result};
pub(super) use super::object::path_of;
use super::object::ObjectId;
pub use super::stand_in::NotKept;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::PathBuf;

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Deleted,
    Modified,
    /// Moved (git's rename detection), perhaps changed too.
    Renamed,
    /// A file became a link, or the other way round.
    TypeChanged,
}

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delta {
    /// Relative to the workspace: where the file is after the change (before, when deleted).
    pub path: PathBuf,
    /// Where a renamed file was.
    pub from: Option<PathBuf>,
    pub status: ChangeKind,
    /// The git modes before and after (0 where the file was not), e.g. 0o100644, 0o100755.
    pub modes: (u32, u32),
    /// Git could not count lines: the file is binary on either side.
    pub binary: bool,
    pub added: u64,
    pub removed: u64,
    /// The blobs before and after (all zeros where the file was not).
    pub ids: (ObjectId, ObjectId),
    /// The file as the change left it (deleted: as it was) was not stored: too large, or no
    /// regular file. The lines of a change to or from a file not stored are not counted.
    pub not_kept: Option<NotKept>,
}

/// The changes from `raw` (`--raw -z`) and `numstat` (`--numstat -z`) of the same two trees.
pub fn parse(raw: &[u8], numstat: &[u8]) -> Result<Vec<Delta>> {
    let heads = raw_entries(raw)?;
    let counts = numstat_entries(numstat)?;
    if heads.len() != counts.len() {
        return Err(unreadable("the raw and numstat lists differ in length"));
    }
    Ok(heads
        .into_iter()
        .zip(counts)
        .map(|(mut change, count)| {
            match count {
                Some((added, removed)) => (change.added, change.removed) = (added, removed),
                None => change.binary = true,
            }
            change
        })
        .collect())
}

fn unreadable(why: &str) -> CheckpointError {
    CheckpointError::Unreadable(format!("git diff-tree: {why}"))
}

/// `:old new oldsha newsha X\0path\0` (and `R<score>\0from\0to\0` for a rename).
fn raw_entries(raw: &[u8]) -> Result<Vec<Delta>> {
    let mut fields = raw.split(|b| *b == 0).filter(|f| !f.is_empty());
    let mut out = Vec::new();
    while let Some(head) = fields.next() {
        let head = std::str::from_utf8(head).map_err(|_| unreadable("a head that is not text"))?;
        let parts: Vec<&str> = head.trim_start_matches(':').split(' ').collect();
        let [old, new, old_id, new_id, letter] = parts[..] else {
            return Err(unreadable("a head of the wrong shape"));
        };
        let mode = |m: &str| u32::from_str_radix(m, 8).map_err(|_| unreadable("a mode"));
        let modes = (mode(old)?, mode(new)?);
        let mut path = || {
            fields
                .next()
                .map(path_of)
                .ok_or_else(|| unreadable("no path"))
        };
        let (status, from, path) = match letter.chars().next() {
            Some('A') => (ChangeKind::Added, None, path()?),
            Some('D') => (ChangeKind::Deleted, None, path()?),
            Some('M') => (ChangeKind::Modified, None, path()?),
            Some('T') => (ChangeKind::TypeChanged, None, path()?),
            Some('R') => {
                let from = path()?;
                (ChangeKind::Renamed, Some(from), path()?)
            }
            _ => return Err(unreadable("a status Redline does not know")),
        };
        out.push(Delta {
            path,
            from,
            status,
            modes,
            binary: false,
            added: 0,
            removed: 0,
            ids: (ObjectId(old_id.to_owned()), ObjectId(new_id.to_owned())),
            not_kept: None,
        });
    }
    Ok(out)
}

/// `added\tremoved\tpath\0`, or `added\tremoved\t\0from\0to\0` for a rename; `-\t-` is binary.
fn numstat_entries(numstat: &[u8]) -> Result<Vec<Option<(u64, u64)>>> {
    let mut fields = numstat.split(|b| *b == 0);
    let mut out = Vec::new();
    while let Some(entry) = fields.next() {
        if entry.is_empty() {
            continue;
        }
        let mut cols = entry.splitn(3, |b| *b == b'\t');
        let (Some(a), Some(r), Some(path)) = (cols.next(), cols.next(), cols.next()) else {
            return Err(unreadable("a count of the wrong shape"));
        };
        if path.is_empty() {
            // A rename: its two paths follow as fields of their own.
            fields.next();
            fields.next();
        }
        let count = |c: &[u8]| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|c| c.parse::<u64>().ok())
        };
        out.push(count(a).zip(count(r)));
    }
    Ok(out)
}

/// The changes between the last few pairs of trees asked for. A tree's id is its content's hash,
/// so what changed between two trees never changes, and a turn's review asks for the same pair
/// at each step (the review opened, its list, each file opened and its hunks): git diffs every
/// file of the turn once, not at each step.
#[derive(Default)]
pub(super) struct Known(RefCell<VecDeque<KnownPair>>);

/// Two trees (from, to), and the changes between them.
type KnownPair = ((ObjectId, ObjectId), Vec<Delta>);

/// How many pairs are kept, and the longest list kept (past it, asked of git each time).
const KNOWN_PAIRS: usize = 4;
const KNOWN_DELTAS: usize = 10_000;

impl Known {
    /// The changes from tree `a` to tree `b`: known, or `read` (kept when it succeeds).
    pub fn get_or(
        &self,
        (a, b): (&ObjectId, &ObjectId),
        read: impl FnOnce() -> Result<Vec<Delta>>,
    ) -> Result<Vec<Delta>> {
        let hit = |((x, y), _): &&KnownPair| x == a && y == b;
        if let Some((_, known)) = self.0.borrow().iter().find(hit) {
            return Ok(known.clone());
        }
        let read = read()?;
        if read.len() <= KNOWN_DELTAS {
            let mut known = self.0.borrow_mut();
            if known.len() >= KNOWN_PAIRS {
                known.pop_front();
            }
            known.push_back(((a.clone(), b.clone()), read.clone()));
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn tree(n: u8) -> ObjectId {
        ObjectId(format!("{n:040x}"))
    }

    fn delta(path: &str) -> Delta {
        Delta {
            path: PathBuf::from(path),
            from: None,
            status: ChangeKind::Modified,
            modes: (0o100644, 0o100644),
            binary: false,
            added: 1,
            removed: 1,
            ids: (tree(0), tree(0)),
            not_kept: None,
        }
    }

    #[test]
    fn a_pair_of_trees_is_diffed_once_and_a_failure_is_not_kept() {
        let known = Known::default();
        let reads = Cell::new(0);
        let read = |path: &'static str| {
            let reads = &reads;
            move || {
                reads.set(reads.get() + 1);
                Ok(vec![delta(path)])
            }
        };
        let (a, b, c) = (tree(1), tree(2), tree(3));
        assert_eq!(known.get_or((&a, &b), read("x")).unwrap(), vec![delta("x")]);
        assert_eq!(known.get_or((&a, &b), read("y")).unwrap(), vec![delta("x")]);
        assert_eq!(reads.get(), 1);
        // Another pair, or the same trees the other way round, is another diff.
        assert_eq!(known.get_or((&b, &a), read("y")).unwrap(), vec![delta("y")]);
        assert_eq!(known.get_or((&a, &c), read("z")).unwrap(), vec![delta("z")]);
        assert_eq!(reads.get(), 3);
        let failed = known.get_or((&c, &a), || Err(unreadable("no")));
        assert!(failed.is_err());
        assert_eq!(known.get_or((&c, &a), read("w")).unwrap(), vec![delta("w")]);
        assert_eq!(reads.get(), 4);
    }

    #[test]
    fn only_the_last_pairs_are_kept() {
        let known = Known::default();
        let reads = Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            Ok(Vec::new())
        };
        let trees: Vec<ObjectId> = (0..=KNOWN_PAIRS as u8).map(tree).collect();
        for t in &trees {
            known.get_or((t, t), read).unwrap();
        }
        assert_eq!(reads.get(), KNOWN_PAIRS + 1);
        // The newest are still known; the first went.
        known
            .get_or((&trees[KNOWN_PAIRS], &trees[KNOWN_PAIRS]), read)
            .unwrap();
        assert_eq!(reads.get(), KNOWN_PAIRS + 1);
        known.get_or((&trees[0], &trees[0]), read).unwrap();
        assert_eq!(reads.get(), KNOWN_PAIRS + 2);
    }
}
