//! A small file that someone else may have planted (a peer's `package.json`, a `/proc` entry),
//! read without following a final symlink, without blocking and never past a cap.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// The whole file, refused unless it is a regular file of at most `cap` bytes.
pub(crate) fn read(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    capped(open(path, false)?, cap)
}

/// As [`read`], but a final symlink is followed (a user's settings file linked from their
/// dotfiles); what it points to must still be a regular file.
pub(crate) fn read_through(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    capped(open(path, true)?, cap)
}

fn capped(file: File, cap: u64) -> io::Result<Vec<u8>> {
    let size = file.metadata()?.len();
    if size > cap {
        return Err(too_large(size, cap));
    }
    let mut out = Vec::new();
    // The file may grow between the fstat and the read: the take bounds what is kept.
    file.take(cap + 1).read_to_end(&mut out)?;
    if out.len() as u64 > cap {
        return Err(too_large(out.len() as u64, cap));
    }
    Ok(out)
}

/// At most the first `cap` bytes of a regular file. For `/proc` entries: they say their size is
/// 0, and only their head is wanted.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) fn head(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    open(path, false)?.take(cap).read_to_end(&mut out)?;
    Ok(out)
}

/// Opens `path` for reading if it is a regular file. Unless `follow`, a final symlink is not
/// followed (then it is no regular file); the open does not block (a FIFO nobody writes would
/// wait forever): the type is then checked on the open file itself, so it cannot be swapped
/// after, and a link to `/dev/zero` is refused as a device.
fn open(path: &Path, follow: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = if follow { 0 } else { libc::O_NOFOLLOW };
        options.custom_flags(nofollow | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    #[cfg(windows)]
    if !follow {
        use std::os::windows::fs::OpenOptionsExt;
        // FILE_FLAG_OPEN_REPARSE_POINT: opens a symlink or junction itself, which then is no
        // regular file.
        options.custom_flags(0x0020_0000);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        ));
    }
    Ok(file)
}

fn too_large(size: u64, cap: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("{size} bytes, more than the {cap} read"),
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn reads_a_small_regular_file_and_refuses_anything_else() {
        let tmp = tempfile::tempdir().unwrap();
        let small = tmp.path().join("small");
        std::fs::write(&small, b"12345").unwrap();
        assert_eq!(read(&small, 5).unwrap(), b"12345");
        assert_eq!(
            read(&small, 4).unwrap_err().kind(),
            io::ErrorKind::FileTooLarge
        );
        assert_eq!(head(&small, 2).unwrap(), b"12");

        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&small, &link).unwrap();
        assert!(read(&link, 5).is_err(), "a final symlink is not followed");
        assert!(read(tmp.path(), 5).is_err(), "a directory is no file");
        assert!(read(Path::new("/dev/zero"), 5).is_err(), "nor a device");
        assert!(head(Path::new("/dev/zero"), 5).is_err());
    }
}
