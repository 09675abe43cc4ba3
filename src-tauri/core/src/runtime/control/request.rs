//! What a `redline` command says to the running instance and hears back: one JSON request line,
//! one JSON reply line.

use crate::api::fault::Fault;
use crate::error::{ControlFailure, Error, Result};
use crate::review::ReviewId;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "cmd", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Request {
    Status,
    WorkspaceAdd {
        path: PathBuf,
        /// Adds `/`, the home folder or a folder around other workspaces too.
        #[serde(default)]
        force: bool,
    },
    WorkspaceRemove {
        path: PathBuf,
    },
    WorkspaceEnable {
        path: PathBuf,
        enabled: bool,
    },
    WorkspaceList,
    ReviewList,
    ReviewShow {
        id: ReviewId,
    },
    ReviewAccept {
        id: ReviewId,
        content: Option<String>,
    },
    ReviewReject {
        id: ReviewId,
        /// Why, for whoever asked (where its protocol carries it); absent from older senders.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    ReviewWait {
        file: Option<String>,
        timeout_ms: u64,
    },
    TokenRotate {
        path: PathBuf,
    },
    Pin {
        path: PathBuf,
    },
    ContainerEnable {
        path: PathBuf,
        address: Option<std::net::Ipv4Addr>,
    },
    ContainerDisable {
        path: PathBuf,
    },
    ContainerArgs {
        path: PathBuf,
        container_path: Option<String>,
        home: String,
    },
    /// Show the review window (a second `redline` launch reaching the running one).
    Show,
    /// `redline propose`: answered at once, or with `wait` when decided.
    Propose(crate::runtime::instance::local::Propose),
    /// `redline diff`: answered at once, or with `wait` when every file is decided.
    Diff(crate::runtime::instance::local::Diff),
    /// `redline hook`: a CLI's pre-edit hook, answered with its verdict once the user decides.
    Hook(crate::protocols::hook::HookCall),
    /// `redline hook --turn-review`: a CLI's end of turn, answered once the user has seen the
    /// turn's changes (at once when there are none).
    TurnReview(crate::protocols::hook::HookCall),
    /// Turns this connection into an editor channel (runtime::editor): no reply line, JSON lines
    /// both ways until either side closes.
    Editor,
    /// Turns this connection into the review window's channel (runtime::window): no reply
    /// line, JSON lines both ways until either side closes.
    Window,
    /// One editor message from a one-shot command (`redline mention`, `redline context`).
    EditorSend {
        message: crate::review::editor::Message,
    },
    Quit,
}

/// The answer to `ContainerEnable`: the workspace and its containers as they now stand.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ContainersOn {
    pub path: PathBuf,
    /// Whether the workspace's server runs (containers apply when it does).
    pub running: bool,
    pub containers: Option<crate::api::status::ContainerStatus>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Response {
    Ok(Value),
    Error(Fault),
}

/// How long a `redline` command may take to send its request line.
pub(super) const REQUEST_READ: Duration = Duration::from_secs(10);

/// The longest request line: a proposal or a diff's text, JSON-escaped, with room to spare.
pub const MAX_REQUEST_BYTES: u64 = 3 * crate::surfaces::diff_pair::MAX_DIFF_BYTES as u64 / 2;

/// Sends `req` on a connection to the instance and reads its reply.
pub(super) async fn request<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    req: &Request,
) -> Result<Value> {
    let mut stream = BufReader::new(stream);
    let mut out =
        serde_json::to_vec(req).map_err(|e| Error::Control(ControlFailure::Unsendable(e)))?;
    out.push(b'\n');
    // Words for the user: Redline went away mid-request (quit, crashed, or refused the request).
    let lost = |e: std::io::Error| Error::Control(ControlFailure::Closed(e));
    stream.get_mut().write_all(&out).await.map_err(lost)?;
    let mut line = String::new();
    stream.read_line(&mut line).await.map_err(lost)?;
    match serde_json::from_str::<Response>(&line) {
        Ok(Response::Ok(v)) => Ok(v),
        // A usage error stays one, for the command's exit status.
        Ok(Response::Error(f)) if f.code == crate::error::FaultCode::Usage => {
            Err(Error::Usage(f.message))
        }
        Ok(Response::Error(f)) => Err(Error::Refused(f.message)),
        Err(_) => Err(Error::Control(ControlFailure::NoAnswer)),
    }
}
