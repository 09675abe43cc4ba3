//! Opens a file beneath a directory so that a folder on the way swapped for a symbolic link after
//! the path was checked cannot lead the open out of that directory.

use std::fs::File;
use std::io;
use std::path::{Component, Path};

/// Opens `rel` (plain names only, as a resolved path relative to `root` is) beneath `root` for
/// reading, without blocking on a FIFO or taking a terminal, and without following a link as the
/// last component (it fails with `ELOOP`).
///
/// Linux: `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS` from `root`'s descriptor (an
/// escape fails with `EXDEV`); where a sandbox refuses `openat2` (`ENOSYS`, `EPERM`), the walk.
/// Other unix: the walk, one component at a time through directory descriptors, each opened with
/// `O_NOFOLLOW`, so a link on the way fails with `ENOTDIR` (`ELOOP` as the last component).
#[cfg(unix)]
pub fn open(root: &Path, rel: &Path) -> io::Result<File> {
    let dir = open_dir(None, root.as_os_str())?;
    #[cfg(target_os = "linux")]
    match openat2(&dir, rel) {
        Err(e) if matches!(e.raw_os_error(), Some(libc::ENOSYS | libc::EPERM)) => {}
        done => return done,
    }
    walk(dir, rel)
}

/// Windows: `CreateFileW` cannot refuse a reparse point in the middle of a path (that takes
/// `NtCreateFile` with `OBJ_DONT_REPARSE`), so the path is opened whole as checked; only a
/// process that can already write inside the workspace could swap a folder in between.
#[cfg(not(unix))]
pub fn open(root: &Path, rel: &Path) -> io::Result<File> {
    names(rel)?;
    File::open(root.join(rel))
}

/// Opens directory `rel` (plain names; empty: `root` itself) beneath `root`, every folder on
/// the way without following a link: a folder swapped for one fails with `ENOTDIR`/`ELOOP`.
#[cfg(unix)]
pub fn open_dir_beneath(root: &Path, rel: &Path) -> io::Result<File> {
    let mut dir = open_dir(None, root.as_os_str())?;
    for name in names(rel)? {
        dir = open_dir(Some(&dir), name)?;
    }
    Ok(dir)
}

/// As the unix one, on the path as checked (see `open`).
#[cfg(not(unix))]
pub fn open_dir_beneath(root: &Path, rel: &Path) -> io::Result<()> {
    names(rel)?;
    match std::fs::metadata(root.join(rel))?.is_dir() {
        true => Ok(()),
        false => Err(io::Error::new(io::ErrorKind::NotADirectory, "not a folder")),
    }
}

/// Opens `name` in the open directory `dir` as `open` opens its last component.
#[cfg(unix)]
pub fn open_in(dir: &File, name: &std::ffi::OsStr) -> io::Result<File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let name = c_name(name)?;
    // SAFETY: as in `open_dir`.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), FILE_FLAGS) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as in `open_dir`.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// The flags of the final open: read only, never block (FIFOs), never a controlling terminal,
/// never follow a last-component link.
#[cfg(unix)]
const FILE_FLAGS: libc::c_int =
    libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW | libc::O_CLOEXEC;

/// `rel`'s components, refused unless every one is a plain name.
fn names(rel: &Path) -> io::Result<Vec<&std::ffi::OsStr>> {
    rel.components()
        .map(|c| match c {
            Component::Normal(n) => Ok(n),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "only plain names may follow the root",
            )),
        })
        .collect()
}

#[cfg(unix)]
pub(super) fn c_name(name: &std::ffi::OsStr) -> io::Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the path"))
}

/// Opens directory `name` (relative to `at`, or as given when `at` is `None`).
#[cfg(unix)]
fn open_dir(at: Option<&File>, name: &std::ffi::OsStr) -> io::Result<File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
    let name = c_name(name)?;
    // SAFETY: `name` is a NUL-terminated string that outlives the call; the descriptor returned
    // is owned by nothing else.
    let fd = unsafe {
        match at {
            Some(dir) => libc::openat(dir.as_raw_fd(), name.as_ptr(), flags | libc::O_NOFOLLOW),
            None => libc::open(name.as_ptr(), flags),
        }
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by the returned `File` alone.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// One component at a time, each a directory opened without following a link.
#[cfg(unix)]
fn walk(mut dir: File, rel: &Path) -> io::Result<File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let names = names(rel)?;
    let Some((last, folders)) = names.split_last() else {
        return Ok(dir);
    };
    for name in folders {
        dir = open_dir(Some(&dir), name)?;
    }
    let last = c_name(last)?;
    // SAFETY: as in `open_dir`.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), last.as_ptr(), FILE_FLAGS) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as in `open_dir`.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// `struct open_how` of linux/openat2.h (libc's cannot be built outside it).
#[cfg(target_os = "linux")]
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

#[cfg(target_os = "linux")]
fn openat2(dir: &File, rel: &Path) -> io::Result<File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let names = names(rel)?;
    let path = if names.is_empty() {
        c_name(".".as_ref())?
    } else {
        c_name(rel.as_os_str())?
    };
    let how = OpenHow {
        flags: FILE_FLAGS as u64,
        mode: 0,
        resolve: libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS,
    };
    // SAFETY: `path` and `how` outlive the call, and the size passed is `how`'s.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            dir.as_raw_fd(),
            path.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = libc::c_int::try_from(fd).map_err(io::Error::other)?;
    // SAFETY: `fd` was just opened and is owned by the returned `File` alone.
    Ok(unsafe { File::from_raw_fd(fd) })
}

