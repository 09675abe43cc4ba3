//! A file's hunks between a turn's start and end, and undoing some of them: a hunk is one
//! contiguous run of changed lines (two changes with an unchanged line between are two hunks,
//! unlike git's hunks, which merge changes within their context), and lines keep their
//! terminators, so undoing a hunk gives back exactly the bytes those lines had.

use similar::{Algorithm, DiffOp};
use std::time::{Duration, Instant};

/// Beyond this the diff falls back to a coarser result (bigger hunks), still exact to undo.
const DEADLINE: Duration = Duration::from_secs(2);

/// HunkLines of one side: `first` is 1-based; `count` 0 is the gap before line `first` (a hunk that
/// only adds or only removes lines has no lines on one side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct HunkLines {
    pub first: usize,
    pub count: usize,
}

impl HunkLines {
    fn of(range: std::ops::Range<usize>) -> HunkLines {
        HunkLines {
            first: range.start + 1,
            count: range.len(),
        }
    }

    /// The 0-based indexes of these lines.
    fn indexes(self) -> std::ops::Range<usize> {
        let start = self.first.saturating_sub(1);
        start..start + self.count
    }
}

/// One contiguous run of changed lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Hunk {
    /// Its lines in the file as the turn found it.
    pub before: HunkLines,
    /// Its lines in the file as the turn left it (the lines `turns undo ID PATH:LINE` names).
    pub after: HunkLines,
}

impl Hunk {
    /// Whether `line` (1-based, in the file as the turn left it) is one of this hunk's lines;
    /// for a hunk that only removed lines, a line either side of where they were.
    pub fn covers(&self, line: usize) -> bool {
        let HunkLines { first, count } = self.after;
        match count {
            0 => line == first || line + 1 == first,
            _ => line >= first && line < first + count,
        }
    }
}

/// `bytes`' lines, each with its terminator (`\n`, so `\r\n` too); the last one may have none.
/// A BOM is part of the first line: a BOM added or removed changes that line.
pub fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|b| *b == b'\n').collect()
}

/// The hunks that turn `before` into `after`, in order.
pub fn hunks(before: &[u8], after: &[u8]) -> Vec<Hunk> {
    let (old, new) = (lines(before), lines(after));
    let ops = similar::capture_diff_slices_deadline(
        Algorithm::Myers,
        &old,
        &new,
        Some(Instant::now() + DEADLINE),
    );
    // Positions are counted here from each op's lengths: similar's own index of the other side
    // of an insertion or removal can be one off after a one-line equal run.
    let (mut o, mut n) = (0, 0);
    let mut out: Vec<Hunk> = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    for op in ops {
        let (ol, nl) = (op.old_range().len(), op.new_range().len());
        match op {
            DiffOp::Equal { .. } if ol == 0 => {}
            DiffOp::Equal { .. } => {
                out.extend(open.take().map(|(os, ns)| Hunk {
                    before: HunkLines::of(os..o),
                    after: HunkLines::of(ns..n),
                }));
            }
            // Adjacent changes (a removal then an addition) are one run.
            _ => {
                open.get_or_insert((o, n));
            }
        }
        (o, n) = (o + ol, n + nl);
    }
    out.extend(open.map(|(os, ns)| Hunk {
        before: HunkLines::of(os..o),
        after: HunkLines::of(ns..n),
    }));
    out
}

/// `after` with the `undone` hunks (some of `hunks(before, after)`, any order) given back their
/// lines from `before`; every other line is `after`'s. A hunk that is not one of `before` and
/// `after`'s is skipped where its lines are not there.
pub fn undo(before: &[u8], after: &[u8], undone: &[Hunk]) -> Vec<u8> {
    let (old, new) = (lines(before), lines(after));
    let mut chosen: Vec<&Hunk> = undone.iter().collect();
    // A hunk's lines end where the next one's begin at the latest: by first line, then size.
    chosen.sort_by_key(|h| (h.after.first, h.after.count));
    chosen.dedup();
    let mut out = Vec::with_capacity(after.len());
    let mut at = 0;
    for h in chosen {
        let (o, n) = (h.before.indexes(), h.after.indexes());
        let (Some(kept), Some(back)) = (new.get(at..n.start), old.get(o)) else {
            continue;
        };
        kept.iter().for_each(|l| out.extend_from_slice(l));
        back.iter().for_each(|l| out.extend_from_slice(l));
        at = n.end;
    }
    new.get(at..)
        .unwrap_or_default()
        .iter()
        .for_each(|l| out.extend_from_slice(l));
    out
}

#[cfg(test)]
#[path = "hunks_tests.rs"]
mod tests;
