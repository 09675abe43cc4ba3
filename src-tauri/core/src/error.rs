//! Typed errors of the core, each with a stable code that every edge maps once.

use std::path::PathBuf;

pub use code::FaultCode;
pub use control::ControlFailure;
pub use dir_problem::DirProblem;
pub use editor_message::BadEditorMessage;
pub use keyring_failure::KeyringFailure;

mod code;
mod control;
mod dir_problem;
mod editor_message;
mod keyring_failure;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path} is outside the workspace ({roots})")]
    OutsideWorkspace { path: String, roots: String },
    #[error("file paths must be absolute: {0}")]
    RelativePath(String),
    /// A proposal must be text: the CLIs carry it as a JSON string.
    #[error("{0} is not a UTF-8 text file")]
    NotText(String),
    #[error("{0} is a directory")]
    IsDirectory(String),
    #[error("{path}: {why}; nothing was changed")]
    HookConfig { path: PathBuf, why: String },
    #[error("{path} cannot be resolved safely: {reason}")]
    BadPath { path: String, reason: &'static str },
    #[error("{0} is not a regular file (a FIFO, socket or device is never read)")]
    NotRegularFile(String),
    #[error("{path} is {}; Redline reviews files up to {}", size_words(*size, *limit), in_units(*limit))]
    TooLarge { path: String, size: u64, limit: u64 },
    /// A proposal refused because the reviews already waiting fill a bound.
    #[error("{file} was not opened: {bound}")]
    QueueFull { file: String, bound: QueueBound },
    /// `redline diff` given a file on one side and a directory on the other.
    #[error("{} and {} are not both files or both directories", left.display(), right.display())]
    MixedPair { left: PathBuf, right: PathBuf },
    /// `redline diff` of two directories that differ in more files than it opens.
    #[error("{} and {} differ in more than {limit} files: `redline diff` opens at most {limit}", left.display(), right.display())]
    TreesTooWide {
        left: PathBuf,
        right: PathBuf,
        limit: usize,
    },
    /// A directory given to `redline diff` holds more entries than it walks.
    #[error("{} holds more than {limit} entries", dir.display())]
    TooManyEntries { dir: PathBuf, limit: usize },
    /// A diff sent with more changed files than `redline diff` opens.
    #[error("{root}: {count} changed files; `redline diff` opens at most {limit}")]
    TooManyFiles {
        root: String,
        count: usize,
        limit: usize,
    },
    #[error("no review with id {0}")]
    NoSuchReview(u64),
    /// An editor rejected a file no CLI has a review pending for.
    #[error("no review of {} is pending", .0.display())]
    NoReviewOf(PathBuf),
    #[error("no diff is open for {0}")]
    NoOpenDiff(String),
    /// The review window offered the CLI of review `id` something its session cannot take now:
    /// it has gone, or its protocol has no message for it.
    #[error("{client}, which proposed review {id}, cannot take {what}: it is not connected, or its protocol has no way to")]
    CannotTake {
        id: u64,
        client: String,
        what: Sendable,
    },
    /// The running instance refused a command's request; its message is for the user as is.
    #[error("{0}")]
    Refused(String),
    /// A command given what it cannot work with (its message says what to give instead).
    #[error("{0}")]
    Usage(String),
    #[error("review {id} is read-only: {reason}")]
    ReadOnly { id: u64, reason: String },
    /// An edit made against a proposal the CLI has since replaced with a new one.
    #[error(
        "the CLI proposed a new version of {file}: your edits were made against the old one \
         and were not applied (review {id})"
    )]
    Superseded { id: u64, file: String },
    #[error("an empty accepted text would be ignored by the CLI; reject instead")]
    EmptyContent,
    /// A rejection's reason longer than is passed on (`review::reason`).
    #[error("the reason is {chars} characters long; at most {limit} are passed on: shorten it")]
    ReasonTooLong { chars: usize, limit: usize },
    #[error("{0} is not a workspace")]
    NoSuchWorkspace(PathBuf),
    #[error("{0} is already a workspace")]
    WorkspaceExists(PathBuf),
    #[error("no enabled workspace contains {0}")]
    NotInWorkspace(PathBuf),
    /// `NotInWorkspace` said to a person at a command, with the one command that lets the file
    /// in (`workspace::way_in`).
    #[error("no enabled workspace contains {}; {fix}", path.display())]
    NotInWorkspaceFix { path: PathBuf, fix: String },
    /// The path names a file in a workspace, but a symbolic link on the way leads out of it.
    #[error("{} is in the workspace {}, but a symbolic link on its way leads outside it; Redline reviews only files within the workspace", path.display(), workspace.display())]
    LeadsOutside { path: PathBuf, workspace: PathBuf },
    /// `redline diff --edit` could not write an accepted file; the user's text went elsewhere.
    #[error("{} was not written: {why}; your accepted text is in {}", path.display(), kept.display())]
    NotWritten {
        path: PathBuf,
        why: String,
        kept: PathBuf,
    },
    /// As `NotWritten`, and the text could not be kept anywhere either.
    #[error("{} was not written: {why}; your accepted text could not be kept either ({error})", path.display())]
    NotKept {
        path: PathBuf,
        why: String,
        error: String,
    },
    /// A folder given on the command line that is not there.
    #[error("the folder {} does not exist", .0.display())]
    NoFolder(PathBuf),
    /// A workspace whose folder no longer exists: not served until it is back or removed.
    #[error("the folder of workspace {} is gone: it is not served; remove it with `redline workspace remove {}`", .0.display(), .0.display())]
    FolderGone(PathBuf),
    #[error("workspace {0} is turned off")]
    WorkspaceOff(PathBuf),
    #[error("{}: {}", path.display(), io_words(source))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {path} is invalid: {message}")]
    Config { path: PathBuf, message: String },
    #[error("keyring: {0}")]
    Keyring(KeyringFailure),
    /// How to start one depends on the build and the display: the shell adds it.
    #[error("no running Redline instance")]
    NotRunning,
    #[error("another Redline instance is already running")]
    AlreadyRunning,
    /// The directory that holds the control socket is not this user's own private one: nothing
    /// is sent through it and no server listens in it.
    #[error("{} {problem}: refusing to use it; {}", path.display(), problem.fix())]
    RuntimeDir { path: PathBuf, problem: DirProblem },
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
    #[error("no container bridge found (looked for docker0, podman0, cni-podman0); give the host address containers reach with --address ADDR")]
    NoContainerBridge,
    #[error(
        "{0} cannot be listened on for containers: give one address of this host (never 0.0.0.0)"
    )]
    ContainerAddress(String),
    #[error("{0} is not a usable container path: give an absolute path such as /workspace, other than / and not inside or around the workspace's own path")]
    ContainerPath(String),
    #[error("containers are off for {0}; turn them on with `redline container enable {0}`")]
    ContainersOff(PathBuf),
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
            Error::OutsideWorkspace { .. } => FaultCode::OutsideWorkspace,
            Error::RelativePath(_) => FaultCode::RelativePath,
            Error::NotText(_) => FaultCode::NotText,
            Error::IsDirectory(_) => FaultCode::IsDirectory,
            Error::HookConfig { .. } => FaultCode::HookConfig,
            Error::BadPath { .. } => FaultCode::BadPath,
            Error::NotRegularFile(_) => FaultCode::NotRegularFile,
            Error::TooLarge { .. } => FaultCode::TooLarge,
            // One code for every bound the instance holds reviews to: the UI and scripts read "busy".
            Error::QueueFull { .. } | Error::TooManyFiles { .. } => FaultCode::Busy,
            // What `redline diff` was given on its command line: the same arguments fail again.
            Error::MixedPair { .. } | Error::TreesTooWide { .. } | Error::TooManyEntries { .. } => {
                FaultCode::Usage
            }
            Error::NoSuchReview(_) => FaultCode::NoSuchReview,
            Error::NoReviewOf(_) => FaultCode::NoReview,
            Error::NoOpenDiff(_) => FaultCode::NoOpenDiff,
            Error::CannotTake { .. } => FaultCode::CannotTake,
            Error::ReadOnly { .. } => FaultCode::ReadOnly,
            Error::Superseded { .. } => FaultCode::Superseded,
            Error::Usage(_) => FaultCode::Usage,
            Error::Refused(_) => FaultCode::Refused,
            Error::EmptyContent => FaultCode::EmptyContent,
            Error::ReasonTooLong { .. } => FaultCode::ReasonTooLong,
            Error::NoSuchWorkspace(_) => FaultCode::NoSuchWorkspace,
            Error::WorkspaceExists(_) => FaultCode::WorkspaceExists,
            Error::NotInWorkspace(_)
            | Error::NotInWorkspaceFix { .. }
            | Error::LeadsOutside { .. } => FaultCode::NotInWorkspace,
            Error::WorkspaceOff(_) => FaultCode::WorkspaceOff,
            Error::FolderGone(_) => FaultCode::FolderGone,
            Error::NoFolder(_) => FaultCode::NoFolder,
            Error::NotWritten { .. } => FaultCode::NotWritten,
            Error::NotKept { .. } => FaultCode::NotKept,
            Error::Io { .. } => FaultCode::Io,
            Error::Config { .. } => FaultCode::Config,
            Error::Keyring(_) => FaultCode::Keyring,
            Error::NotRunning => FaultCode::NotRunning,
            Error::AlreadyRunning => FaultCode::AlreadyRunning,
            Error::RuntimeDir { .. } => FaultCode::RuntimeDir,
            Error::ForeignServer { .. } => FaultCode::ForeignServer,
            Error::NoDisplay(_) => FaultCode::NoDisplay,
            Error::NoWindow => FaultCode::NoWindow,
            Error::Timeout => FaultCode::Timeout,
            Error::Control(_) => FaultCode::Control,
            Error::NoContainerBridge => FaultCode::NoContainerBridge,
            Error::ContainerAddress(_) => FaultCode::ContainerAddress,
            Error::ContainerPath(_) => FaultCode::ContainerPath,
            Error::ContainersOff(_) => FaultCode::ContainersOff,
            Error::EditorMessage(_) => FaultCode::BadMessage,
        }
    }
}

