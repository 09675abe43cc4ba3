//! What a checkpoint keeps of a file it does not store: a special file (a FIFO, a socket, a
//! device: git keeps none, and opening one may block) and a file larger than undo reads (hashing
//! it costs seconds at a turn's end and grows the store by its size, for a file that could never
//! be shown or undone). Each is recorded as a one-line stand-in blob, marked, saying what it is
//! (and, for a large file, its size and modification time, so a change shows as a change), found
//! by a walk that follows git's ignore rules, and never opened.

use super::error::{CheckpointError, CheckpointResult};
use crate::platform::folder::{Folder, Perms};
use std::collections::HashSet;
use std::fs::{FileType, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// How every stand-in blob begins: a file whose bytes begin so is taken for one.
const MARK: &str = "Redline stand-in 7f3c9a41: ";

/// A file the checkpoint does not store, as found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandIn {
    /// Relative to the workspace.
    pub path: PathBuf,
    pub what: NotKept,
    /// What tells, without reading it, that the file is another one or changed: a large
    /// file's modification time (ns since the Unix epoch; with its size: a moved one keeps
    /// both, which git then detects as a move), a special file's status change time (every
    /// FIFO's stand-in would be the same blob otherwise, and a new FIFO made where another was
    /// taken for it moved).
    pub stamp: u128,
}

/// Why a file is not stored, as its stand-in says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotKept {
    /// Larger than undo reads: its size.
    TooLarge(u64),
    /// No regular file: what it is ("a FIFO", "a socket", "a device").
    NotAFile(&'static str),
}

impl StandIn {
    /// The stand-in blob's bytes: one line, saying what the file is.
    pub fn blob(&self) -> Vec<u8> {
        match self.what {
            NotKept::TooLarge(size) => format!(
                "{MARK}too large to keep, {size} bytes, modified at {} ns: listed, never read or \
                 undone\n",
                self.stamp
            ),
            NotKept::NotAFile(kind) => format!(
                "{MARK}{kind}, not a regular file (changed at {} ns): listed, never read or undone\n",
                self.stamp
            ),
        }
        .into_bytes()
    }

    /// Whether the file on disk under `root` is still what this stand-in says (one `lstat`).
    pub fn holds(&self, root: &Path) -> bool {
        let Ok(m) = std::fs::symlink_metadata(root.join(&self.path)) else {
            return false;
        };
        match self.what {
            NotKept::NotAFile(kind) => {
                special(&m.file_type()) == Some(kind) && changed(&m) == self.stamp
            }
            NotKept::TooLarge(size) => {
                m.file_type().is_file() && m.len() == size && mtime(&m) == self.stamp
            }
        }
    }
}

/// `meta`'s status change time in ns since the Unix epoch (0 where there is none).
#[cfg(unix)]
fn changed(meta: &Metadata) -> u128 {
    use std::os::unix::fs::MetadataExt;
    let (s, ns) = (meta.ctime(), meta.ctime_nsec());
    u128::try_from(s).map_or(0, |s| s * 1_000_000_000 + u128::try_from(ns).unwrap_or(0))
}

#[cfg(not(unix))]
fn changed(_meta: &Metadata) -> u128 {
    0
}

/// `meta`'s modification time in ns since the Unix epoch (0 where there is none).
fn mtime(meta: &Metadata) -> u128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos())
}

/// What a stand-in blob's `bytes` say, or `None` when they are no stand-in's.
pub fn read(bytes: &[u8]) -> Option<NotKept> {
    let text = std::str::from_utf8(bytes.strip_prefix(MARK.as_bytes())?).ok()?;
    if let Some(rest) = text.strip_prefix("too large to keep, ") {
        let size = rest.split(' ').next()?.parse().ok()?;
        return Some(NotKept::TooLarge(size));
    }
    let kind = text.split(", not a regular file").next()?;
    Some(NotKept::NotAFile(
        ["a FIFO", "a socket", "a device"]
            .into_iter()
            .find(|k| *k == kind)
            .unwrap_or("not a regular file"),
    ))
}

/// The longest a stand-in blob is: a blob longer is never read to ask whether it is one.
pub const MAX_LEN: u64 = 256;

/// `meta`'s file at `path` as a stand-in when the checkpoint does not store it: no regular
/// file (nor folder, nor link), or one over `limit` bytes.
fn stand_in_for(path: &Path, meta: &Metadata, limit: u64) -> Option<StandIn> {
    let t = meta.file_type();
    if t.is_dir() || t.is_symlink() {
        return None;
    }
    let (what, stamp) = match special(&t) {
        Some(kind) => (NotKept::NotAFile(kind), changed(meta)),
        None if meta.len() > limit => (NotKept::TooLarge(meta.len()), mtime(meta)),
        None => return None,
    };
    Some(StandIn {
        path: path.to_owned(),
        what,
        stamp,
    })
}

