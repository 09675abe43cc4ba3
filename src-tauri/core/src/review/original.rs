//! Reads the file a proposal would replace: the "before" side of every protocol's review.

use crate::error::{Error, Result};
use crate::platform::beneath;
use crate::review::ReviewError;
use crate::workspace::Workspace;
use crate::workspace::WorkspaceError;
use std::io::Read;
use std::path::Path;

/// A file's text as the review shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Original {
    pub text: String,
    /// The bytes are UTF-8. When they are not, `text` holds U+FFFD for each invalid sequence, for
    /// showing only (marked so): Redline writes no original back, and the CLI writes its proposal.
    pub utf8: bool,
    /// `Some(size)`: the file is no text at all (see `is_binary`), `size` bytes long. The review
    /// shows "binary file, N bytes", not `text`, which is kept only to tell whether the file
    /// changed on disk since.
    pub binary: Option<u64>,
}

impl Original {
    /// The file's bytes as the review holds them: text, text marked not UTF-8, or binary.
    pub fn from_bytes(bytes: Vec<u8>) -> Original {
        let size = bytes.len() as u64;
        let binary = is_binary(&bytes).then_some(size);
        match String::from_utf8(bytes) {
            Ok(text) => Original {
                text,
                utf8: true,
                binary,
            },
            Err(e) => Original {
                text: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                utf8: false,
                binary,
            },
        }
    }
}

/// Not text: a NUL byte anywhere (as git and diff decide), or invalid UTF-8 so dense that the
/// text would be U+FFFD all over (an invalid sequence in more than one byte in four, and at least
/// 8; random bytes have about two in five): a Latin-1 file, even one dense with accents (about
/// one in six), stays text, marked not UTF-8.
pub fn is_binary(bytes: &[u8]) -> bool {
    if bytes.contains(&0) {
        return true;
    }
    let mut invalid = 0usize;
    for chunk in bytes.utf8_chunks() {
        if !chunk.invalid().is_empty() {
            invalid += 1;
        }
    }
    invalid >= 8 && invalid * 4 > bytes.len()
}

impl From<String> for Original {
    fn from(text: String) -> Self {
        Original {
            text,
            utf8: true,
            binary: None,
        }
    }
}

impl From<&str> for Original {
    fn from(text: &str) -> Self {
        text.to_owned().into()
    }
}

/// The largest original Redline reads (32 MiB): bigger files are refused before a byte is read.
pub const MAX_ORIGINAL_BYTES: u64 = 32 * 1024 * 1024;

/// The file's text, or `None` when it does not exist yet (a new-file review). `file_path` is the
/// path as the CLI sent it, for messages; `path` is the resolved, confined one, opened beneath
/// the workspace root holding it (see `beneath`), so a folder swapped for a link since the check
/// cannot lead outside. Runs on the blocking pool, and never blocks even there: a FIFO, socket or
/// device is refused unread.
pub async fn read(workspace: &Workspace, path: &Path, file_path: &str) -> Result<Option<Original>> {
    let (ws, owned, shown) = (workspace.clone(), path.to_path_buf(), file_path.to_owned());
    tokio::task::spawn_blocking(move || read_blocking(&ws, &owned, &shown))
        .await
        .map_err(|e| Error::io(path, std::io::Error::other(e)))?
}

/// As `read`, on the calling thread: for a caller that is not async (it never blocks either).
pub fn read_blocking(
    workspace: &Workspace,
    path: &Path,
    file_path: &str,
) -> Result<Option<Original>> {
    let Some((root, rel)) = workspace
        .roots
        .iter()
        .find_map(|r| Some((r, path.strip_prefix(r).ok()?)))
    else {
        return Err(WorkspaceError::OutsideWorkspace {
            path: file_path.to_owned(),
            roots: workspace.joined(),
        }
        .into());
    };
    read_now(root, rel, path, file_path)
}

fn read_now(root: &Path, rel: &Path, path: &Path, file_path: &str) -> Result<Option<Original>> {
    // A cheap early refusal that avoids even opening a device; the check that counts is the
    // fstat of the opened descriptor below (the path may change in between).
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => return Err(ReviewError::IsDirectory(file_path.to_owned()).into()),
        Ok(m) if !m.is_file() && !m.file_type().is_symlink() => {
            return Err(ReviewError::NotRegularFile(file_path.to_owned()).into())
        }
        _ => {}
    }
    let file = match beneath::open(root, rel) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) if path.is_dir() => {
            return Err(ReviewError::IsDirectory(file_path.to_owned()).into())
        }
        Err(e) => match link_refusal(&e) {
            Some(reason) => {
                return Err(WorkspaceError::BadPath {
                    path: file_path.to_owned(),
                    reason,
                }
                .into())
            }
            None => return Err(Error::io(path, e)),
        },
    };
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        return Err(ReviewError::IsDirectory(file_path.to_owned()).into());
    }
    if !meta.is_file() {
        return Err(ReviewError::NotRegularFile(file_path.to_owned()).into());
    }
    let too_large = |size| ReviewError::TooLarge {
        path: file_path.to_owned(),
        size,
        limit: MAX_ORIGINAL_BYTES,
    };
    if meta.len() > MAX_ORIGINAL_BYTES {
        return Err(too_large(meta.len()).into());
    }
    // The file may grow after the fstat: read one byte past the limit at most.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_ORIGINAL_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_ORIGINAL_BYTES {
        return Err(too_large(bytes.len() as u64).into());
    }
    Ok(Some(Original::from_bytes(bytes)))
}