/// A size as a person reads it: 16 MiB, 3.2 MiB, 900 bytes.
pub fn in_units(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    match bytes {
        b if b >= MIB && b % MIB == 0 => format!("{} MiB", b / MIB),
        b if b >= MIB => format!("{:.1} MiB", b as f64 / MIB as f64),
        b if b >= 1024 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

/// A size only known to pass `limit` (read up to one byte over it) says so, not a made-up size.
fn size_words(size: u64, limit: u64) -> String {
    match size {
        s if s == limit + 1 => format!("over {}", in_units(limit)),
        s => in_units(s),
    }
}

/// Which bound on waiting reviews a refused proposal would pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueBound {
    /// Reviews one CLI session may hold.
    Session(usize),
    /// Reviews one workspace may hold, all sessions together.
    Workspace(usize),
    /// Bytes of text one workspace's reviews may hold.
    Bytes(usize),
    /// What `redline diff` may hold open across its invocations.
    Diffs,
}

impl std::fmt::Display for QueueBound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueueBound::Session(n) => write!(f, "this CLI already has {n} reviews waiting"),
            QueueBound::Workspace(n) => write!(f, "the workspace already has {n} reviews waiting"),
            QueueBound::Bytes(n) => write!(
                f,
                "the reviews waiting in this workspace hold {} MiB of text",
                n >> 20
            ),
            QueueBound::Diffs => f.write_str("answer the diffs already waiting first"),
        }
    }
}

