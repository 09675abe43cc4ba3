//! Where Codex asks for an IDE on this OS, and taking it: a unix socket, or a named pipe on Windows.

use super::binding::Binding;
#[cfg(windows)]
use super::pipe;
#[cfg(unix)]
use super::socket;
use crate::platform::dirs::Dirs;
use std::path::{Path, PathBuf};

#[cfg(windows)]
pub use super::pipe::{join, serve, BoundPipe as Bound};
#[cfg(unix)]
pub use super::socket::{join, serve, BoundSocket as Bound};

/// Where Codex asks for an IDE on this machine: `$TMPDIR/codex-ipc/ipc-<uid>.sock`, or on
/// Windows the pipe `\\.\pipe\codex-ipc`.
pub fn at(dirs: &Dirs) -> PathBuf {
    #[cfg(unix)]
    return socket::path(&dirs.tmp, crate::platform::own_user::own_uid());
    #[cfg(windows)]
    {
        let _ = dirs;
        PathBuf::from(pipe::PATH)
    }
}

/// `at` for a world of its own (tests side by side): the same socket, but on Windows a pipe named
/// after the runtime dir, as the pipe's name is the whole machine's.
pub fn isolated_at(dirs: &Dirs) -> PathBuf {
    #[cfg(unix)]
    return at(dirs);
    #[cfg(windows)]
    {
        let tag = dirs
            .runtime
            .file_name()
            .unwrap_or_default()
            .to_string_lossy();
        PathBuf::from(format!("{}-{tag}", pipe::PATH))
    }
}

/// Takes Codex's socket or pipe `at` for this user.
pub fn bind(at: &Path) -> Binding<Bound> {
    #[cfg(unix)]
    return socket::bind(at, crate::platform::own_user::own_uid());
    #[cfg(windows)]
    pipe::bind(at)
}
