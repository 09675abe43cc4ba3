//! What makes a directory unfit to hold the control socket, and what the user can do.

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
    /// A folder above the runtime dir that others may write to (and not a sticky one).
    WritableAbove {
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
            DirProblem::WritableAbove { .. } => {
                "it holds the runtime dir: set XDG_RUNTIME_DIR to a directory of your own"
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
            DirProblem::WritableAbove { mode } => {
                write!(
                    f,
                    "is writable by group or others (mode {mode:o}, not sticky)"
                )
            }
        }
    }
}
