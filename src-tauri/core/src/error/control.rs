//! Why a channel to the running instance, or the plumbing around it, failed: the causes of the
//! `control` code, each worded once here rather than in a string at each site.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ControlFailure {
    #[error("this request cannot be sent to Redline: {0}")]
    Unsendable(#[source] serde_json::Error),
    /// Redline went away mid-request (quit, crashed, or refused the request).
    #[error("Redline closed the connection before answering ({0}); see `redline status`")]
    Closed(#[source] std::io::Error),
    /// The reply line was not a reply: the instance ended while writing it.
    #[error("Redline stopped before it answered (it quit or crashed); see `redline status`")]
    NoAnswer,
    /// The reply was one, but not of the shape the command asked for.
    #[error("unexpected answer: {0}")]
    UnexpectedAnswer(#[source] serde_json::Error),
    #[error("window channel: {0}")]
    WindowHello(#[source] serde_json::Error),
    #[error("window channel: {0}")]
    WindowChannel(#[source] std::io::Error),
    #[error("{0}")]
    EditorHello(#[source] serde_json::Error),
    #[error("{0}")]
    StdioChannel(#[source] std::io::Error),
    /// `redline bridge --start` could not start an instance here.
    #[error("could not start `redline serve --headless` here ({why}); its log: {}", log.display())]
    NotStarted {
        why: String,
        log: std::path::PathBuf,
    },
    #[error("`redline editor` speaks on stdin and stdout only: give --stdio")]
    EditorWithoutStdio,
    /// A local review (propose, diff, a hook) holds its connection until decided.
    #[error("a local review needs its own connection")]
    LocalReviewShared,
    /// The editor and window channels take the connection over.
    #[error("a channel is a connection")]
    ChannelShared,
    /// The CLI killed outright leaves its hook running: the hook ends with it.
    #[error("the CLI that ran this hook is gone")]
    HookOrphaned,
    /// The desktop app's servers ended in a panic (or were cancelled).
    #[error("the servers stopped: {0}")]
    ServersStopped(#[source] tokio::task::JoinError),
    /// A tray action's worker thread ended in a panic (or was cancelled).
    #[error("{0}")]
    ActionStopped(#[source] tokio::task::JoinError),
    #[error("cannot copy the token: {0}")]
    Clipboard(String),
    #[error("cannot open the folder: {0}")]
    OpenFolder(#[source] std::io::Error),
    /// The login item could not be read or changed (the autostart crate's words).
    #[error("{0}")]
    Autostart(String),
    #[error("cannot tell who serves {} ({source}): nothing was sent to it", path.display())]
    SocketOwnerUnknown {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the control pipe is served by process {pid}, which runs as another user: nothing was sent to it (another user may have taken Redline's pipe name)")]
    PipeOfAnotherUser { pid: u32 },
    #[error("cannot tell which user runs process {pid} behind the control pipe ({source}): nothing was sent to it")]
    PipeUserUnknown {
        pid: u32,
        #[source]
        source: std::io::Error,
    },
    #[error("{name} belongs to another user: nothing was sent to it")]
    PipeRefused { name: String },
    #[error("cannot tell which process serves {name}: {source}")]
    PipeServerUnknown {
        name: String,
        #[source]
        source: std::io::Error,
    },
    #[error("who am I: {0}")]
    WhoAmI(#[source] std::io::Error),
}
