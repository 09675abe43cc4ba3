//! The two sides `redline diff` compares, read by the command itself (git's temp files are in no
//! workspace): two files, or two directories walked into their changed files, all bounded.

use crate::error::{Error, Result};
use crate::review::ReviewError;
use crate::surfaces::SurfaceError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The most files one `redline diff` opens (one tab each).
pub const MAX_DIFF_FILES: usize = 64;
/// The text one `redline diff` may send, both sides of every file together: 32 MiB.
pub const MAX_DIFF_BYTES: usize = 32 * 1024 * 1024;
/// One changed file of a `redline diff`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DiffFile {
    /// The file on the right, absolute (whether or not it exists).
    pub path: PathBuf,
    /// LEFT's text; `None`: the file is only on the right (added).
    pub left: Option<String>,
    /// RIGHT's text; `None`: the file is only on the left (removed).
    pub right: Option<String>,
}

/// Entries walked in both directories together before giving up (a tree, not a disk).
const MAX_ENTRIES: usize = 100_000;

/// What `redline diff LEFT RIGHT` sends: the changed files, what labels are relative to, and the
/// files left out because they are not text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pair {
    pub root: PathBuf,
    pub files: Vec<DiffFile>,
    pub skipped: Vec<PathBuf>,
}

/// Reads LEFT and RIGHT (absolute paths). `/dev/null` on either side is a file that is not there,
/// as git passes it for an added or removed file.
pub fn read(left: &Path, right: &Path) -> Result<Pair> {
    let mut budget = Budget(MAX_DIFF_BYTES);
    match (absent(left), absent(right)) {
        (true, true) => Ok(Pair::default()),
        (false, false) if left.is_dir() && right.is_dir() => read_dirs(left, right, &mut budget),
        (false, false) if left.is_dir() || right.is_dir() => Err(SurfaceError::MixedPair {
            left: left.to_path_buf(),
            right: right.to_path_buf(),
        }
        .into()),
        _ => {
            let shown = if absent(right) { left } else { right };
            let root = shown.parent().map_or_else(PathBuf::new, Path::to_path_buf);
            let mut pair = Pair {
                root,
                ..Pair::default()
            };
            pair.add(shown.to_path_buf(), side(left), side(right), &mut budget)?;
            Ok(pair)
        }
    }
}

fn absent(p: &Path) -> bool {
    p == Path::new("/dev/null") || p.as_os_str().eq_ignore_ascii_case("nul")
}

fn side(p: &Path) -> Option<&Path> {
    (!absent(p)).then_some(p)
}

fn read_dirs(left: &Path, right: &Path, budget: &mut Budget) -> Result<Pair> {
    let mut names = BTreeSet::new();
    let mut entries = 0;
    walk(left, Path::new(""), &mut names, &mut entries)?;
    walk(right, Path::new(""), &mut names, &mut entries)?;
    let mut pair = Pair {
        root: right.to_path_buf(),
        ..Pair::default()
    };
    for rel in names {
        let (l, r) = (left.join(&rel), right.join(&rel));
        let l = l.is_file().then_some(l);
        let r = r.is_file().then_some(r);
        pair.add(right.join(&rel), l.as_deref(), r.as_deref(), budget)?;
        if pair.files.len() > MAX_DIFF_FILES {
            return Err(SurfaceError::TreesTooWide {
                left: left.to_path_buf(),
                right: right.to_path_buf(),
                limit: MAX_DIFF_FILES,
            }
            .into());
        }
    }
    Ok(pair)
}

/// Collects the relative paths of the files under `dir`. Symlinked directories are not entered
/// (no loops, no escaping the tree); symlinked files are read (git's `--dir-diff` links to the
/// working tree).
fn walk(dir: &Path, rel: &Path, out: &mut BTreeSet<PathBuf>, entries: &mut usize) -> Result<()> {
    let list = std::fs::read_dir(dir.join(rel)).map_err(|e| Error::io(dir.join(rel), e))?;
    for entry in list {
        let entry = entry.map_err(|e| Error::io(dir.join(rel), e))?;
        *entries += 1;
        if *entries > MAX_ENTRIES {
            return Err(SurfaceError::TooManyEntries {
                dir: dir.to_path_buf(),
                limit: MAX_ENTRIES,
            }
            .into());
        }
        let name = rel.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| Error::io(entry.path(), e))?;
        if kind.is_dir() {
            walk(dir, &name, out, entries)?;
        } else if entry.path().is_file() {
            out.insert(name);
        }
    }
    Ok(())
}

/// Whether both sides exist and hold the same bytes, compared a block at a time.
fn same_bytes(left: Option<&Path>, right: Option<&Path>) -> Result<bool> {
    use std::io::Read;
    let (Some(l), Some(r)) = (left, right) else {
        return Ok(false);
    };
    let open = |p: &Path| std::fs::File::open(p).map_err(|e| Error::io(p, e));
    let (mut a, mut b) = (open(l)?, open(r)?);
    let (mut x, mut y) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let n = a.read(&mut x).map_err(|e| Error::io(l, e))?;
        // Fill the same count from the other side (a read may return less than asked).
        let mut got = 0;
        while got < n {
            match b.read(&mut y[got..n]).map_err(|e| Error::io(r, e))? {
                0 => return Ok(false),
                m => got += m,
            }
        }
        if x[..n] != y[..n] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(b.read(&mut y[..1]).map_err(|e| Error::io(r, e))? == 0);
        }
    }
}

