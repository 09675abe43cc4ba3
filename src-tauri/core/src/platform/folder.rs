//! A folder beneath a root, opened once: the files in it are read, replaced whole and created
//! through its descriptor, never through a path that a link swapped in since could redirect.

use std::ffi::{OsStr, OsString};
use std::fs::{File, Metadata};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// An open folder. Unix: its descriptor (every folder on the way opened without following a
/// link, as `beneath`'s walk does). Elsewhere: its path, as checked (see `beneath::open`).
pub struct Folder {
    #[cfg(unix)]
    dir: File,
    path: PathBuf,
}

/// A file of the folder as read: its bytes (at most the limit asked, plus one) and metadata.
pub struct Contents {
    pub bytes: Vec<u8>,
    pub meta: Metadata,
}

impl Folder {
    /// The folder holding `rel` (plain names) beneath `root`, and `rel`'s last name.
    pub fn holding(root: &Path, rel: &Path) -> io::Result<(Folder, OsString)> {
        let name = rel
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
        let parent = rel.parent().unwrap_or(Path::new(""));
        #[cfg(unix)]
        let dir = super::beneath::open_dir_beneath(root, parent)?;
        #[cfg(not(unix))]
        super::beneath::open_dir_beneath(root, parent)?;
        Ok((
            Folder {
                #[cfg(unix)]
                dir,
                path: root.join(parent),
            },
            name.to_owned(),
        ))
    }

    /// `name` in this folder.
    pub fn path_of(&self, name: &OsStr) -> PathBuf {
        self.path.join(name)
    }

