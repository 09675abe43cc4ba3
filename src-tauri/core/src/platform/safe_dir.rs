//! OpenSSH's rule (`safe_path`) for a folder that holds something private (a discovery file, a
//! lock, a socket): the folder and every folder above it belong to the user or root and no one
//! else may write to them, so no other user can move it away and put one of theirs in its place.
//
// Above the folder, a sticky folder of root's or the user's (`/tmp`) is allowed: others may not
// rename or remove what is ours in it. The walk stops at the user's home (from the password
// database, as OpenSSH's `pw_dir`) for a folder beneath it. Every symbolic link on the way is
// followed by hand, so the folders that hold the links are checked too, and a link must be the
// user's or root's (in a sticky folder its owner could replace it).

use std::ffi::OsString;
use std::fs::Metadata;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Component, Path, PathBuf};

/// Links followed at most on one path (Linux's own limit).
const MAX_LINKS: usize = 40;

/// What is wrong with one folder (or link) on the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    OtherOwner {
        uid: u32,
    },
    /// Group or others may write to it, and it is not a sticky folder of root's or the user's.
    Writable {
        mode: u32,
    },
    OtherUsersLink {
        uid: u32,
    },
    NotDirectory,
    TooManyLinks,
    Unreadable {
        kind: std::io::ErrorKind,
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::OtherOwner { uid } => write!(f, "belongs to another user (uid {uid})"),
            Problem::Writable { mode } => {
                write!(f, "is writable by group or others (mode {mode:o})")
            }
            Problem::OtherUsersLink { uid } => {
                write!(f, "is a symbolic link of another user (uid {uid})")
            }
            Problem::NotDirectory => f.write_str("is not a folder"),
            Problem::TooManyLinks => f.write_str("goes through too many symbolic links"),
            Problem::Unreadable { kind } => write!(f, "cannot be looked at ({kind})"),
        }
    }
}

/// Why `folder` may not hold anything private: `at` (the folder itself, or one on the way to it)
/// has `problem`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsafe {
    pub folder: PathBuf,
    pub at: PathBuf,
    pub problem: Problem,
}

impl std::fmt::Display for Unsafe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at == self.folder {
            write!(f, "{} {}", self.folder.display(), self.problem)?;
        } else {
            write!(
                f,
                "{} is in {}, which {}",
                self.folder.display(),
                self.at.display(),
                self.problem
            )?;
        }
        f.write_str(": another user could swap what is there, so nothing private is put there")
    }
}

/// Creates `dir` and any missing folder above it (0700), then checks it is the user's, closed to
/// others, and safe all the way up. Each folder is created only once what is above it passed.
pub fn prepare(dir: &Path) -> Result<(), Unsafe> {
    let uid = crate::platform::own_user::own_uid();
    // Each round creates one more folder; a folder someone else creates meanwhile is checked.
    for _ in 0..=dir.components().count() {
        let walk = walk(dir, uid)?;
        judge(dir, &walk, uid)?;
        let Some(next) = walk.missing.first() else {
            return Ok(());
        };
        let created = std::fs::DirBuilder::new()
            .mode(0o700)
            .create(walk.end.join(next));
        if let Err(e) = created {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                return Err(unreadable(dir, &walk.end.join(next), e));
            }
        }
    }
    Err(Unsafe {
        folder: dir.to_owned(),
        at: dir.to_owned(),
        problem: Problem::TooManyLinks,
    })
}

/// Checks that every folder above `dir` (not `dir` itself, which its caller judges by its own
/// rule) is safe; folders missing on the way are no problem (whoever creates them decides).
pub fn check_above(dir: &Path) -> Result<(), Unsafe> {
    let uid = crate::platform::own_user::own_uid();
    let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    let walk = walk(parent, uid)?;
    judge_all(dir, &walk, uid, false)
}

/// The folders met on the way to a path, the path it really is, and what is missing of it.
struct Walk {
    /// Every folder gone through (the root first), with its metadata.
    folders: Vec<(PathBuf, Metadata)>,
    /// Where the existing part ends, links resolved.
    end: PathBuf,
    /// The names after `end` that do not exist yet.
    missing: Vec<OsString>,
}

fn unreadable(folder: &Path, at: &Path, e: std::io::Error) -> Unsafe {
    Unsafe {
        folder: folder.to_owned(),
        at: at.to_owned(),
        problem: Problem::Unreadable { kind: e.kind() },
    }
}