/// Why an open failed because a link appeared on the way since the path was checked.
fn link_refusal(e: &std::io::Error) -> Option<&'static str> {
    #[cfg(unix)]
    {
        match e.raw_os_error() {
            Some(libc::ELOOP) => Some("it became a symbolic link while being read"),
            Some(libc::EXDEV) => Some("a folder on the way became a link out of the workspace"),
            _ => None,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        None
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs::File;
    use std::time::Duration;

    /// A deadline, not a timing: before the fix a FIFO blocked this read for ever.
    const DEADLINE: Duration = Duration::from_secs(10);

    /// Reads `path` as a workspace rooted at its folder would.
    async fn read_within(path: &Path) -> Result<Option<Original>> {
        let root = path.parent().unwrap_or(path);
        let ws = Workspace::new(root.to_owned());
        tokio::time::timeout(DEADLINE, read(&ws, path, &path.to_string_lossy()))
            .await
            .expect("the read must never block")
    }

    /// While one thread flips a folder on the path between a real folder and a link out of the
    /// workspace as fast as it can, a path checked inside never reads what lies outside.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_folder_swapped_for_a_link_after_the_check_cannot_lead_outside() {
        use crate::platform::beneath::tests::{swappable, Swapper};
        let (_tmp, root) = swappable();
        let ws = Workspace::new(root.clone());
        let target = root.join("sub/f.txt").to_string_lossy().into_owned();
        let swapper = Swapper::start(&root.join("sub"), &root.join("alt"));
        let (mut checked, mut refused) = (0u32, 0u32);
        let mut leaked = None;
        for _ in 0..READS {
            let Ok(path) = ws.resolve(&target) else {
                continue;
            };
            checked += 1;
            match read(&ws, &path, &target).await {
                Ok(Some(o)) if o.text == "SECRET" => leaked = Some(o.text),
                Ok(_) => {}
                Err(_) => refused += 1,
            }
            if leaked.is_some() {
                break;
            }
        }
        let swaps = swapper.stop();
        assert_eq!(leaked, None, "read outside after {checked} checked reads");
        assert!(swaps > 0 && checked > 0, "{swaps} swaps, {checked} checked");
        eprintln!("{swaps} swaps, {checked} checked reads, {refused} refused");
    }

    /// Enough reads that the old open (which followed the swapped folder) read outside within
    /// them every time it was run.
    #[cfg(target_os = "linux")]
    const READS: u32 = 20_000;

    #[tokio::test]
    async fn fifos_and_sockets_are_refused_without_blocking() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let sock = tmp.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        for p in [&fifo, &sock] {
            let err = read_within(p).await.unwrap_err();
            assert_eq!(
                err.code(),
                crate::error::FaultCode::NotRegularFile,
                "{}",
                p.display()
            );
            assert!(err.to_string().contains(&*p.to_string_lossy()));
        }
        // Two at once used to wedge the whole runtime.
        let (a, b) = tokio::join!(read_within(&fifo), read_within(&fifo));
        assert!(a.is_err() && b.is_err());
    }

    #[tokio::test]
    async fn an_oversized_original_is_refused_before_it_is_read() {
        let tmp = tempfile::tempdir().unwrap();
        for size in [MAX_ORIGINAL_BYTES + 1, 2 << 30] {
            let big = tmp.path().join(format!("sparse-{size}"));
            File::create(&big).unwrap().set_len(size).unwrap();
            let err = read_within(&big).await.unwrap_err();
            assert_eq!(err.code(), crate::error::FaultCode::TooLarge);
            assert!(err.to_string().contains("up to 32 MiB"), "{err}");
        }
        let fits = tmp.path().join("fits");
        File::create(&fits)
            .unwrap()
            .set_len(MAX_ORIGINAL_BYTES)
            .unwrap();
        assert_eq!(
            read_within(&fits).await.unwrap().unwrap().text.len() as u64,
            MAX_ORIGINAL_BYTES
        );
    }

    #[tokio::test]
    async fn files_directories_and_missing_files() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("f");
        std::fs::write(&f, "text").unwrap();
        let text = |t: &str| Some(Original::from(t));
        assert_eq!(read_within(&f).await.unwrap(), text("text"));
        assert_eq!(read_within(&tmp.path().join("nope")).await.unwrap(), None);
        assert_eq!(
            read_within(tmp.path()).await.unwrap_err().code(),
            crate::error::FaultCode::IsDirectory
        );
        // Not UTF-8 (Latin-1 here): shown, marked, never refused.
        std::fs::write(&f, b"caf\xe9\r\n").unwrap();
        assert_eq!(
            read_within(&f).await.unwrap(),
            Some(Original {
                text: "caf\u{FFFD}\r\n".into(),
                utf8: false,
                binary: None,
            })
        );
        // A NUL byte, or invalid UTF-8 everywhere: no text, its size instead.
        for bytes in [&b"PNG\0\x01\x02"[..], &[0xffu8; 64][..]] {
            std::fs::write(&f, bytes).unwrap();
            let o = read_within(&f).await.unwrap().unwrap();
            assert_eq!(o.binary, Some(bytes.len() as u64), "{bytes:?}");
        }
    }

    #[test]
    fn binary_is_a_nul_or_dense_invalid_utf8_and_accented_latin1_stays_text() {
        assert!(is_binary(b"a\0b"));
        assert!(is_binary(&[
            0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d
        ]));
        assert!(is_binary(&[0xfe; 8]));
        let latin1 = "Ma\u{e9}tre na\u{ef}f, caf\u{e9} cr\u{e8}me\n".repeat(20);
        let latin1: Vec<u8> = latin1.chars().map(|c| c as u8).collect();
        assert!(!is_binary(&latin1));
        assert!(!is_binary("plain \u{1F600} UTF-8\r\n".as_bytes()));
        assert!(!is_binary(b""));
    }
}
