//! How a command reaches Redline: its request to the running instance (or, with none, to the
//! stored config), with the paths it names made absolute against the current directory.

use redline_core::platform::dirs::Dirs;
use redline_core::runtime::command::{self, Answer};
use redline_core::runtime::instance::World;
use redline_core::surfaces::action::Act;
use redline_core::{Error, Result};
use std::path::{Component, Path, PathBuf};

/// The action to the running instance, or with none to the stored config; its reply typed.
pub(crate) async fn ask<A: Act>(dirs: &Dirs, req: A) -> Result<Answer<A::Reply>> {
    command::send(dirs, req, || World::os(dirs.clone())).await
}

/// `p` against the current directory, without `.` and without `dir/..` detours where `dir` is a
/// real directory (the same file, named as a person would). Across a symlink `..` leads to the
/// target's parent, so there it stays as written. Refused unless UTF-8, as every path the
/// instance takes is.
pub(crate) fn absolute(p: &Path) -> Result<PathBuf> {
    let whole = std::path::absolute(p).map_err(|e| Error::io(p, e))?;
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

pub(crate) fn current_dir() -> Result<PathBuf> {
    let dir = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    utf8(&dir)?;
    Ok(dir)
}
