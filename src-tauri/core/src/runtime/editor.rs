//! The editor channel: JSON lines from an editor plugin in, answers and review events out, over
//! the control socket (`{"cmd":"editor"}` turns a control connection into one). `redline editor
//! --stdio` joins an editor's pipes to it (runtime::stdio_channel). The format is docs/editors.md.

use crate::error::{BadEditorMessage, Error};
use crate::platform::peer::{self, PeerProcess};
use crate::review::editor::{Message, MAX_LINE};
use crate::review::{Outcome, ReviewEvent, ReviewId};
use crate::runtime::instance::Instance;
use crate::runtime::line::{self, rebound, Delimited, PeerLine};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::broadcast::error::RecvError;

static NEXT_OWNER: AtomicU64 = AtomicU64::new(1);

pub(crate) fn error_line(id: Option<u64>, e: &Error) -> Value {
    json!({"type": "error", "id": id, "code": e.code(), "message": e.to_string()})
}

async fn write<S: AsyncRead + AsyncWrite + Unpin>(w: &mut Delimited<S>, v: &Value) -> bool {
    // An editor that stops reading its channel ends it, never the instance's work.
    line::send(w, v, crate::net::limits::PEER_SEND)
        .await
        .is_ok()
}

/// The program that started `redline editor --stdio` (process `pid`): the editor.
async fn editor_of(pid: Option<u32>) -> Option<PeerProcess> {
    let pid = pid?;
    peer::off_runtime(peer::LOOKUP, move || {
        let parent = *crate::platform::process::ancestors(pid).first()?;
        Some(peer::describe(parent))
    })
    .await
    .flatten()
}

/// Serves one editor until it closes the channel; what it said then leaves every workspace.
/// `pid` is the process that connected (`redline editor --stdio`), to name its editor in the
/// status.
pub(crate) async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    mut stream: Delimited<S>,
    pid: Option<u32>,
) {
    rebound(&mut stream, MAX_LINE);
    let owner = NEXT_OWNER.fetch_add(1, Ordering::Relaxed);
    // Subscribe before listing, so a review added in between is seen.
    let mut events = instance.reviews().queue().subscribe();
    let mut paths = pending_paths(instance);
    let ready = json!({"type": "ready", "version": env!("CARGO_PKG_VERSION")});
    if !write(&mut stream, &ready).await {
        return;
    }
    instance.editors().opened(owner);
    // Named alongside: finding the editor may take a while (its tmux pane), the channel need not.
    let naming = editor_of(pid);
    tokio::pin!(naming);
    let mut named = false;
    loop {
        tokio::select! {
            editor = &mut naming, if !named => {
                named = true;
                if let Some(editor) = editor {
                    instance.editors().named(owner, editor);
                }
            }
            line = line::recv(&mut stream) => {
                let reply = match line {
                    Ok(PeerLine::Closed) | Err(_) => break,
                    Ok(PeerLine::TooLong) => Some(error_line(
                        None,
                        &Error::EditorMessage(BadEditorMessage::TooLong { limit: MAX_LINE }),
                    )),
                    Ok(PeerLine::Text(bytes)) => handle(instance, owner, &bytes).await,
                };
                if let Some(reply) = reply {
                    if !write(&mut stream, &reply).await {
                        break;
                    }
                }
            }
            event = events.recv() => {
                let Ok(accepted) = accepted(&mut paths, event) else {
                    break;
                };
                if let Some(path) = accepted {
                    let event = json!({"type": "accepted", "path": path.to_string_lossy()});
                    if !write(&mut stream, &event).await {
                        break;
                    }
                }
            }
        }
    }
    instance.editor_closed(owner).await;
}

/// Each pending review's file on this machine, to say which one an accepted review wrote
/// (another machine's file is none of this editor's).
fn pending_paths(instance: &Instance) -> HashMap<ReviewId, PathBuf> {
    instance
        .reviews()
        .queue()
        .list()
        .iter()
        .filter(|r| r.origin.remote().is_none())
        .map(|r| (r.id, r.path.clone()))
        .collect()
}

/// Follows the pending files through a review event: the file of a review just accepted, which
/// the editor is told of; `Err` once the queue has closed.
fn accepted(
    paths: &mut HashMap<ReviewId, PathBuf>,
    event: Result<ReviewEvent, RecvError>,
) -> Result<Option<PathBuf>, RecvError> {
    match event {
        Ok(ReviewEvent::Added(r) | ReviewEvent::Updated(r)) => {
            if r.origin.remote().is_none() {
                paths.insert(r.id, r.path.clone());
            }
            Ok(None)
        }
        Ok(ReviewEvent::Resolved { id, outcome, .. }) => {
            Ok(paths.remove(&id).filter(|_| outcome == Outcome::Accepted))
        }
        Err(RecvError::Lagged(_)) => Ok(None),
        Err(RecvError::Closed) => Err(RecvError::Closed),
    }
}

/// The `id` of a JSON object line that is not a message Redline takes.
fn id_of(text: &str) -> Option<u64> {
    serde_json::from_str::<Value>(text)
        .ok()?
        .get("id")?
        .as_u64()
}

/// One line's answer: an error, or `ok` when the editor gave an id to answer.
async fn handle(instance: &Instance, owner: u64, bytes: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let message = match Message::parse(text) {
        Ok(m) => m,
        // A message Redline cannot take is still answered under its id, when it has one.
        Err(e) => return Some(error_line(id_of(text), &e)),
    };
    let id = message.id();
    match instance.editor_message(Some(owner), message).await {
        Ok(applied) => id.map(|id| {
            let mut ok = json!({"type": "ok", "id": id});
            // Said only when it matters: the plugin tells the user their reason went nowhere.
            if applied.reason_unsent {
                ok["reasonSent"] = json!(false);
            }
            ok
        }),
        Err(e) => Some(error_line(id, &e)),
    }
}
