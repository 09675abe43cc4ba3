//! The instance's side of the control channel: each connection's request line read (bounded),
//! carried out on the instance, and answered; a local review's connection held until decided, an
//! editor's handed to the editor channel.

use super::request::{Request, Response, MAX_REQUEST_BYTES, REQUEST_READ};
use crate::api::fault::Fault;
use crate::error::{FaultCode, Result};
use crate::runtime::instance::local;
use crate::runtime::instance::Instance;
use crate::runtime::line::{self, delimited, Delimited, PeerLine};
use crate::surfaces::action::Call;
use serde::Serialize;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};

/// How long the asker has to take its reply line.
const REPLY_WRITE: std::time::Duration = std::time::Duration::from_secs(10);

fn value<T: Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Answers one connection: a request line in, a reply line out. (The named pipe knows no pid.)
#[cfg(windows)]
pub(super) async fn answer<S: AsyncRead + AsyncWrite + Unpin>(instance: &Instance, stream: S) {
    answer_from(instance, stream, None).await
}

/// As `answer`, knowing the process that connected (`pid`), to name it on a local review.
pub(super) async fn answer_from<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: S,
    pid: Option<u32>,
) {
    let mut stream = delimited(stream, MAX_REQUEST_BYTES as usize);
    let reply = match read_request(&mut stream).await {
        Some(Ok(Request::Propose(p))) => {
            let wait = p.wait;
            let opened = instance.propose_local(p, pid).await;
            match local(instance, &mut stream, opened, wait).await {
                Some(reply) => reply,
                None => return,
            }
        }
        Some(Ok(Request::Diff(d))) => {
            let wait = d.wait;
            let opened = instance.diff_local(d, pid).await;
            match local(instance, &mut stream, opened, wait).await {
                Some(reply) => reply,
                None => return,
            }
        }
        // No ruling: the hook went away, and its reviews with it.
        Some(Ok(Request::Hook(call))) => match instance.hook(call, pid).await {
            Ok(waiting) => match waiting.ruling(instance.reviews(), gone(&mut stream)).await {
                Some(v) => Response::Ok(value(v)),
                None => return,
            },
            Err(v) => Response::Ok(value(v)),
        },
        Some(Ok(Request::TurnReview(call))) => {
            match turn_review(instance, &mut stream, call, pid).await {
                Some(reply) => reply,
                None => return,
            }
        }
        Some(Ok(Request::HookRecord(call))) => {
            instance.hook_record(call).await;
            Response::Ok(Value::Null)
        }
        Some(Ok(Request::TurnStart(call))) => Response::Ok(value(instance.turn_start(call).await)),
        Some(Ok(Request::Editor)) => {
            return crate::runtime::editor::serve(instance, stream, pid).await
        }
        Some(Ok(Request::Window)) => {
            return crate::runtime::window::channel::serve(instance, stream).await
        }
        Some(Ok(Request::Bridge)) => {
            return crate::runtime::remote::serve::serve(instance, stream).await
        }
        Some(Ok(Request::Action(call))) => match call.handle(instance).await {
            Ok(v) => Response::Ok(v),
            Err(e) => Response::Error((&e).into()),
        },
        Some(Err(fault)) => Response::Error(fault),
        None => return,
    };
    let _ = line::send(&mut stream, &reply, REPLY_WRITE).await;
}

/// A CLI's end of turn: its ruling once the user has seen the turn (`None`: the hook went away),
/// the turn's end recorded with it.
async fn turn_review<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: &mut Delimited<S>,
    call: crate::protocols::hook::HookCall,
    pid: Option<u32>,
) -> Option<Response> {
    let (ruling, whole) = match instance.turn_review(call.clone(), pid).await {
        Ok(waiting) => {
            let whole = waiting.whole();
            (
                waiting.ruling(instance.reviews(), gone(stream)).await?,
                whole,
            )
        }
        Err(v) => (v, false),
    };
    instance.turn_answered(&call, &ruling, whole).await;
    Some(Response::Ok(value(ruling)))
}

/// The connection's request line, bounded in size and in time; `None`: none came in time (or
/// the connection failed), and the peer is dropped unanswered; `Err`: the fault to answer.
async fn read_request<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut Delimited<S>,
) -> Option<std::result::Result<Request, Fault>> {
    match tokio::time::timeout(REQUEST_READ, line::recv(stream)).await {
        Ok(Ok(PeerLine::TooLong)) => Some(Err(Fault {
            code: FaultCode::TooLarge,
            message: format!("control request over {MAX_REQUEST_BYTES} bytes"),
        })),
        Ok(Ok(PeerLine::Text(line))) => {
            Some(serde_json::from_slice::<Request>(&line).map_err(|e| Fault {
                code: FaultCode::BadRequest,
                message: format!("bad control request: {}", why_unread(&line, e)),
            }))
        }
        _ => None,
    }
}

/// Why `line` is no request: an action's own complaint (a missing field, an unknown name) where
/// it names one, rather than serde's "no variant matched".
fn why_unread(line: &[u8], e: serde_json::Error) -> serde_json::Error {
    match serde_json::from_slice::<Call>(line) {
        Err(action) => action,
        Ok(_) => e,
    }
}

/// Ends when the peer, which sends nothing more once it has asked, goes away (or says more).
async fn gone<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut Delimited<S>) {
    let _ = line::recv(stream).await;
}

/// Answers a local review's request (see `local::Opened::answer`); `None`: the command went away.
async fn local<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: &mut Delimited<S>,
    opened: Result<local::Opened>,
    wait: bool,
) -> Option<Response> {
    let opened = match opened {
        Ok(o) => o,
        Err(e) => return Some(Response::Error((&e).into())),
    };
    let answer = opened
        .answer(instance.reviews(), wait, gone(stream))
        .await?;
    Some(Response::Ok(value(answer)))
}
