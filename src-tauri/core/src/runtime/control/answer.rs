//! The instance's side of the control channel: each connection's request line read (bounded),
//! carried out on the instance, and answered; a local review's connection held until decided, an
//! editor's handed to the editor channel.

use super::request::{ContainersOn, Request, Response, MAX_REQUEST_BYTES, REQUEST_READ};
use crate::api::fault::Fault;
use crate::error::{Error, Result};
use crate::runtime::companion::Decision;
use crate::runtime::instance::local;
use crate::runtime::instance::Instance;
use serde::Serialize;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

#[expect(clippy::too_many_lines, reason = "issue 38: rewritten by another part")]
async fn dispatch(instance: &Instance, req: Request) -> Result<Value> {
    Ok(match req {
        Request::Status => value(&instance.status().await),
        Request::WorkspaceAdd { path, force } => json!(instance.add_workspace(&path, force).await?),
        Request::WorkspaceRemove { path } => json!(instance.remove_workspace(&path).await?),
        Request::WorkspaceEnable { path, enabled } => {
            instance.set_enabled(&path, enabled).await?;
            Value::Null
        }
        Request::WorkspaceList => value(&instance.workspaces().await),
        Request::ReviewList => value(instance.list()),
        Request::ReviewShow { id } => json!(instance.show(id)?),
        Request::ReviewAccept { id, content } => {
            instance.decide(id, Decision::accept(content)).await?;
            Value::Null
        }
        Request::ReviewReject { id, reason } => {
            instance.decide(id, Decision::Reject { reason }).await?;
            Value::Null
        }
        Request::ReviewWait { file, timeout_ms } => value(
            &instance
                .wait(file.as_deref(), Duration::from_millis(timeout_ms))
                .await?,
        ),
        Request::TokenRotate { path } => {
            instance.rotate_token(&path).await?;
            Value::Null
        }
        Request::Pin { path } => value(&instance.pin(&path).await?),
        Request::ContainerEnable { path, address } => {
            let path = instance.set_containers(&path, true, address).await?;
            let status = instance.status().await;
            let w = status.workspaces.into_iter().find(|w| w.path == path);
            value(ContainersOn {
                running: w.as_ref().is_some_and(|w| w.port.is_some()),
                containers: w.and_then(|w| w.containers),
                path,
            })
        }
        Request::ContainerDisable { path } => {
            json!(instance.set_containers(&path, false, None).await?)
        }
        Request::ContainerArgs {
            path,
            container_path,
            home,
        } => value(
            &instance
                .container_args(&path, container_path.as_deref(), &home)
                .await?,
        ),
        Request::Show => json!(instance.request_show()),
        // Answered in `answer`: they hold the connection until decided.
        Request::Propose(_) | Request::Diff(_) | Request::Hook(_) | Request::TurnReview(_) => {
            return Err(Error::Control(
                crate::error::ControlFailure::LocalReviewShared,
            ))
        }
        // Answered in `answer`, which hands the connection over.
        Request::Editor | Request::Window => {
            return Err(Error::Control(crate::error::ControlFailure::ChannelShared))
        }
        Request::EditorSend { message } => {
            instance.editor_message(None, message).await?;
            Value::Null
        }
        Request::Quit => {
            instance.request_quit();
            Value::Null
        }
    })
}

fn value<T: Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Answers one connection: a request line in, a reply line out. (The named pipe knows no pid.)
#[cfg(windows)]
pub(super) async fn answer<S: AsyncRead + AsyncWrite + Unpin>(instance: &Instance, stream: S) {
    answer_from(instance, stream, None).await
}

/// As `answer`, knowing the process that connected (`pid`), to name it on a local review.
#[expect(clippy::too_many_lines, reason = "issue 38: rewritten by another part")]
pub(super) async fn answer_from<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: S,
    pid: Option<u32>,
) {
    let mut stream = BufReader::new(stream);
    let mut line = String::new();
    // A request is one line, bounded: a peer that does not send it in time is dropped.
    let read = {
        let mut bounded = (&mut stream).take(MAX_REQUEST_BYTES);
        tokio::time::timeout(REQUEST_READ, bounded.read_line(&mut line)).await
    };
    let reply = match read {
        Ok(Ok(n)) if n as u64 == MAX_REQUEST_BYTES && !line.ends_with('\n') => {
            Response::Error(Fault {
                code: crate::error::FaultCode::TooLarge,
                message: format!("control request over {MAX_REQUEST_BYTES} bytes"),
            })
        }
        Ok(Ok(_)) => match serde_json::from_str::<Request>(&line) {
            Ok(Request::Propose(p)) => {
                let wait = p.wait;
                let opened = instance.propose_local(p, pid).await;
                match local(instance, &mut stream, opened, wait).await {
                    Some(reply) => reply,
                    None => return,
                }
            }
            Ok(Request::Diff(d)) => {
                let wait = d.wait;
                let opened = instance.diff_local(d, pid).await;
                match local(instance, &mut stream, opened, wait).await {
                    Some(reply) => reply,
                    None => return,
                }
            }
            // No verdict: the hook went away, and its reviews with it.
            Ok(Request::Hook(call)) => match instance.hook(call, pid).await {
                Ok(waiting) => match waiting.verdict(instance, gone(&mut stream)).await {
                    Some(v) => Response::Ok(value(v)),
                    None => return,
                },
                Err(v) => Response::Ok(value(v)),
            },
            Ok(Request::TurnReview(call)) => match instance.turn_review(call, pid).await {
                Ok(waiting) => match waiting.verdict(instance, gone(&mut stream)).await {
                    Some(v) => Response::Ok(value(v)),
                    None => return,
                },
                Err(v) => Response::Ok(value(v)),
            },
            Ok(Request::Editor) => {
                return crate::runtime::editor::serve(instance, stream, pid).await
            }
            Ok(Request::Window) => {
                return crate::runtime::window::channel::serve(instance, stream).await
            }
            Ok(req) => match dispatch(instance, req).await {
                Ok(v) => Response::Ok(v),
                Err(e) => Response::Error((&e).into()),
            },
            Err(e) => Response::Error(Fault {
                code: crate::error::FaultCode::BadRequest,
                message: format!("bad control request: {e}"),
            }),
        },
        _ => return,
    };
    let mut out = serde_json::to_vec(&reply).unwrap_or_default();
    out.push(b'\n');
    let _ = stream.get_mut().write_all(&out).await;
}

/// Ends when the peer, which sends nothing more once it has asked, goes away (a read returns).
async fn gone<S: AsyncRead + Unpin>(stream: &mut BufReader<S>) {
    let mut probe = [0u8; 1];
    let _ = stream.read(&mut probe).await;
}

/// Answers a local review's request (see `local::Opened::answer`); `None`: the command went away.
async fn local<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: &mut BufReader<S>,
    opened: Result<local::Opened>,
    wait: bool,
) -> Option<Response> {
    let opened = match opened {
        Ok(o) => o,
        Err(e) => return Some(Response::Error((&e).into())),
    };
    let answer = opened.answer(instance, wait, gone(stream)).await?;
    Some(Response::Ok(value(answer)))
}
