//! Every error code Redline answers with, declared once: the review window, the control and
//! editor channels and scripts read these strings, and the UI's `Fault` carries this type.

use serde::{Deserialize, Serialize};

/// A stable machine-readable code, written on the wire as its snake_case name
/// (`FaultCode::NoSuchReview` is `"no_such_review"`). `Error::code` maps each error to one; the
/// few faults that are no `Error` (a request line that cannot be read, a window the shell cannot
/// hide) name theirs here too, so no code is spelt anywhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum FaultCode {
    // What a command or the window was given and cannot take: the same request fails again.
    Usage,
    RelativePath,
    OutsideWorkspace,
    NotInWorkspace,
    BadPath,
    NotText,
    IsDirectory,
    NotRegularFile,
    EmptyContent,
    ReasonTooLong,
    BadComment,
    NotWholeTurn,
    ContainerAddress,
    ContainerPath,
    BadSetting,
    // A bound: the request, or what waits for decisions, is over it.
    TooLarge,
    /// The reviews waiting fill a bound: answering some of them makes room.
    Busy,
    // A review, workspace or folder that is not (or no longer) what the request needs.
    NoSuchReview,
    NoReview,
    NoOpenDiff,
    CannotTake,
    ReadOnly,
    Superseded,
    NoSuchWorkspace,
    WorkspaceExists,
    WorkspaceOff,
    FolderGone,
    NoFolder,
    ContainersOff,
    NoContainerBridge,
    NoSuchRemote,
    RemoteExists,
    /// The review is another machine's: what was asked reads or opens files on this one.
    OnRemote,
    /// A decision on another machine's review that it did not apply (the message says why).
    NotApplied,
    /// A remote that has not answered (a decision: it is sent again when the link is back).
    Unanswered,
    /// A remote whose link is not up.
    NotConnected,
    /// `remote add --install` could not put Redline on the remote.
    NotInstalled,
    // What Redline could not do on this machine.
    NotWritten,
    NotKept,
    Io,
    Config,
    HookConfig,
    Keyring,
    NoDisplay,
    NoWindow,
    /// The review window's shell could not show or hide its window.
    Window,
    Timeout,
    // The instance and its channels.
    NotRunning,
    AlreadyRunning,
    RuntimeDir,
    ForeignServer,
    /// The running instance refused a command's request (its message says why).
    Refused,
    /// A channel to the instance failed: it went away, or answered what cannot be read.
    Control,
    /// A control request line that is not a request.
    BadRequest,
    /// An editor channel line that is not a message.
    BadMessage,
    /// The review window's shell could not read what the instance answered.
    Internal,
}

#[cfg(test)]
mod tests {
    use super::FaultCode;

    /// The strings scripts and the UI read stay as they were when codes were literals.
    #[test]
    fn codes_are_written_as_their_snake_case_names() {
        let wire = |c: FaultCode| serde_json::to_value(c).unwrap();
        assert_eq!(wire(FaultCode::NoSuchReview), "no_such_review");
        assert_eq!(wire(FaultCode::Busy), "busy");
        assert_eq!(wire(FaultCode::BadMessage), "bad_message");
        assert_eq!(wire(FaultCode::BadRequest), "bad_request");
        let read: FaultCode = serde_json::from_str("\"too_large\"").unwrap();
        assert_eq!(read, FaultCode::TooLarge);
    }
}
