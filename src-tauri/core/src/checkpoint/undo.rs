//! Undoing a turn's change of some files, whole or by hunks, back to the bytes and mode they had
//! at the turn's start; only where each file on disk is still what the turn's end holds, all
//! checked before anything is written. Never through a link (the file's or a folder's on the
//! way), never opening what is no regular file, never reading a file whole past a bound.

use super::error::{CheckpointError, CheckpointResult as Result};
use super::git::{Git, TreeEntry, EXECUTABLE, REGULAR};
use super::hunks::{self, Hunk};
use super::object::ObjectId;
use super::stand_in::{self, NotKept};
use crate::platform::folder::{Folder, Perms};
use std::fs::Metadata;
use std::io;
use std::path::{Component, Path, PathBuf};

/// What of a file to undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// The whole file: its start bytes and mode, back if it was deleted, gone if it was added.
    Whole,
    /// These hunks (of `Store::hunks` for the same turn): their lines as they were.
    Hunks(Vec<Hunk>),
}

/// One file to undo: `path` relative to the workspace (where the turn left it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undo {
    pub path: PathBuf,
    pub pick: Pick,
}

/// A file of the workspace as found on disk.
enum Disk {
    Absent,
    File { bytes: Vec<u8>, meta: Metadata },
}

/// What undoing one file writes.
enum Write {
    Bytes {
        bytes: Vec<u8>,
        exec: bool,
        /// The permission bits of the file there now, which the new bytes keep (but for the
        /// exec bits); `None`: there is none.
        now: Option<u32>,
    },
    Remove,
    Nothing,
}

/// One file's undo, checked and ready to write.
struct Plan {
    path: PathBuf,
    write: Write,
}

/// A turn's change as undo reads it: the store, the workspace, the two trees, the turn's
/// renames (where each moved file came from) and the size bound.
pub(super) struct UndoScope<'a> {
    pub git: &'a Git,
    pub root: &'a Path,
    pub start: &'a ObjectId,
    pub end: &'a ObjectId,
    pub renames: &'a [(PathBuf, PathBuf)],
    pub limit: u64,
}

/// Undoes `files`: every one checked (and its new bytes made) before any is written; the paths
/// written or removed.
pub(super) fn run(t: &UndoScope, files: &[Undo]) -> Result<Vec<PathBuf>> {
    let mut plans: Vec<Plan> = Vec::new();
    for file in files {
        for p in plan(t, file)? {
            if !plans.iter().any(|q| q.path == p.path) {
                plans.push(p);
            }
        }
    }
    for p in &plans {
        apply(t.root, p)?;
    }
    Ok(plans
        .into_iter()
        .filter(|p| !matches!(p.write, Write::Nothing))
        .map(|p| p.path)
        .collect())
}

/// Checks `undo` and says what it writes: one file, or for a renamed file undone whole, also the
/// one it came from. Nothing is written here.
fn plan(t: &UndoScope, undo: &Undo) -> Result<Vec<Plan>> {
    let rel = confine(t.root, &undo.path)?;
    let from = t.renames.iter().find(|(to, _)| *to == rel).map(|(_, f)| f);
    match (&undo.pick, from) {
        (Pick::Whole, Some(from)) => Ok(vec![
            plan_file(t, &rel, &rel, &undo.pick)?,
            plan_file(t, from, from, &undo.pick)?,
        ]),
        // A moved file's hunks are against the file it came from.
        (_, from) => Ok(vec![plan_file(t, &rel, from.unwrap_or(&rel), &undo.pick)?]),
    }
}

