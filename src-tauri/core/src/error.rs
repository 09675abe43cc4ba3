//! Typed errors of the core, each with a stable code that every edge maps once.

use std::path::PathBuf;

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
    #[error("{path} cannot be resolved safely: {reason}")]
    BadPath { path: String, reason: &'static str },
    #[error("{0} is not a regular file (a FIFO, socket or device is never read)")]
    NotRegularFile(String),
    #[error("{path} is {size} bytes; Redline reviews files up to {limit} bytes")]
    TooLarge { path: String, size: u64, limit: u64 },
    #[error("{0}")]
    Busy(String),
    #[error("no review with id {0}")]
    NoSuchReview(u64),
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
    #[error("{0} is not a workspace")]
    NoSuchWorkspace(PathBuf),
    #[error("{0} is already a workspace")]
    WorkspaceExists(PathBuf),
    #[error("no enabled workspace contains {0}")]
    NotInWorkspace(PathBuf),
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
    #[error("workspace {0} is turned off")]
    WorkspaceOff(PathBuf),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {path} is invalid: {message}")]
    Config { path: PathBuf, message: String },
    #[error("keyring: {0}")]
    Keyring(String),
    #[error("no running Redline instance (start one with `redline serve --headless`)")]
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
    #[error("timed out waiting for a review")]
    Timeout,
    #[error("control channel: {0}")]
    Control(String),
    #[error("no container bridge found (looked for docker0, podman0, cni-podman0); give the host address containers reach with --address ADDR")]
    NoContainerBridge,
    #[error(
        "{0} cannot be listened on for containers: give one address of this host (never 0.0.0.0)"
    )]
    ContainerAddress(String),
    #[error("{0} is not a usable container path: give an absolute path such as /workspace, other than / and not inside or around the workspace's own path")]
    ContainerPath(String),
    #[error("containers are off for {0}; turn them on with `redline container enable`")]
    ContainersOff(PathBuf),
    #[error("bad editor message: {0}")]
    EditorMessage(String),
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A stable machine-readable code for the UI, the control channel and scripts.
    pub fn code(&self) -> &'static str {
        match self {
            Error::OutsideWorkspace { .. } => "outside_workspace",
            Error::RelativePath(_) => "relative_path",
            Error::NotText(_) => "not_text",
            Error::IsDirectory(_) => "is_directory",
            Error::BadPath { .. } => "bad_path",
            Error::NotRegularFile(_) => "not_regular_file",
            Error::TooLarge { .. } => "too_large",
            Error::Busy(_) => "busy",
            Error::NoSuchReview(_) => "no_such_review",
            Error::NoOpenDiff(_) => "no_open_diff",
            Error::CannotTake { .. } => "cannot_take",
            Error::ReadOnly { .. } => "read_only",
            Error::Superseded { .. } => "superseded",
            Error::Usage(_) => "usage",
            Error::Refused(_) => "refused",
            Error::EmptyContent => "empty_content",
            Error::NoSuchWorkspace(_) => "no_such_workspace",
            Error::WorkspaceExists(_) => "workspace_exists",
            Error::NotInWorkspace(_) => "not_in_workspace",
            Error::WorkspaceOff(_) => "workspace_off",
            Error::NotWritten { .. } => "not_written",
            Error::NotKept { .. } => "not_kept",
            Error::Io { .. } => "io",
            Error::Config { .. } => "config",
            Error::Keyring(_) => "keyring",
            Error::NotRunning => "not_running",
            Error::AlreadyRunning => "already_running",
            Error::RuntimeDir { .. } => "runtime_dir",
            Error::ForeignServer { .. } => "foreign_server",
            Error::NoDisplay(_) => "no_display",
            Error::Timeout => "timeout",
            Error::Control(_) => "control",
            Error::NoContainerBridge => "no_container_bridge",
            Error::ContainerAddress(_) => "container_address",
            Error::ContainerPath(_) => "container_path",
            Error::ContainersOff(_) => "containers_off",
            Error::EditorMessage(_) => "bad_message",
        }
    }
}

/// What makes a directory unfit to hold the control socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirProblem {
    OtherOwner {
        uid: u32,
    },
    Symlink,
    NotDirectory,
    /// Ours, but group or others have some access (`mode` is its permission bits).
    OpenMode {
        mode: u32,
    },
}

impl DirProblem {
    /// What the user can do about it.
    pub fn fix(&self) -> &'static str {
        match self {
            DirProblem::OtherOwner { .. } => {
                "set XDG_RUNTIME_DIR to a directory of your own, or have it removed"
            }
            DirProblem::Symlink | DirProblem::NotDirectory => {
                "remove it (`redline serve` creates its own)"
            }
            DirProblem::OpenMode { .. } => {
                "`chmod 700` it (`redline serve` does so when it starts)"
            }
        }
    }
}

impl std::fmt::Display for DirProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DirProblem::OtherOwner { uid } => write!(f, "belongs to another user (uid {uid})"),
            DirProblem::Symlink => f.write_str("is a symbolic link"),
            DirProblem::NotDirectory => f.write_str("is not a directory"),
            DirProblem::OpenMode { mode } => {
                write!(f, "is open to other users (mode {mode:o}, not 700)")
            }
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
