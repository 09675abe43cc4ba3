//! What `redline diff --edit` writes once a file is accepted: exactly the accepted bytes, whole,
//! to RIGHT as the instance checked it and nowhere else; or, when that cannot be, beside it.

use crate::error::{Error, Result};
use crate::platform::folder::Folder;
use crate::platform::private_file;
use crate::review::OnDisk;
use crate::surfaces::SurfaceError;
use std::ffi::{OsStr, OsString};
use std::fs::Metadata;
use std::path::{Path, PathBuf};

/// What became of an accepted file.
#[derive(Debug, PartialEq, Eq)]
pub enum Landed {
    /// RIGHT now holds the accepted text (this file: a link's target for `git difftool -d`).
    Wrote(PathBuf),
    /// RIGHT already held exactly the accepted bytes: nothing was written.
    AlreadyThere,
}

/// How many `NAME.redline-accepted[-N]` names are tried beside RIGHT before the spare folder.
const KEEP_NAMES: u32 = 100;

/// Writes `accepted` to `target` if it still holds `before` (what the command read and showed).
/// Otherwise (it changed, went, became a link; or the instance named no file it checked) the
/// accepted text is kept in a new file beside it, else in `spare`, and the error names that
/// file: what the user accepted is never dropped. `shown` is RIGHT as the user named it.
pub fn write(
    target: Option<&OnDisk>,
    shown: &Path,
    before: &[u8],
    accepted: &[u8],
    spare: &Path,
) -> Result<Landed, SurfaceError> {
    let mut beside = None;
    let (why, meta) = match target {
        None => (
            "the running Redline did not say which file it checked (restart it)".to_owned(),
            None,
        ),
        Some(t) => match open(t) {
            Err(e) => (
                format!("its folder cannot be opened where it was checked ({e})"),
                None,
            ),
            Ok((folder, name)) => {
                let tried = replace(&folder, &name, before, accepted);
                beside = Some((folder, name));
                match tried {
                    Ok(w) => return Ok(w),
                    Err(failed) => failed,
                }
            }
        },
    };
    let path = target.map_or_else(|| shown.to_path_buf(), |t| t.path.clone());
    match keep(beside.as_ref(), meta.as_deref(), shown, accepted, spare) {
        Ok(kept) => Err(SurfaceError::NotWritten { path, why, kept }),
        Err(e) => Err(SurfaceError::NotKept {
            path,
            why,
            error: e.to_string(),
        }),
    }
}

/// The folder holding the checked file, opened beneath its root, and the file's name.
fn open(t: &OnDisk) -> std::io::Result<(Folder, OsString)> {
    let rel = t.path.strip_prefix(&t.root).map_err(|_| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "not beneath its root")
    })?;
    Folder::holding(&t.root, rel)
}

/// Replaces `name` with `accepted` if it holds `before`; else why not, and its metadata if read.
fn replace(
    folder: &Folder,
    name: &OsStr,
    before: &[u8],
    accepted: &[u8],
) -> std::result::Result<Landed, (String, Option<Box<Metadata>>)> {
    let limit = before.len().max(accepted.len()) as u64;
    let now = match folder.read(name, limit) {
        Ok(now) => now,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(("it was deleted while it was under review".into(), None))
        }
        Err(e) => {
            return Err((
                format!("it cannot be read where it was checked ({e})"),
                None,
            ))
        }
    };
    if now.bytes == accepted {
        return Ok(Landed::AlreadyThere);
    }
    if now.bytes != before {
        return Err((
            "it changed while it was under review".into(),
            Some(Box::new(now.meta)),
        ));
    }
    match folder.replace(name, accepted, &now.meta) {
        Ok(()) => Ok(Landed::Wrote(folder.path_of(name))),
        Err(e) => Err((
            format!("it cannot be replaced ({e})"),
            Some(Box::new(now.meta)),
        )),
    }
}

/// Puts `accepted` in a new file: `NAME.redline-accepted` (then `-2`, `-3`, …) beside RIGHT,
/// never over anything there; else in `spare`, created private. Where it went.
fn keep(
    beside: Option<&(Folder, OsString)>,
    meta: Option<&Metadata>,
    shown: &Path,
    accepted: &[u8],
    spare: &Path,
) -> Result<PathBuf> {
    if let Some((folder, name)) = beside {
        if let Ok(Some(kept)) = keep_in(folder, name, accepted, meta) {
            return Ok(kept);
        }
    }
    private_file::ensure_dir(spare)?;
    let name = shown
        .file_name()
        .map_or_else(|| OsString::from("file"), OsStr::to_owned);
    let (folder, _) = Folder::holding(spare, Path::new(&name)).map_err(|e| Error::io(spare, e))?;
    keep_in(&folder, &name, accepted, None)
        .map_err(|e| Error::io(spare, e))?
        .ok_or_else(|| {
            Error::io(
                spare,
                std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "every name for the accepted text is taken",
                ),
            )
        })
}

