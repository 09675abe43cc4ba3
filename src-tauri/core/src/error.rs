//! Typed errors of the core, each with a stable code that every edge maps once.

use crate::checkpoint::CheckpointError;
use crate::discovery::DiscoveryError;
use crate::platform::PlatformError;
use crate::review::ReviewError;
use crate::surfaces::SurfaceError;
use crate::workspace::WorkspaceError;
use std::path::PathBuf;

pub use code::FaultCode;
pub use control::ControlFailure;
pub use dir_problem::DirProblem;
pub use editor_message::BadEditorMessage;
pub use keyring_failure::KeyringFailure;
pub use remote_failure::RemoteFailure;

mod code;
mod control;
mod dir_problem;
mod editor_message;
mod keyring_failure;
mod remote_failure;

/// Every error of the core. A layer's own errors are its enum, composed here once
/// (`Error::Review`, `Error::Workspace`, …, each with its `code()` beside it); the variants
/// written here directly are the ones several layers raise, and the runtime's own. Each edge
/// (control channel, window channel, MCP tool results, the CLI) maps `code()` once.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Platform(#[from] PlatformError),
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    #[error(transparent)]
    Review(#[from] ReviewError),
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    #[error(transparent)]
    Surface(#[from] SurfaceError),
    /// A checkpoint, a turn or its undo (`checkpoint` names no code: it imports nothing, so
    /// its codes are given here, in `checkpoint_code`).
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A diff sent with more changed files than `redline diff` opens.
    #[error("{root}: {count} changed files; `redline diff` opens at most {limit}")]
    TooManyFiles {
        root: String,
        count: usize,
        limit: usize,
    },
    /// The running instance refused a command's request; its message is for the user as is.
    #[error("{0}")]
    Refused(String),
    /// A command given what it cannot work with (its message says what to give instead).
    #[error("{0}")]
    Usage(String),
    #[error("{}: {}", path.display(), io_words(source))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// How to start one depends on the build and the display: the shell adds it.
    #[error("no running Redline instance")]
    NotRunning,
    #[error("another Redline instance is already running")]
    AlreadyRunning,
    /// The control socket answers, but from a process of another user: nothing was sent to it.
    #[error("{} is served by another user (uid {uid}): nothing was sent to it; stop that server or set XDG_RUNTIME_DIR to a directory of your own", path.display())]
    ForeignServer { path: PathBuf, uid: u32 },
    /// The desktop app cannot open a window here (why, in a few words).
    #[error("{0}: `redline serve --headless` runs the servers without one")]
    NoDisplay(String),
    /// An editor asked to see the reviews, but this Redline has no window (`serve --headless`).
    #[error("this Redline runs headless and has no review window: `redline review list` shows the pending reviews, `redline review show ID` one of them")]
    NoWindow,
    #[error("timed out waiting for a review")]
    Timeout,
    /// A channel to the instance, or the plumbing around it, failed (`ControlFailure` says how).
    #[error(transparent)]
    Control(#[from] ControlFailure),
    /// A decision on another machine's review that was not applied, or not yet.
    #[error(transparent)]
    Remote(#[from] RemoteFailure),
    #[error("bad editor message: {0}")]
    EditorMessage(BadEditorMessage),
}

/// An I/O failure in words: the common ones plainly (no `os error 2`), the rest as the OS says.
fn io_words(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "there is no such file or folder".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A stable machine-readable code for the UI, the control channel and scripts.
    pub fn code(&self) -> FaultCode {
        match self {
            Error::Platform(e) => e.code(),
            Error::Workspace(e) => e.code(),
            Error::Review(e) => e.code(),
            Error::Discovery(e) => e.code(),
            Error::Surface(e) => e.code(),
            Error::Checkpoint(e) => checkpoint_code(e),
            // One code for every bound the instance holds reviews to: the UI and scripts read "busy".
            Error::TooManyFiles { .. } => FaultCode::Busy,
            Error::Usage(_) => FaultCode::Usage,
            Error::Refused(_) => FaultCode::Refused,
            Error::Io { .. } => FaultCode::Io,
            Error::NotRunning => FaultCode::NotRunning,
            Error::AlreadyRunning => FaultCode::AlreadyRunning,
            Error::ForeignServer { .. } => FaultCode::ForeignServer,
            Error::NoDisplay(_) => FaultCode::NoDisplay,
            Error::NoWindow => FaultCode::NoWindow,
            Error::Timeout => FaultCode::Timeout,
            Error::Control(_) => FaultCode::Control,
            Error::Remote(e) => e.code(),
            Error::EditorMessage(_) => FaultCode::BadMessage,
        }
    }
}

/// The code of a checkpoint's error: what the command was given and cannot take is `usage`, a
/// file undo will not write is `refused`, the store and git `io`.
fn checkpoint_code(e: &CheckpointError) -> FaultCode {
    use CheckpointError as C;
    match e {
        C::NoSuchTurn(_)
        | C::NotEnded(_)
        | C::NotInTurn(_)
        | C::NoSuchHunk(_)
        | C::NotText(_)
        | C::NotBothSides(_) => FaultCode::Usage,
        C::NotInWorkspace(_) => FaultCode::NotInWorkspace,
        C::Changed(_) | C::NotAFile(..) | C::NotBeneath(_) | C::OtherWorkspace(..) => {
            FaultCode::Refused
        }
        C::TooLarge { .. } => FaultCode::TooLarge,
        C::GitMissing(_)
        | C::Git { .. }
        | C::Store(..)
        | C::Unreadable(_)
        | C::Write(..)
        | C::History(..) => FaultCode::Io,
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::QueueBound;

    /// The bounds' words are what `Error::Busy` carried before they were typed; their code is
    /// still "busy", which the UI and scripts read.
    #[test]
    fn bounds_read_as_before_and_share_the_busy_code() {
        let said = |e: Error| {
            assert_eq!(e.code(), crate::error::FaultCode::Busy, "{e}");
            e.to_string()
        };
        let full = |bound| {
            Error::from(ReviewError::QueueFull {
                file: "/ws/a.rs".into(),
                bound,
            })
        };
        assert_eq!(
            said(full(QueueBound::Session(16))),
            "/ws/a.rs was not opened: this CLI already has 16 reviews waiting"
        );
        assert_eq!(
            said(full(QueueBound::Workspace(64))),
            "/ws/a.rs was not opened: the workspace already has 64 reviews waiting"
        );
        assert_eq!(
            said(full(QueueBound::Bytes(256 * 1024 * 1024))),
            "/ws/a.rs was not opened: the reviews waiting in this workspace hold 256 MiB of text"
        );
        assert_eq!(
            said(full(QueueBound::Diffs)),
            "/ws/a.rs was not opened: answer the diffs already waiting first"
        );
        assert_eq!(
            said(Error::TooManyFiles {
                root: "/r".into(),
                count: 201,
                limit: 200
            }),
            "/r: 201 changed files; `redline diff` opens at most 200"
        );
    }

    /// What `redline diff` is given on its command line and cannot take is a usage error:
    /// "busy" would tell a script to try again later, and the same arguments fail again.
    #[test]
    fn a_diff_given_what_it_cannot_take_is_a_usage_error_not_busy() {
        let said = |e: Error| {
            assert_eq!(e.code(), crate::error::FaultCode::Usage, "{e}");
            e.to_string()
        };
        assert_eq!(
            said(
                SurfaceError::MixedPair {
                    left: "/l".into(),
                    right: "/r".into()
                }
                .into()
            ),
            "/l and /r are not both files or both directories"
        );
        assert_eq!(
            said(
                SurfaceError::TreesTooWide {
                    left: "/l".into(),
                    right: "/r".into(),
                    limit: 200
                }
                .into()
            ),
            "/l and /r differ in more than 200 files: `redline diff` opens at most 200"
        );
        assert_eq!(
            said(
                SurfaceError::TooManyEntries {
                    dir: "/l".into(),
                    limit: 100_000
                }
                .into()
            ),
            "/l holds more than 100000 entries"
        );
    }
}