fn plan_file(t: &UndoScope, rel: &Path, start_path: &Path, pick: &Pick) -> Result<Plan> {
    let end = t.git.entry(t.end, rel)?;
    let end_bytes = match &end {
        Some(e) => Some(blob(t.git, rel, e, t.limit)?),
        None => None,
    };
    let disk = read_disk(t.root, rel, t.limit)?;
    let end_view = end
        .as_ref()
        .zip(end_bytes.as_deref())
        .map(|(e, b)| (b, e.mode == EXECUTABLE));
    if !unchanged(&disk, end_view) {
        return Err(CheckpointError::Changed(rel.to_owned()));
    }
    let start = t.git.entry(t.start, start_path)?;
    let now = match disk {
        Disk::File { meta, .. } => Some(perms(&meta)),
        Disk::Absent => None,
    };
    let write = match (pick, start, end_bytes) {
        (Pick::Whole, None, _) if now.is_none() => Write::Nothing,
        (Pick::Whole, None, _) => Write::Remove,
        (Pick::Whole, Some(s), _) if Some(&s) == end.as_ref() => Write::Nothing,
        (Pick::Whole, Some(s), _) => Write::Bytes {
            bytes: blob(t.git, start_path, &s, t.limit)?,
            exec: s.mode == EXECUTABLE,
            now,
        },
        (Pick::Hunks(chosen), Some(s), Some(end_bytes)) => Write::Bytes {
            bytes: undo_hunks(
                rel,
                &blob(t.git, start_path, &s, t.limit)?,
                &end_bytes,
                chosen,
            )?,
            exec: end.is_some_and(|e| e.mode == EXECUTABLE),
            now,
        },
        (Pick::Hunks(_), _, _) => return Err(CheckpointError::NotBothSides(rel.to_owned())),
    };
    Ok(Plan {
        path: rel.to_owned(),
        write,
    })
}

/// `path` as plain names beneath the workspace: relative, or absolute inside `workspace`.
pub(super) fn confine(workspace: &Path, path: &Path) -> Result<PathBuf> {
    let rel = path.strip_prefix(workspace).unwrap_or(path);
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain || rel.as_os_str().is_empty() {
        return Err(CheckpointError::NotInWorkspace(path.to_owned()));
    }
    Ok(rel.to_owned())
}

/// The file at `rel` beneath `root` as it is now, read (at most `limit` bytes) only if it is a
/// regular file reached through no link.
fn read_disk(root: &Path, rel: &Path, limit: u64) -> Result<Disk> {
    let (folder, name) = match Folder::holding(root, rel) {
        Ok(found) => found,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Disk::Absent),
        Err(_) => return Err(CheckpointError::NotBeneath(rel.to_owned())),
    };
    // The early refusal, by the name's own metadata: a FIFO or device is never opened. The
    // check that counts is the descriptor's, in `Folder::read`.
    let meta = match std::fs::symlink_metadata(folder.path_of(&name)) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Disk::Absent),
        Err(e) => return Err(CheckpointError::Write(rel.to_owned(), e)),
    };
    if !meta.is_file() {
        return Err(CheckpointError::NotAFile(rel.to_owned(), kind(&meta)));
    }
    too_large(rel, meta.len(), limit)?;
    let read = folder
        .read(&name, limit)
        .map_err(|e| CheckpointError::Write(rel.to_owned(), e))?;
    too_large(rel, read.bytes.len() as u64, limit)?;
    Ok(Disk::File {
        bytes: read.bytes,
        meta: read.meta,
    })
}

fn too_large(path: &Path, size: u64, limit: u64) -> Result<()> {
    if size > limit {
        return Err(CheckpointError::TooLarge {
            path: path.to_owned(),
            size,
            limit,
        });
    }
    Ok(())
}

/// What a file that is no regular file is, for the message.
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    match () {
        _ if t.is_symlink() => "a symbolic link",
        _ if t.is_dir() => "a folder",
        _ => "not a regular file",
    }
}

