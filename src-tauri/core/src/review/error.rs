//! The review layer's errors: a review that is not (or no longer) what a request needs, what a
//! decision cannot carry, a bound on what waits, and a file that cannot be reviewed. Each code is
//! written beside its variant; `crate::error::Error::Review` carries them to the edges.

use crate::error::FaultCode;

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// A proposal must be text: the CLIs carry it as a JSON string.
    #[error("{0} is not a UTF-8 text file")]
    NotText(String),
    #[error("{0} is a directory")]
    IsDirectory(String),
    #[error("{0} is not a regular file (a FIFO, socket or device is never read)")]
    NotRegularFile(String),
    #[error("{path} is {}; Redline reviews files up to {}", size_words(*size, *limit), in_units(*limit))]
    TooLarge { path: String, size: u64, limit: u64 },
    /// A proposal refused because the reviews already waiting fill a bound.
    #[error("{file} was not opened: {bound}")]
    QueueFull { file: String, bound: QueueBound },
    #[error("no review with id {0}")]
    NoSuchReview(u64),
    /// A whole turn's action (`turnFiles`, `turnFile`, `turnUndo`) on a review that is not one.
    #[error("review {0} is not a whole turn's review (the turn was not checkpointed)")]
    NotWholeTurn(u64),
    /// An editor rejected a file no CLI has a review pending for.
    #[error("no review of {} is pending", .0.display())]
    NoReviewOf(std::path::PathBuf),
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
    /// A comment on a diff's line that cannot be sent (`review::comment::clean`).
    #[error("{0}")]
    BadComment(String),
    /// What reads or opens a review's file on this machine, asked of another machine's review.
    #[error("review {id} is on {remote}: its file is that machine's, and is never read or opened on this one")]
    OnRemote { id: u64, remote: String },
}

impl ReviewError {
    pub fn code(&self) -> FaultCode {
        match self {
            ReviewError::NotText(_) => FaultCode::NotText,
            ReviewError::IsDirectory(_) => FaultCode::IsDirectory,
            ReviewError::NotRegularFile(_) => FaultCode::NotRegularFile,
            ReviewError::TooLarge { .. } => FaultCode::TooLarge,
            // One code for every bound the instance holds reviews to: the UI and scripts read "busy".
            ReviewError::QueueFull { .. } => FaultCode::Busy,
            ReviewError::NoSuchReview(_) => FaultCode::NoSuchReview,
            ReviewError::NotWholeTurn(_) => FaultCode::NotWholeTurn,
            ReviewError::NoReviewOf(_) => FaultCode::NoReview,
            ReviewError::NoOpenDiff(_) => FaultCode::NoOpenDiff,
            ReviewError::CannotTake { .. } => FaultCode::CannotTake,
            ReviewError::ReadOnly { .. } => FaultCode::ReadOnly,
            ReviewError::Superseded { .. } => FaultCode::Superseded,
            ReviewError::EmptyContent => FaultCode::EmptyContent,
            ReviewError::ReasonTooLong { .. } => FaultCode::ReasonTooLong,
            ReviewError::BadComment(_) => FaultCode::BadComment,
            ReviewError::OnRemote { .. } => FaultCode::OnRemote,
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
    /// Decisions sent to another machine and not answered yet.
    Unanswered(usize),
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
            QueueBound::Unanswered(n) => write!(
                f,
                "{n} decisions wait for that machine's answer (`redline remote list`)"
            ),
        }
    }
}

/// What the review window sends a review's CLI (`ReviewError::CannotTake`).
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
