//! Where Codex looks for an IDE: `$TMPDIR/codex-ipc/ipc-<uid>.sock`, one per user. Redline takes
//! it only in a folder of the user's own that no one else can write to (Codex refuses any other),
//! and never from a live listener (a Codex desktop app or VS Code extension's router).

use super::binding::Binding;
use super::hub::Hub;
use super::Source;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use tokio::net::{UnixListener, UnixStream};
use tokio_util::sync::CancellationToken;

/// A unix socket's path must fit `sun_path` (108 bytes on Linux, with its NUL); Codex checks it.
const MAX_PATH: usize = 107;

/// Codex's socket for user `uid` under the temp dir `tmp`.
pub fn path(tmp: &Path, uid: u32) -> PathBuf {
    tmp.join("codex-ipc").join(format!("ipc-{uid}.sock"))
}

/// The listener, and the socket file's identity: removed at stop only if it is still the one
/// this run made.
#[derive(Debug)]
pub struct BoundSocket {
    pub listener: UnixListener,
    pub path: PathBuf,
    inode: (u64, u64),
}

impl BoundSocket {
    /// Removes the socket file, unless another program replaced it meanwhile.
    pub fn remove(path: &Path, inode: (u64, u64)) {
        if std::fs::symlink_metadata(path).is_ok_and(|m| (m.dev(), m.ino()) == inode) {
            let _ = std::fs::remove_file(path);
        }
    }

    pub fn inode(&self) -> (u64, u64) {
        self.inode
    }
}

/// Takes `path` for user `uid`: its folder created 0700 if missing, refused if another user owns
/// it or group or others can write to it; a stale socket (nothing listening) replaced.
pub fn bind(path: &Path, uid: u32) -> Binding<BoundSocket> {
    let refuse = |why: String| Binding::Refused(why);
    if path.as_os_str().len() > MAX_PATH {
        return refuse(format!(
            "{} is longer than a unix socket path may be",
            path.display()
        ));
    }
    let Some(dir) = path.parent() else {
        return refuse(format!("{} has no folder", path.display()));
    };
    // Codex looks at the folder alone; Redline also at every one above it, as OpenSSH does,
    // before making anything there and again once the folder is there.
    if let Err(why) = crate::platform::safe_dir::check_above(dir) {
        return refuse(why.to_string());
    }
    if let Some(parent) = dir.parent() {
        if let Err(e) = crate::platform::private_file::ensure_dir(parent) {
            return refuse(e.to_string());
        }
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return refuse(format!("{}: {e}", dir.display())),
    }
    if let Some(why) = unsafe_dir(dir, uid) {
        return refuse(why);
    }
    if let Err(why) = crate::platform::safe_dir::check_above(dir) {
        return refuse(why.to_string());
    }
    match std::os::unix::net::UnixStream::connect(path) {
        Ok(_) => return Binding::Held(path.to_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        // Nothing listens (a crashed run's socket, or a file in its place): ours to replace.
        Err(_) => {
            if let Err(e) = std::fs::remove_file(path) {
                return refuse(format!("{}: stale, but not removable: {e}", path.display()));
            }
        }
    }
    let listener = match UnixListener::bind(path) {
        Ok(l) => l,
        // Another listener took it between the probe and the bind.
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            return Binding::Held(path.to_owned())
        }
        Err(e) => return refuse(format!("{}: {e}", path.display())),
    };
    // Only the user may connect, whatever the folder's mode (Codex accepts a 0755 one).
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    match std::fs::symlink_metadata(path) {
        Ok(m) => Binding::Bound(BoundSocket {
            listener,
            path: path.to_owned(),
            inode: (m.dev(), m.ino()),
        }),
        Err(e) => refuse(format!("{}: {e}", path.display())),
    }
}

/// Why the folder `dir` cannot hold the socket: a link, not a folder, another user's, or
/// writable by group or others (Codex's own rule, so a folder it would refuse is never used).
fn unsafe_dir(dir: &Path, uid: u32) -> Option<String> {
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) => return Some(format!("{}: {e}", dir.display())),
    };
    let d = dir.display();
    if meta.file_type().is_symlink() {
        Some(format!("{d} is a symbolic link"))
    } else if !meta.is_dir() {
        Some(format!("{d} is not a folder"))
    } else if meta.uid() != uid {
        Some(format!("{d} belongs to another user (uid {})", meta.uid()))
    } else if meta.mode() & 0o022 != 0 {
        Some(format!(
            "{d} is writable by group or others (mode {:o})",
            meta.mode() & 0o7777
        ))
    } else {
        None
    }
}

/// Serves Codex's socket until `cancel` fires, then removes it (if it is still ours).
pub fn serve(
    bound: BoundSocket,
    source: Source,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let inode = bound.inode();
    let BoundSocket { listener, path, .. } = bound;
    let own = crate::platform::own_user::own_uid();
    let hub = Hub::new(source, cancel.clone());
    tokio::spawn(async move {
        loop {
            let accepted = tokio::select! {
                _ = cancel.cancelled() => break,
                r = listener.accept() => r,
            };
            let Ok((stream, _)) = accepted else {
                // Out of descriptors: the backlog keeps the connection; try again shortly.
                tokio::select! {
                    _ = cancel.cancelled() => break,
                    _ = tokio::time::sleep(std::time::Duration::from_millis(100)) => continue,
                }
            };
            // The socket is 0600 in a folder of the user's; a peer of another user is refused
            // all the same (a root-run or a loosened folder).
            if stream.peer_cred().map(|c| c.uid()).ok() != Some(own) {
                tracing::warn!("Codex socket: refused a connection from another user");
                continue;
            }
            hub.take(stream);
        }
        drop(listener);
        BoundSocket::remove(&path, inode);
    })
}

/// Connects to the router listening on `path`, if it runs as this user (Codex's own rule for
/// whom it asks).
pub async fn join(path: &Path) -> Result<UnixStream, String> {
    let stream = UnixStream::connect(path)
        .await
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let own = crate::platform::own_user::own_uid();
    if stream.peer_cred().map(|c| c.uid()).ok() != Some(own) {
        return Err(format!("{} is another user's", path.display()));
    }
    Ok(stream)
}