/// A tree entry's bytes, if it is a regular file of at most `limit` bytes.
pub(super) fn blob(git: &Git, path: &Path, e: &TreeEntry, limit: u64) -> Result<Vec<u8>> {
    if e.mode != REGULAR && e.mode != EXECUTABLE {
        let what = match e.mode {
            0o120000 => "a symbolic link",
            0o160000 => "a submodule",
            _ => "not a regular file",
        };
        return Err(CheckpointError::NotAFile(path.to_owned(), what));
    }
    too_large(path, git.size(&e.id)?, limit)?;
    let bytes = git.read_blob(&e.id)?;
    // A file the checkpoint did not store: refused for what it was.
    match stand_in::read(&bytes) {
        Some(NotKept::TooLarge(size)) => Err(CheckpointError::TooLarge {
            path: path.to_owned(),
            size,
            limit,
        }),
        Some(NotKept::NotAFile(kind)) => Err(CheckpointError::NotAFile(path.to_owned(), kind)),
        None => Ok(bytes),
    }
}

#[cfg(unix)]
fn is_exec(meta: &Metadata) -> Option<bool> {
    use std::os::unix::fs::PermissionsExt;
    Some(meta.permissions().mode() & 0o100 != 0)
}

/// Elsewhere a file has no exec bit to compare.
#[cfg(not(unix))]
fn is_exec(_meta: &Metadata) -> Option<bool> {
    None
}

/// Whether the disk is what the turn's end holds: `end`'s bytes and exec bit, or nothing.
fn unchanged(disk: &Disk, end: Option<(&[u8], bool)>) -> bool {
    match (disk, end) {
        (Disk::Absent, None) => true,
        (Disk::File { bytes, meta }, Some((want, exec))) => {
            bytes.as_slice() == want && is_exec(meta).is_none_or(|x| x == exec)
        }
        _ => false,
    }
}

/// The bytes of `start` and `end` with `chosen` (hunks of theirs) undone.
fn undo_hunks(path: &Path, start: &[u8], end: &[u8], chosen: &[Hunk]) -> Result<Vec<u8>> {
    if start.contains(&0) || end.contains(&0) {
        return Err(CheckpointError::NotText(path.to_owned()));
    }
    let all = hunks::hunks(start, end);
    if chosen.iter().any(|h| !all.contains(h)) {
        return Err(CheckpointError::NoSuchHunk(path.to_owned()));
    }
    Ok(hunks::undo(start, end, chosen))
}

/// Writes one checked plan beneath `root`.
fn apply(root: &Path, plan: &Plan) -> Result<()> {
    let failed = |e| CheckpointError::Write(plan.path.clone(), e);
    match &plan.write {
        Write::Nothing => Ok(()),
        Write::Remove => {
            let (folder, name) = Folder::holding(root, &plan.path).map_err(failed)?;
            folder.remove(&name).map_err(failed)
        }
        Write::Bytes { bytes, exec, now } => {
            if now.is_none() {
                make_folders(root, &plan.path).map_err(failed)?;
            }
            let (folder, name) = Folder::holding(root, &plan.path).map_err(failed)?;
            match now {
                Some(now) => folder.replace_as(&name, bytes, Perms::Exact(with_exec(*now, *exec))),
                None => folder.create_new_as(&name, bytes, Perms::Default { exec: *exec }),
            }
            .map_err(failed)
        }
    }
}

/// `meta`'s permission bits.
#[cfg(unix)]
fn perms(meta: &Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn perms(_meta: &Metadata) -> u32 {
    0o644
}

/// Permission bits `m` with the exec bits as `exec` says (each where `m` may read).
fn with_exec(m: u32, exec: bool) -> u32 {
    match exec {
        true => m | ((m & 0o444) >> 2),
        false => m & !0o111,
    }
}

/// Makes the folders on the way to `rel` that a deleted file's undo needs, one at a time, each
/// existing one checked to be a folder and no link (`Folder::holding` checks again, by
/// descriptor, before the file is written).
fn make_folders(root: &Path, rel: &Path) -> io::Result<()> {
    let mut at = root.to_owned();
    for c in rel.parent().into_iter().flat_map(Path::components) {
        at.push(c);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(io::Error::other("a link or file where a folder should be")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::create_dir(&at)?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
#[path = "undo_tests.rs"]
mod tests;