#[cfg(all(test, target_os = "linux"))]
pub(crate) mod tests {
    use super::*;
    use std::ffi::CString;
    use std::io::Read;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// A thread exchanging two paths (a folder and a link) atomically, as fast as it can.
    pub(crate) struct Swapper {
        stop: Arc<AtomicBool>,
        thread: std::thread::JoinHandle<u64>,
    }

    impl Swapper {
        pub(crate) fn start(a: &Path, b: &Path) -> Swapper {
            let stop = Arc::new(AtomicBool::new(false));
            let (a, b) = (
                CString::new(a.to_str().unwrap()).unwrap(),
                CString::new(b.to_str().unwrap()).unwrap(),
            );
            let flag = stop.clone();
            let thread = std::thread::spawn(move || {
                let mut swaps = 0u64;
                while !flag.load(Ordering::Relaxed) {
                    // SAFETY: both paths are NUL-terminated and outlive the call.
                    let r = unsafe {
                        libc::renameat2(
                            libc::AT_FDCWD,
                            a.as_ptr(),
                            libc::AT_FDCWD,
                            b.as_ptr(),
                            libc::RENAME_EXCHANGE,
                        )
                    };
                    assert_eq!(r, 0, "{}", io::Error::last_os_error());
                    swaps += 1;
                }
                swaps
            });
            Swapper { stop, thread }
        }

        /// Stops swapping; how many swaps there were.
        pub(crate) fn stop(self) -> u64 {
            self.stop.store(true, Ordering::Relaxed);
            self.thread.join().unwrap()
        }
    }

    /// A workspace whose `sub` folder holds `f.txt` ("inside"), and `alt`, a link to a folder
    /// outside holding `f.txt` ("SECRET"), for a `Swapper` to exchange.
    pub(crate) fn swappable() -> (tempfile::TempDir, std::path::PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let root = base.join("ws");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/f.txt"), "inside").unwrap();
        std::fs::create_dir(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/f.txt"), "SECRET").unwrap();
        std::os::unix::fs::symlink(base.join("outside"), root.join("alt")).unwrap();
        (tmp, root)
    }

    /// The fallback walk, raced as `original`'s test races the whole read: never outside.
    #[test]
    fn the_walk_and_openat2_never_follow_a_swapped_folder_out() {
        let (_tmp, root) = swappable();
        let swapper = Swapper::start(&root.join("sub"), &root.join("alt"));
        let (mut read_inside, mut leaked) = (0u32, Vec::new());
        for i in 0..20_000 {
            let dir = open_dir(None, root.as_os_str()).unwrap();
            let rel = Path::new("sub/f.txt");
            let (how, got) = if i % 2 == 0 {
                ("walk", read(walk(dir, rel)))
            } else {
                ("openat2", read(openat2(&dir, rel)))
            };
            match got.as_deref() {
                Ok("SECRET") => leaked.push(how),
                Ok(_) => read_inside += 1,
                Err(_) => {}
            }
        }
        let swaps = swapper.stop();
        assert!(leaked.is_empty(), "read outside through {leaked:?}");
        assert!(
            swaps > 0 && read_inside > 0,
            "{swaps} swaps, {read_inside} reads"
        );
    }

    fn read(f: io::Result<File>) -> io::Result<String> {
        let mut s = String::new();
        f?.read_to_string(&mut s)?;
        Ok(s)
    }

    /// Both ways of opening, the same answers: inside links work, escapes and links last fail.
    #[test]
    fn openat2_and_the_walk_agree() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.txt"), "inside").unwrap();
        std::fs::write(tmp.path().join("secret"), "secret").unwrap();
        std::os::unix::fs::symlink(tmp.path(), root.join("out")).unwrap();
        std::os::unix::fs::symlink(root.join("src/a.txt"), root.join("alink")).unwrap();
        let both = |rel: &str| {
            let dir = || open_dir(None, root.as_os_str()).unwrap();
            (
                read(openat2(&dir(), Path::new(rel))),
                read(walk(dir(), Path::new(rel))),
            )
        };
        let (a, w) = both("src/a.txt");
        assert_eq!((a.unwrap(), w.unwrap()), ("inside".into(), "inside".into()));
        let (a, w) = both("out/secret");
        assert_eq!(a.unwrap_err().raw_os_error(), Some(libc::EXDEV));
        // O_DIRECTORY | O_NOFOLLOW on a link: ENOTDIR.
        assert_eq!(w.unwrap_err().raw_os_error(), Some(libc::ENOTDIR));
        let (a, w) = both("alink");
        assert_eq!(a.unwrap_err().raw_os_error(), Some(libc::ELOOP));
        assert_eq!(w.unwrap_err().raw_os_error(), Some(libc::ELOOP));
        let (a, w) = both("src/missing");
        assert_eq!(a.unwrap_err().kind(), io::ErrorKind::NotFound);
        assert_eq!(w.unwrap_err().kind(), io::ErrorKind::NotFound);
        let (a, w) = both("../ws/src/a.txt");
        assert_eq!(a.unwrap_err().kind(), io::ErrorKind::InvalidInput);
        assert_eq!(w.unwrap_err().kind(), io::ErrorKind::InvalidInput);
    }
}