fn walk(path: &Path, uid: u32) -> Result<Walk, Unsafe> {
    let fail = |at: &Path, problem| Unsafe {
        folder: path.to_owned(),
        at: at.to_owned(),
        problem,
    };
    let mut todo: Vec<OsString> = names(&absolute(path)?);
    todo.reverse();
    let mut at = PathBuf::from("/");
    let root = std::fs::symlink_metadata(&at).map_err(|e| unreadable(path, &at, e))?;
    let mut folders = vec![(at.clone(), root)];
    let mut links = 0;
    while let Some(name) = todo.pop() {
        if name == ".." {
            at.pop();
            continue;
        }
        let next = at.join(&name);
        let meta = match std::fs::symlink_metadata(&next) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                todo.push(name);
                todo.reverse();
                return Ok(Walk {
                    folders,
                    end: at,
                    missing: todo,
                });
            }
            Err(e) => return Err(unreadable(path, &next, e)),
        };
        if meta.file_type().is_symlink() {
            links += 1;
            let target = link_target(path, &next, &meta, uid, links)?;
            if target.is_absolute() {
                at = PathBuf::from("/");
            }
            let mut more = names(&target);
            more.reverse();
            todo.extend(more);
            continue;
        }
        if !meta.is_dir() {
            return Err(fail(&next, Problem::NotDirectory));
        }
        at = next;
        folders.push((at.clone(), meta));
    }
    Ok(Walk {
        folders,
        end: at,
        missing: Vec::new(),
    })
}

/// `path` made absolute against the working directory.
fn absolute(path: &Path) -> Result<PathBuf, Unsafe> {
    if path.is_absolute() {
        return Ok(path.to_owned());
    }
    Ok(std::env::current_dir()
        .map_err(|e| unreadable(path, path, e))?
        .join(path))
}

/// Where the link at `next` (the `links`th on the way to `path`) points, if it is one to follow:
/// this user's or root's, and not one too many.
fn link_target(
    path: &Path,
    next: &Path,
    meta: &Metadata,
    uid: u32,
    links: usize,
) -> Result<PathBuf, Unsafe> {
    let fail = |problem| Unsafe {
        folder: path.to_owned(),
        at: next.to_owned(),
        problem,
    };
    if meta.uid() != uid && meta.uid() != 0 {
        return Err(fail(Problem::OtherUsersLink { uid: meta.uid() }));
    }
    if links > MAX_LINKS {
        return Err(fail(Problem::TooManyLinks));
    }
    std::fs::read_link(next).map_err(|e| unreadable(path, next, e))
}

/// The plain names of `path` (`.` dropped, `..` kept for the walk to go up).
fn names(path: &Path) -> Vec<OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_owned()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect()
}

/// `dir` as walked: everything above it safe, and itself (once it exists) the user's and closed.
fn judge(dir: &Path, walk: &Walk, uid: u32) -> Result<(), Unsafe> {
    judge_all(dir, walk, uid, walk.missing.is_empty())
}

fn judge_all(dir: &Path, walk: &Walk, uid: u32, ends_at_dir: bool) -> Result<(), Unsafe> {
    let home = own_home().and_then(|h| std::fs::canonicalize(h).ok());
    // Beneath the home, what is above it is not looked at (OpenSSH stops there too).
    let home = home.filter(|h| walk.end.starts_with(h));
    for (i, (folder, meta)) in walk.folders.iter().enumerate() {
        if home
            .as_ref()
            .is_some_and(|h| h.starts_with(folder) && h != folder)
        {
            continue;
        }
        let is_dir = ends_at_dir && i + 1 == walk.folders.len();
        if let Some(problem) = problem(meta, uid, is_dir) {
            return Err(Unsafe {
                folder: dir.to_owned(),
                at: folder.clone(),
                problem,
            });
        }
    }
    Ok(())
}

/// The rule for one folder: the folder itself must be the user's own and closed to writes by
/// others; one above it may also be root's, or open to writes if sticky and root's or the user's.
fn problem(meta: &Metadata, uid: u32, is_dir: bool) -> Option<Problem> {
    let owner = meta.uid();
    let mine = owner == uid;
    if !(mine || (!is_dir && owner == 0)) {
        return Some(Problem::OtherOwner { uid: owner });
    }
    let mode = meta.mode() & 0o7777;
    let sticky = mode & 0o1000 != 0;
    if mode & 0o022 != 0 && (is_dir || !sticky) {
        return Some(Problem::Writable { mode });
    }
    None
}

/// The user's home as the password database has it (what OpenSSH uses), not `$HOME`.
fn own_home() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let uid = crate::platform::own_user::own_uid();
    let mut buf = vec![0u8; 4096];
    // SAFETY: zeroed passwd is a valid value to be filled by getpwuid_r.
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut result: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; `buf` outlives the reads of `pwd` below.
    let rc = unsafe {
        libc::getpwuid_r(
            uid,
            &mut pwd,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut result,
        )
    };
    if rc != 0 || result.is_null() || pwd.pw_dir.is_null() {
        return None;
    }
    // SAFETY: getpwuid_r succeeded: pw_dir points at a NUL-terminated string inside `buf`.
    let dir = unsafe { std::ffi::CStr::from_ptr(pwd.pw_dir) };
    let dir = std::ffi::OsStr::from_bytes(dir.to_bytes());
    (!dir.is_empty()).then(|| PathBuf::from(dir))
}

#[cfg(test)]
mod tests;