/// What is left of the text `redline diff` may send.
struct Budget(usize);

enum Text {
    Some(String),
    NotText,
}

impl Pair {
    /// Adds `path`'s pair if the two sides differ; a side that is not text skips the file.
    fn add(
        &mut self,
        path: PathBuf,
        left: Option<&Path>,
        right: Option<&Path>,
        budget: &mut Budget,
    ) -> Result<()> {
        let mut text = |p: Option<&Path>| p.map(|p| read_text(p, budget)).transpose();
        let (left, right) = match (text(left)?, text(right)?) {
            (Some(Text::NotText), _) | (_, Some(Text::NotText)) => {
                // Only a difference is worth a note (and makes `redline diff` answer "differ").
                if !same_bytes(left, right)? {
                    self.skipped.push(path);
                }
                return Ok(());
            }
            (l, r) => (l.map(Text::into_string), r.map(Text::into_string)),
        };
        if left != right {
            self.files.push(DiffFile { path, left, right });
        }
        Ok(())
    }
}

impl Text {
    fn into_string(self) -> String {
        match self {
            Text::Some(s) => s,
            Text::NotText => String::new(),
        }
    }
}

/// A file's text, counted against the budget; reading stops one byte past what is left.
fn read_text(path: &Path, budget: &mut Budget) -> Result<Text> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    let limit = budget.0 as u64 + 1;
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() > budget.0 {
        return Err(ReviewError::TooLarge {
            path: path.to_string_lossy().into_owned(),
            size: std::fs::metadata(path).map_or(bytes.len() as u64, |m| m.len()),
            limit: MAX_DIFF_BYTES as u64,
        }
        .into());
    }
    budget.0 -= bytes.len();
    Ok(match String::from_utf8(bytes) {
        Ok(s) => Text::Some(s),
        Err(_) => Text::NotText,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &[u8]) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn directories_give_one_file_per_change_added_and_removed_included() {
        let tmp = tempfile::tempdir().unwrap();
        let (l, r) = (tmp.path().join("l"), tmp.path().join("r"));
        write(&l, "same.txt", b"x\n");
        write(&r, "same.txt", b"x\n");
        write(&l, "sub/changed.rs", b"a\n");
        write(&r, "sub/changed.rs", b"b\n");
        write(&l, "gone.txt", b"old\n");
        write(&r, "new.txt", b"new\n");
        write(&l, "blob.bin", &[0xff, 0xfe]);
        write(&r, "blob.bin", &[0xff, 0xfd]);
        let pair = read(&l, &r).unwrap();
        assert_eq!(pair.root, r);
        let got: Vec<_> = pair
            .files
            .iter()
            .map(|f| {
                (
                    f.path.strip_prefix(&r).unwrap().to_path_buf(),
                    f.left.clone(),
                    f.right.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("gone.txt".into(), Some("old\n".into()), None),
                ("new.txt".into(), None, Some("new\n".into())),
                (
                    "sub/changed.rs".into(),
                    Some("a\n".into()),
                    Some("b\n".into())
                ),
            ]
        );
        assert_eq!(pair.skipped, vec![r.join("blob.bin")]);
    }

    #[test]
    fn two_files_or_dev_null_for_the_missing_side() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "a", b"1\n");
        write(tmp.path(), "b", b"2\n");
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        let pair = read(&a, &b).unwrap();
        assert_eq!(pair.root, tmp.path());
        assert_eq!(
            pair.files,
            vec![DiffFile {
                path: b.clone(),
                left: Some("1\n".into()),
                right: Some("2\n".into())
            }]
        );
        let added = read(Path::new("/dev/null"), &b).unwrap();
        assert_eq!(added.files[0].left, None);
        let removed = read(&a, Path::new("/dev/null")).unwrap();
        assert_eq!(
            (
                removed.files[0].path.clone(),
                removed.files[0].right.clone()
            ),
            (a.clone(), None)
        );
        assert!(read(&a, &a).unwrap().files.is_empty(), "no change, no tab");
        assert!(read(&a, tmp.path()).is_err(), "a file against a directory");
    }

    #[test]
    fn too_much_text_or_too_many_files_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let big = tmp.path().join("big");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_DIFF_BYTES as u64 + 1)
            .unwrap();
        let err = read(Path::new("/dev/null"), &big).unwrap_err();
        assert_eq!(err.code(), crate::error::FaultCode::TooLarge, "{err}");
        let (l, r) = (tmp.path().join("l"), tmp.path().join("r"));
        std::fs::create_dir(&l).unwrap();
        for i in 0..=MAX_DIFF_FILES {
            write(&r, &format!("f{i}"), b"x");
        }
        assert_eq!(
            read(&l, &r).unwrap_err().code(),
            crate::error::FaultCode::Usage
        );
    }
}