/// What the review window sends a review's CLI (`Error::CannotTake`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sendable {
    /// Lines of the review to ask about.
    Mention,
    /// The user's selection in the review.
    Selection,
}

impl std::fmt::Display for Sendable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Sendable::Mention => "a mention",
            Sendable::Selection => "a selection",
        })
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounds' words are what `Error::Busy` carried before they were typed; their code is
    /// still "busy", which the UI and scripts read.
    #[test]
    fn bounds_read_as_before_and_share_the_busy_code() {
        let said = |e: Error| {
            assert_eq!(e.code(), crate::error::FaultCode::Busy, "{e}");
            e.to_string()
        };
        let full = |bound| Error::QueueFull {
            file: "/ws/a.rs".into(),
            bound,
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
            said(Error::MixedPair {
                left: "/l".into(),
                right: "/r".into()
            }),
            "/l and /r are not both files or both directories"
        );
        assert_eq!(
            said(Error::TreesTooWide {
                left: "/l".into(),
                right: "/r".into(),
                limit: 200
            }),
            "/l and /r differ in more than 200 files: `redline diff` opens at most 200"
        );
        assert_eq!(
            said(Error::TooManyEntries {
                dir: "/l".into(),
                limit: 100_000
            }),
            "/l holds more than 100000 entries"
        );
    }
}
