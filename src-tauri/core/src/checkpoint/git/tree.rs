//! What the store's trees and blobs hold: a path's entry (mode and blob), blob sizes and bytes,
//! the store's refs, and what its objects take on disk.

use super::{args, id, Git};
use crate::checkpoint::changes;
use crate::checkpoint::error::{CheckpointError, CheckpointResult as Result};
use crate::checkpoint::object::ObjectId;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

/// A file as a tree holds it: its git mode and blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeEntry {
    pub mode: u32,
    pub id: ObjectId,
}

/// Git's mode of an executable file; 0o100644 is a file that is not.
pub const EXECUTABLE: u32 = 0o100755;
pub const REGULAR: u32 = 0o100644;

impl Git {
    /// `path`'s entry in `tree`: `None` if there is none (or it is a folder).
    pub fn entry(&self, tree: &ObjectId, path: &Path) -> Result<Option<TreeEntry>> {
        let mut a = args(&["ls-tree", "-z", "--full-tree", &tree.0, "--"]);
        a.push(path.as_os_str().to_owned());
        let out = self.run_literal("ls-tree", &a)?;
        // `<mode> <type> <id>\t<path>\0`, nothing when there is no such entry.
        let Some(head) = out.split(|b| *b == b'\t').next().filter(|h| !h.is_empty()) else {
            return Ok(None);
        };
        let head = String::from_utf8_lossy(head);
        let mut parts = head.split(' ');
        let (Some(mode), Some(kind), Some(oid)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(CheckpointError::Unreadable(format!(
                "git ls-tree: {head:?}"
            )));
        };
        if kind == "tree" {
            return Ok(None);
        }
        let mode = u32::from_str_radix(mode, 8)
            .map_err(|_| CheckpointError::Unreadable(format!("git ls-tree: mode {mode:?}")))?;
        Ok(Some(TreeEntry {
            mode,
            id: id(oid.as_bytes())?,
        }))
    }

    /// The size in bytes of object `id`, read without reading the object.
    pub fn size(&self, oid: &ObjectId) -> Result<u64> {
        let out = self.run("cat-file", &args(&["cat-file", "-s", &oid.0]))?;
        let text = String::from_utf8_lossy(&out);
        text.trim()
            .parse()
            .map_err(|_| CheckpointError::Unreadable(format!("git cat-file -s: {text:?}")))
    }

    /// The size in bytes of every file in `tree`, by path (`git ls-tree -r -l`: one process,
    /// no file read).
    pub fn sizes(&self, tree: &ObjectId) -> Result<Vec<(PathBuf, u64)>> {
        let out = self.run("ls-tree", &args(&["ls-tree", "-r", "-l", "-z", &tree.0]))?;
        // `<mode> <type> <id> <size>\t<path>\0`; a submodule's size is `-`.
        let mut sizes = Vec::new();
        for entry in out.split(|b| *b == 0).filter(|e| !e.is_empty()) {
            let mut cols = entry.splitn(2, |b| *b == b'\t');
            let (Some(head), Some(path)) = (cols.next(), cols.next()) else {
                return Err(CheckpointError::Unreadable(
                    "git ls-tree -l: no path".into(),
                ));
            };
            let head = String::from_utf8_lossy(head);
            if let Some(Ok(size)) = head.split_whitespace().nth(3).map(str::parse::<u64>) {
                sizes.push((changes::path_of(path), size));
            }
        }
        Ok(sizes)
    }

    /// The bytes of blob `id`.
    pub fn read_blob(&self, oid: &ObjectId) -> Result<Vec<u8>> {
        self.run("cat-file", &args(&["cat-file", "blob", &oid.0]))
    }

