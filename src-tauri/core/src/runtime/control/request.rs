//! What a `redline` command says to the running instance and hears back: one JSON request line,
//! one JSON reply line.

use crate::api::fault::Fault;
use crate::error::{ControlFailure, Error, FaultCode, Result};
use crate::runtime::line::{self, delimited, PeerLine};
use crate::surfaces::action::{Act, Call};
use futures::SinkExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// A control request: an action (`surfaces::action`, the vocabulary the review window shares),
/// or one of the requests that hold their connection (a local review until decided, a channel
/// for good).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "cmd", rename_all = "camelCase")]
pub enum Request {
    /// `redline propose`: answered at once, or with `wait` when decided.
    Propose(crate::runtime::instance::local::Propose),
    /// `redline diff`: answered at once, or with `wait` when every file is decided.
    Diff(crate::runtime::instance::local::Diff),
    /// `redline hook`: a CLI's pre-edit hook, answered with its ruling once the user decides.
    Hook(crate::protocols::hook::HookCall),
    /// `redline hook --record-only`: a CLI's pre-edit hook in the turn mode, answered at once
    /// once the edit's files are recorded for the turn's review (no review opened).
    HookRecord(crate::protocols::hook::HookCall),
    /// `redline hook --turn-review`: a CLI's end of turn, answered once the user has seen the
    /// turn's changes (at once when there are none).
    TurnReview(crate::protocols::hook::HookCall),
    /// `redline hook --turn-start`: a CLI's prompt hook, answered once the workspace is
    /// checkpointed (or why not: the prompt goes on either way).
    TurnStart(crate::protocols::hook::HookCall),
    /// Turns this connection into an editor channel (runtime::editor): no reply line, JSON lines
    /// both ways until either side closes.
    Editor,
    /// Turns this connection into the review window's channel (runtime::window): no reply
    /// line, JSON lines both ways until either side closes.
    Window,
    /// Turns this connection into a bridge to a desktop (runtime::remote, `redline bridge`):
    /// no reply line, JSON lines both ways until either side closes or the link goes silent.
    Bridge,
    /// Any action, sent as `{"cmd": its name, ...its fields}`.
    #[serde(untagged)]
    Action(Call),
}

impl<A: Act> From<A> for Request {
    fn from(action: A) -> Request {
        Request::Action(action.into())
    }
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

/// The longest reply line: a review's two texts and the edited one, JSON-escaped (the window's
/// channel carries the same replies).
pub const MAX_REPLY_BYTES: u64 = 4 * crate::surfaces::diff_pair::MAX_DIFF_BYTES as u64;

/// An action's reply, read from the JSON the instance sent.
pub fn decode<A: Act>(value: Value) -> Result<A::Reply> {
    serde_json::from_value(value).map_err(|e| Error::Control(ControlFailure::UnexpectedAnswer(e)))
}

/// Sends `req` on a connection to the instance and reads its reply.
pub(super) async fn request<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    req: &Request,
) -> Result<Value> {
    let mut stream = delimited(stream, MAX_REPLY_BYTES as usize);
    // Words for the user: Redline went away mid-request (quit, crashed, or refused the request).
    let lost = |e: std::io::Error| Error::Control(ControlFailure::Closed(e));
    stream
        .send(req)
        .await
        .map_err(|e| match e.downcast::<serde_json::Error>() {
            Ok(unsendable) => Error::Control(ControlFailure::Unsendable(unsendable)),
            Err(e) => lost(e),
        })?;
    let reply = match line::recv(&mut stream).await.map_err(lost)? {
        PeerLine::Text(reply) => serde_json::from_slice::<Response>(&reply).ok(),
        PeerLine::TooLong | PeerLine::Closed => None,
    };
    match reply {
        Some(Response::Ok(v)) => Ok(v),
        // A usage error stays one, for the command's exit status.
        Some(Response::Error(f)) if f.code == FaultCode::Usage => Err(Error::Usage(f.message)),
        Some(Response::Error(f)) => Err(Error::Refused(f.message)),
        None => Err(Error::Control(ControlFailure::NoAnswer)),
    }
}