/// The first free `NAME.redline-accepted[-N]` in `folder`, written; `None` if all are taken.
fn keep_in(
    folder: &Folder,
    name: &OsStr,
    accepted: &[u8],
    meta: Option<&Metadata>,
) -> std::io::Result<Option<PathBuf>> {
    for n in 1..=KEEP_NAMES {
        let mut kept = name.to_owned();
        kept.push(".redline-accepted");
        if n > 1 {
            kept.push(format!("-{n}"));
        }
        match folder.create_new(&kept, accepted, meta) {
            Ok(()) => return Ok(Some(folder.path_of(&kept))),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    struct World {
        _tmp: tempfile::TempDir,
        base: PathBuf,
        ws: PathBuf,
        spare: PathBuf,
    }

    fn world() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let base = dunce::canonicalize(tmp.path()).unwrap();
        let ws = base.join("ws");
        std::fs::create_dir_all(ws.join("sub")).unwrap();
        std::fs::create_dir(base.join("outside")).unwrap();
        World {
            spare: base.join("spare"),
            _tmp: tmp,
            base,
            ws,
        }
    }

    fn target(w: &World, rel: &str) -> OnDisk {
        OnDisk {
            root: w.ws.clone(),
            path: w.ws.join(rel),
        }
    }

    fn kept(e: SurfaceError) -> PathBuf {
        match e {
            SurfaceError::NotWritten { kept, .. } => kept,
            e => panic!("not kept: {e}"),
        }
    }

    /// A folder on the way swapped for a link out of the workspace after the check: the write
    /// never goes through it, and the accepted text lands in the spare folder.
    #[test]
    fn a_folder_swapped_for_a_link_is_never_written_through() {
        let w = world();
        std::fs::write(w.ws.join("sub/f"), "before").unwrap();
        std::fs::write(w.base.join("outside/f"), "before").unwrap();
        std::fs::rename(w.ws.join("sub"), w.ws.join("was-sub")).unwrap();
        std::os::unix::fs::symlink(w.base.join("outside"), w.ws.join("sub")).unwrap();
        let t = target(&w, "sub/f");
        let err = write(Some(&t), &t.path, b"before", b"mine", &w.spare).unwrap_err();
        let msg = err.to_string();
        let kept = kept(err);
        assert_eq!(std::fs::read(w.base.join("outside/f")).unwrap(), b"before");
        assert_eq!(kept, w.spare.join("f.redline-accepted"), "{msg}");
        assert_eq!(std::fs::read(&kept).unwrap(), b"mine");
        assert!(msg.contains(&*kept.to_string_lossy()), "{msg}");
    }

    /// RIGHT itself replaced by a link (to a file holding what was read): never followed, and
    /// the accepted text goes beside it.
    #[test]
    fn right_turned_into_a_link_is_not_followed() {
        let w = world();
        std::fs::write(w.base.join("outside/f"), "before").unwrap();
        std::os::unix::fs::symlink(w.base.join("outside/f"), w.ws.join("sub/f")).unwrap();
        let t = target(&w, "sub/f");
        let kept = kept(write(Some(&t), &t.path, b"before", b"mine", &w.spare).unwrap_err());
        assert_eq!(std::fs::read(w.base.join("outside/f")).unwrap(), b"before");
        assert_eq!(kept, w.ws.join("sub/f.redline-accepted"));
        assert_eq!(std::fs::read(&kept).unwrap(), b"mine");
    }

    /// No file named by the instance: nothing is written anywhere near RIGHT; the spare folder
    /// keeps the text, next to (never over) what it already holds.
    #[test]
    fn without_a_checked_file_the_text_goes_to_the_spare_folder() {
        let w = world();
        let shown = w.ws.join("sub/f");
        std::fs::write(&shown, "before").unwrap();
        std::fs::create_dir(&w.spare).unwrap();
        std::fs::write(w.spare.join("f.redline-accepted"), "older").unwrap();
        let kept = kept(write(None, &shown, b"before", b"mine", &w.spare).unwrap_err());
        assert_eq!(kept, w.spare.join("f.redline-accepted-2"));
        assert_eq!(std::fs::read(&kept).unwrap(), b"mine");
        assert_eq!(
            std::fs::read(w.spare.join("f.redline-accepted")).unwrap(),
            b"older"
        );
        assert_eq!(std::fs::read(&shown).unwrap(), b"before");
    }

    /// What the user accepted is already on disk (whoever put it there): nothing is written.
    #[test]
    fn the_accepted_bytes_already_there_are_not_rewritten() {
        use std::os::unix::fs::MetadataExt;
        let w = world();
        let t = target(&w, "sub/f");
        std::fs::write(&t.path, "mine").unwrap();
        let ino = std::fs::metadata(&t.path).unwrap().ino();
        let got = write(Some(&t), &t.path, b"before", b"mine", &w.spare).unwrap();
        assert_eq!(got, Landed::AlreadyThere);
        assert_eq!(std::fs::metadata(&t.path).unwrap().ino(), ino);
        assert!(!w.spare.exists());
    }
}