    /// The bytes of each file `(tree, path)` names (each one there), in one `git cat-file
    /// --batch`; one past `limit` bytes is refused (`TooLarge`) before its bytes are read.
    pub fn read_files(&self, files: &[(&ObjectId, &Path)], limit: u64) -> Result<Vec<Vec<u8>>> {
        let mut names = Vec::new();
        for (tree, path) in files {
            names.extend_from_slice(tree.0.as_bytes());
            names.push(b':');
            names.extend_from_slice(path.as_os_str().as_encoded_bytes());
            names.push(b'\n');
        }
        let mut child = self
            .command()
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(CheckpointError::GitMissing)?;
        let read = batch(&mut child, &names, files, limit);
        // Refused or unreadable: git is not left writing a large file nobody reads.
        if read.is_err() {
            let _ = child.kill();
        }
        let _ = child.wait();
        read
    }

    /// The refs under `prefix` (e.g. `refs/redline/turns/`), by full name.
    pub fn refs(&self, prefix: &str) -> Result<Vec<String>> {
        let out = self.run(
            "for-each-ref",
            &args(&["for-each-ref", "--format=%(refname)", prefix]),
        )?;
        Ok(String::from_utf8_lossy(&out)
            .lines()
            .map(str::to_owned)
            .collect())
    }

    pub fn delete_ref(&self, name: &str) -> Result<()> {
        self.run("update-ref", &args(&["update-ref", "-d", name]))
            .map(|_| ())
    }

    /// Removes the store's own objects no ref or index entry reaches. Only ever the store's:
    /// git prunes its own object folder, never one it borrows from (`alternates`).
    pub fn prune(&self) -> Result<()> {
        self.run("prune", &args(&["prune", "--expire=now"]))
            .map(|_| ())
    }

    /// The bytes the store's own objects take (loose and packed; borrowed ones not counted).
    pub fn own_bytes(&self) -> Result<u64> {
        let out = self.run("count-objects", &args(&["count-objects", "-v"]))?;
        let text = String::from_utf8_lossy(&out);
        let kib: u64 = text
            .lines()
            .filter_map(|l| l.split_once(": "))
            .filter(|(k, _)| matches!(*k, "size" | "size-pack" | "size-garbage"))
            .filter_map(|(_, v)| v.trim().parse::<u64>().ok())
            .sum();
        Ok(kib * 1024)
    }
}

/// Sends `names` (a few lines: they fit the pipe before git answers) to `cat-file --batch`, then
/// reads each answer: `<id> blob <size>\n<bytes>\n`, or `<name> missing\n`.
fn batch(
    child: &mut Child,
    names: &[u8],
    files: &[(&ObjectId, &Path)],
    limit: u64,
) -> Result<Vec<Vec<u8>>> {
    let unreadable =
        |why: String| CheckpointError::Unreadable(format!("git cat-file --batch: {why}"));
    let (Some(mut input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(unreadable("no pipe".into()));
    };
    let io = |e: std::io::Error| unreadable(e.to_string());
    input.write_all(names).map_err(io)?;
    drop(input);
    let mut output = BufReader::new(output);
    let mut read = Vec::with_capacity(files.len());
    for (_, path) in files {
        let mut head = Vec::new();
        output.read_until(b'\n', &mut head).map_err(io)?;
        let head = String::from_utf8_lossy(&head);
        let cols: Vec<&str> = head.trim_end().split(' ').collect();
        let [_, "blob", size] = cols[..] else {
            return Err(unreadable(format!("{}: {head:?}", path.display())));
        };
        let size: u64 = size
            .parse()
            .map_err(|_| unreadable(format!("size {size:?}")))?;
        if size > limit {
            return Err(CheckpointError::TooLarge {
                path: path.to_path_buf(),
                size,
                limit,
            });
        }
        let mut bytes = Vec::new();
        (&mut output)
            .take(size)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let mut end = [0u8; 1];
        output.read_exact(&mut end).map_err(io)?;
        if bytes.len() as u64 != size || end != *b"\n" {
            return Err(unreadable(format!("{}: cut short", path.display())));
        }
        read.push(bytes);
    }
    Ok(read)
}