    /// Reads `name` if it is a regular file (never through a link as the last name, never
    /// blocking on a FIFO), at most `limit` bytes and one more, so a longer file is told apart.
    pub fn read(&self, name: &OsStr, limit: u64) -> io::Result<Contents> {
        let file = self.open(name)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ));
        }
        let mut bytes = Vec::new();
        file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
        Ok(Contents { bytes, meta })
    }

    #[cfg(unix)]
    fn open(&self, name: &OsStr) -> io::Result<File> {
        super::beneath::open_in(&self.dir, name)
    }

    #[cfg(not(unix))]
    fn open(&self, name: &OsStr) -> io::Result<File> {
        File::open(self.path_of(name))
    }

    /// Replaces `name` with `bytes` whole: a temp file beside it (created exclusively, never
    /// through a link), given `keep`'s permissions (and owner, where that is allowed), synced,
    /// then renamed over `name`. A reader sees the old file or the new one, never a part; a
    /// failure leaves `name` as it was and no temp file behind.
    pub fn replace(&self, name: &OsStr, bytes: &[u8], keep: &Metadata) -> io::Result<()> {
        self.replace_as(name, bytes, Perms::Of(keep))
    }

    /// As `replace`, the new file given `perms`.
    pub fn replace_as(&self, name: &OsStr, bytes: &[u8], perms: Perms) -> io::Result<()> {
        let mut tmp = OsString::from(".");
        tmp.push(name);
        tmp.push(format!(".redline-{}.tmp", random_tag()?));
        let written = self
            .create(&tmp, bytes, perms)
            .and_then(|()| self.rename(&tmp, name));
        if written.is_err() {
            let _ = self.remove(&tmp);
        }
        written?;
        self.sync();
        Ok(())
    }

    /// Creates `name` holding `bytes`, failing if anything is there already (a link included),
    /// with `keep`'s permissions or else 0600.
    pub fn create_new(
        &self,
        name: &OsStr,
        bytes: &[u8],
        keep: Option<&Metadata>,
    ) -> io::Result<()> {
        self.create_new_as(name, bytes, keep.map_or(Perms::Private, Perms::Of))
    }

    /// As `create_new`, the file given `perms`.
    pub fn create_new_as(&self, name: &OsStr, bytes: &[u8], perms: Perms) -> io::Result<()> {
        let created = self.create(name, bytes, perms);
        if let Err(e) = &created {
            // Created but not filled: take the part away; never anything that was there before.
            if e.kind() != io::ErrorKind::AlreadyExists {
                let _ = self.remove(name);
            }
        }
        created?;
        self.sync();
        Ok(())
    }

    fn create(&self, name: &OsStr, bytes: &[u8], perms: Perms) -> io::Result<()> {
        let initial = match perms {
            Perms::Default { exec: true } => 0o777,
            Perms::Default { exec: false } => 0o666,
            _ => 0o600,
        };
        let mut file = self.create_exclusive(name, initial)?;
        file.write_all(bytes)?;
        match perms {
            Perms::Of(keep) => keep_owner_and_mode(&file, keep)?,
            Perms::Exact(mode) => set_mode(&file, mode)?,
            Perms::Private | Perms::Default { .. } => {}
        }
        file.sync_all()
    }

    /// Creates `name` with `mode` (less the umask), failing if anything is there.
    #[cfg(unix)]
    fn create_exclusive(&self, name: &OsStr, mode: u32) -> io::Result<File> {
        use std::os::fd::{AsRawFd, FromRawFd};
        let c = super::beneath::c_name(name)?;
        let flags =
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        // SAFETY: `c` is NUL-terminated and outlives the call; the descriptor is owned by the
        // returned `File` alone.
        let fd = unsafe {
            libc::openat(
                self.dir.as_raw_fd(),
                c.as_ptr(),
                flags,
                mode as libc::c_uint,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: as above.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    #[cfg(not(unix))]
    fn create_exclusive(&self, name: &OsStr, _mode: u32) -> io::Result<File> {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path_of(name))
    }

    #[cfg(unix)]
    fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let (from, to) = (super::beneath::c_name(from)?, super::beneath::c_name(to)?);
        let dir = self.dir.as_raw_fd();
        // SAFETY: both names are NUL-terminated and outlive the call.
        if unsafe { libc::renameat(dir, from.as_ptr(), dir, to.as_ptr()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    #[cfg(not(unix))]
    fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        std::fs::rename(self.path_of(from), self.path_of(to))
    }

    /// Removes file `name` (a link itself, never what it points to).
    #[cfg(unix)]
    pub fn remove(&self, name: &OsStr) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let c = super::beneath::c_name(name)?;
        // SAFETY: `c` is NUL-terminated and outlives the call.
        if unsafe { libc::unlinkat(self.dir.as_raw_fd(), c.as_ptr(), 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    #[cfg(not(unix))]
    pub fn remove(&self, name: &OsStr) -> io::Result<()> {
        std::fs::remove_file(self.path_of(name))
    }

    /// Makes the folder's new entry durable; a file system that cannot sync a folder still has
    /// the rename, so a failure here is not one of the write.
    fn sync(&self) {
        #[cfg(unix)]
        let _ = self.dir.sync_all();
    }
}

/// The permissions a file written through a `Folder` gets.
#[derive(Clone, Copy)]
pub enum Perms<'a> {
    /// Those of this file (and its owner, where that is allowed).
    Of(&'a Metadata),
    /// These mode bits (unix; elsewhere, the default).
    Exact(u32),
    /// What a new file gets by default (0666, 0777 when executable, less the umask), as git
    /// gives a file it checks out.
    Default { exec: bool },
    /// 0600.
    Private,
}

#[cfg(unix)]
fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(mode & 0o7777))
}

#[cfg(not(unix))]
fn set_mode(_file: &File, _mode: u32) -> io::Result<()> {
    Ok(())
}

#[cfg(unix)]
fn keep_owner_and_mode(file: &File, keep: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let now = file.metadata()?;
    if (now.uid(), now.gid()) != (keep.uid(), keep.gid()) {
        // Only root may give a file away; anyone else keeps their own file's owner anyway.
        let _ = std::os::unix::fs::fchown(file, Some(keep.uid()), Some(keep.gid()));
    }
    file.set_permissions(std::fs::Permissions::from_mode(keep.mode() & 0o7777))
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &File, keep: &Metadata) -> io::Result<()> {
    file.set_permissions(keep.permissions())
}

/// 16 hex digits for a temp name nobody guesses ahead.
fn random_tag() -> io::Result<String> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