/// What a file that is no regular file, folder or link is; `None` for those.
fn special(t: &FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_block_device() || t.is_char_device() {
            return Some("a device");
        }
    }
    (!t.is_file() && !t.is_dir() && !t.is_symlink()).then_some("not a regular file")
}

/// Every file beneath `root` the checkpoint does not store (over `limit` bytes, or special),
/// skipping `.git`, a nested repository (git keeps it as a submodule, never entering it) and
/// what `ignored` names (git's ignored paths, relative, a folder's ending in `/`). A special file
/// that an ignore rule names alone is not known here: the caller asks git (`git check-ignore`).
pub fn walk(root: &Path, ignored: &HashSet<Vec<u8>>, limit: u64) -> io::Result<Vec<StandIn>> {
    let mut found = Vec::new();
    let mut todo = vec![PathBuf::new()];
    while let Some(rel) = todo.pop() {
        let entries = match std::fs::read_dir(root.join(&rel)) {
            Ok(e) => e,
            // Gone or unreadable since it was listed: git skips it the same way.
            Err(_) => continue,
        };
        for e in entries.flatten() {
            let name = e.file_name();
            if name == ".git" {
                continue;
            }
            let path = rel.join(&name);
            let Ok(t) = e.file_type() else { continue };
            let bytes = path.as_os_str().as_encoded_bytes();
            if t.is_dir() {
                let mut dir = bytes.to_vec();
                dir.push(b'/');
                if !ignored.contains(&dir) && !root.join(&path).join(".git").exists() {
                    todo.push(path);
                }
                continue;
            }
            if t.is_symlink() || ignored.contains(bytes) {
                continue;
            }
            // Only a regular file's size needs its metadata: a special file is known by its
            // entry's type alone.
            let meta = match special(&t) {
                Some(_) => std::fs::symlink_metadata(root.join(&path)),
                None => e.metadata(),
            };
            if let Some(s) = meta.ok().and_then(|m| stand_in_for(&path, &m, limit)) {
                found.push(s);
            }
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

/// The stand-ins as the store keeps them between runs (`redline-stand-ins`): one per record,
/// `kind\0size\0stamp\0path\0`.
pub fn encode(list: &[StandIn]) -> Vec<u8> {
    let mut out = Vec::new();
    for s in list {
        let (kind, size) = match s.what {
            NotKept::TooLarge(size) => ("large", size),
            NotKept::NotAFile(kind) => (kind, 0),
        };
        out.extend_from_slice(format!("{kind}\0{size}\0{}\0", s.stamp).as_bytes());
        out.extend_from_slice(s.path.as_os_str().as_encoded_bytes());
        out.push(0);
    }
    out
}

/// The stand-ins `encode` wrote; `None` when the bytes are not its.
pub fn decode(bytes: &[u8]) -> Option<Vec<StandIn>> {
    let fields: Vec<&[u8]> = bytes.split(|b| *b == 0).collect();
    let mut out = Vec::new();
    // `split` gives one empty field after the last NUL.
    for rec in fields[..fields.len().saturating_sub(1)].chunks(4) {
        let [kind, size, stamp, path] = rec else {
            return None;
        };
        let text = |b: &[u8]| std::str::from_utf8(b).ok().map(str::to_owned);
        let what = match text(kind)?.as_str() {
            "large" => NotKept::TooLarge(text(size)?.parse().ok()?),
            k => read(format!("{MARK}{k}, not a regular file").as_bytes())?,
        };
        out.push(StandIn {
            path: super::object::path_of(path),
            what,
            stamp: text(stamp)?.parse().ok()?,
        });
    }
    Some(out)
}

/// The file beside the store listing the newest checkpoint's stand-ins.
const LIST: &str = "redline-stand-ins";

/// The stand-ins listed in the store `dir`: none when there is no list (a store from before
/// stand-ins has none in its index either) or it cannot be read (the next checkpoint asks
/// every file again, and lists what it finds).
pub fn load(dir: &Path) -> CheckpointResult<Vec<StandIn>> {
    match std::fs::read(dir.join(LIST)) {
        Ok(bytes) => Ok(decode(&bytes).unwrap_or_default()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(CheckpointError::Store(dir.join(LIST), e)),
    }
}

/// Lists `list` in the store `dir`, replacing the list whole.
pub fn save(dir: &Path, list: &[StandIn]) -> CheckpointResult<()> {
    let failed = |e| CheckpointError::Store(dir.join(LIST), e);
    let (folder, name) = Folder::holding(dir, Path::new(LIST)).map_err(failed)?;
    folder
        .replace_as(&name, &encode(list), Perms::Exact(0o600))
        .map_err(failed)
}

#[cfg(all(test, unix))]
#[path = "stand_in_tests.rs"]
mod tests;
