//! The current directory a command runs in, and paths made absolute against it: injected, so
//! that how a path argument is resolved is testable without changing the process's directory.

use redline_core::{Error, Result};
use std::path::{Component, Path, PathBuf};

/// The current directory, looked up only when a command needs it (`redline status` works in a
/// directory that was deleted).
pub(crate) struct Here {
    cwd: Box<dyn Fn() -> std::io::Result<PathBuf>>,
}

impl Here {
    /// The process's own current directory.
    pub(crate) fn os() -> Here {
        Here::at(std::env::current_dir)
    }

    /// Whatever `cwd` says is the current directory.
    pub(crate) fn at(cwd: impl Fn() -> std::io::Result<PathBuf> + 'static) -> Here {
        Here { cwd: Box::new(cwd) }
    }

    /// The current directory itself, refused unless UTF-8.
    pub(crate) fn dir(&self) -> Result<PathBuf> {
        let dir = (self.cwd)().map_err(|e| Error::io(".", e))?;
        utf8(&dir)?;
        Ok(dir)
    }

    /// `p` made absolute, else the current directory.
    pub(crate) fn or_dir(&self, p: Option<PathBuf>) -> Result<PathBuf> {
        p.map_or_else(|| self.dir(), |p| self.absolute(&p))
    }

    /// `p` against the current directory, without `.` and without `dir/..` detours where `dir`
    /// is a real directory (the same file, named as a person would). Across a symlink `..` leads
    /// to the target's parent, so there it stays as written. Refused unless UTF-8, as every path
    /// the instance takes is.
    pub(crate) fn absolute(&self, p: &Path) -> Result<PathBuf> {
        let whole = self.joined(p).map_err(|e| Error::io(p, e))?;
        let mut out = PathBuf::new();
        for part in whole.components() {
            match part {
                Component::CurDir => {}
                Component::ParentDir if is_plain_dir(&out) => {
                    out.pop();
                }
                part => out.push(part),
            }
        }
        utf8(&out)?;
        Ok(out)
    }

    /// `p` below the current directory unless it is absolute, as `std::path::absolute` makes it
    /// (which also refuses an empty path, and on Windows resolves a drive's own directory).
    fn joined(&self, p: &Path) -> std::io::Result<PathBuf> {
        if p.is_absolute() || p.as_os_str().is_empty() {
            return std::path::absolute(p);
        }
        std::path::absolute((self.cwd)()?.join(p))
    }
}

/// A directory that is not a symlink, and not the root (`/..` is `/` and stays as written).
fn is_plain_dir(p: &Path) -> bool {
    matches!(p.components().next_back(), Some(Component::Normal(_)))
        && std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
}

/// `p` as text, or the error a user reads: which path, and that only UTF-8 names work.
pub(crate) fn utf8(p: &Path) -> Result<&str> {
    p.to_str().ok_or_else(|| {
        Error::Usage(format!(
            "{}: this name is not valid UTF-8, and Redline handles UTF-8 paths only; rename it",
            p.display()
        ))
    })
}

#[cfg(test)]
#[path = "here_tests.rs"]
mod tests;
