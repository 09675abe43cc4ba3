//! A file of a turn opened for the review: its bytes at the turn's start and end (each within
//! the size bound, never through what is no regular file) and its hunks.

use super::error::{CheckpointError, CheckpointResult as Result};
use super::git::{EXECUTABLE, REGULAR};
use super::hunks::{self, Hunk};
use super::object::ObjectId;
use super::undo::{blob, confine, UndoScope};
use std::path::Path;

/// `path` in the turn, opened: its bytes at the turn's start (a moved file's where it came from)
/// and at its end, `None` where there was no file, and its hunks (an added or deleted file's
/// against no lines).
/// `modes`: the two sides' git modes as the change lists them (0: no file), when known.
pub(super) fn opened(t: &UndoScope, path: &Path, modes: Option<(u32, u32)>) -> Result<FileSides> {
    let rel = confine(t.root, path)?;
    let from = t.renames.iter().find(|(to, _)| *to == rel).map(|(_, f)| f);
    let start_path = from.unwrap_or(&rel);
    let read = |tree: &ObjectId, p: &Path| match t.git.entry(tree, p)? {
        Some(e) => blob(t.git, p, &e, t.limit).map(Some),
        None => Ok(None),
    };
    // Git's batch names a file by a line `<tree>:<path>`: no line break, `/` (Unix) in it.
    let batched = |p: &Path| cfg!(unix) && !p.as_os_str().as_encoded_bytes().contains(&b'\n');
    // A side that is no regular file is refused by the route below, in its order.
    let plain = |m: u32| m == 0 || m == REGULAR || m == EXECUTABLE;
    let (start, end) = match modes {
        Some(modes) if batched(start_path) && batched(&rel) && plain(modes.0) && plain(modes.1) => {
            read_both(t, (start_path, &rel), modes)?
        }
        _ => (read(t.start, start_path)?, read(t.end, &rel)?),
    };
    let (before, after) = (
        start.as_deref().unwrap_or_default(),
        end.as_deref().unwrap_or_default(),
    );
    if before.contains(&0) || after.contains(&0) {
        return Err(CheckpointError::NotText(rel));
    }
    Ok(FileSides {
        hunks: hunks::hunks(before, after),
        start,
        end,
    })
}

/// A file's bytes at a turn's start and end; `None` where there was no file.
type Sides = (Option<Vec<u8>>, Option<Vec<u8>>);
/// Both sides of a file whose modes the change lists (`opened`), each a regular file or none:
/// each one there read, in one git process, refused past the size bound as `blob` refuses.
fn read_both(
    t: &UndoScope,
    (start_path, end_path): (&Path, &Path),
    (start_mode, end_mode): (u32, u32),
) -> Result<Sides> {
    let mut wanted: Vec<(&ObjectId, &Path)> = Vec::new();
    for (mode, tree, path) in [
        (start_mode, t.start, start_path),
        (end_mode, t.end, end_path),
    ] {
        if mode != 0 {
            wanted.push((tree, path));
        }
    }
    let mut read = t.git.read_files(&wanted, t.limit)?.into_iter();
    let start = if start_mode != 0 { read.next() } else { None };
    Ok((start, if end_mode != 0 { read.next() } else { None }))
}

/// A file of a turn, opened (`opened`, `Store::open_file`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSides {
    pub start: Option<Vec<u8>>,
    pub end: Option<Vec<u8>>,
    pub hunks: Vec<Hunk>,
}
