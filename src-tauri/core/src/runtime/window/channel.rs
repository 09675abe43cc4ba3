//! The core's end of the window channel: the page's calls carried out on the instance and
//! answered by id, the review queue's events and the hub's commands sent as they happen.

use super::hub::Command;
use super::message::{Call, Down, Returned, Up, MAX_UP_LINE};
use crate::api::fault::Fault;
use crate::error::Error;
use crate::review::{Detail, Resolved, ReviewEvent};
use crate::runtime::instance::Instance;
use crate::runtime::line::{next_line, write_json, PeerLine};
use crate::surfaces::action::Reach;
use futures::stream::{FuturesUnordered, StreamExt};
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::broadcast::error::RecvError;

/// Calls carried out at once on one channel; past it the channel reads no more until one ends.
const IN_FLIGHT: usize = 32;

/// A window that reads nothing for this long is let go (it stopped, or hangs): the channel
/// closes, and the launcher brings a new window if one is wanted.
const WRITE_DEADLINE: Duration = Duration::from_secs(10);

/// Serves one window until either side closes the channel.
pub async fn serve<S: AsyncBufRead + AsyncWrite + Unpin>(instance: &Instance, mut stream: S) {
    // Subscribed before the window can list the reviews, so none added in between is missed.
    let mut events = instance.reviews().subscribe();
    let hub = instance.windows();
    let mut attached = hub.attach();
    if let Some(focus) = attached.pending.take() {
        if !send(&mut stream, &Down::<Detail, Resolved>::Show { focus }).await {
            return;
        }
    }
    let mut calls = FuturesUnordered::new();
    let (mut buf, mut over) = (Vec::new(), false);
    loop {
        let down: Down = tokio::select! {
            // In this order: a review and its pop-up are ready together (the launcher's show
            // follows the review's event), and the window is to have the review before it
            // maps, or it paints the page without it first.
            biased;
            Some((id, answer)) = calls.next(), if !calls.is_empty() => Down::Reply { id, answer },
            line = next_line(&mut stream, &mut buf, &mut over, MAX_UP_LINE as usize),
                if calls.len() < IN_FLIGHT =>
            {
                match line {
                    Ok(PeerLine::Text(bytes)) => match serde_json::from_slice::<Up>(&bytes) {
                        Ok(Up::Call { id, call }) => {
                            calls.push(async move { (id, answer(instance, call).await) });
                            continue;
                        }
                        Ok(Up::Ready) => {
                            hub.note_ready();
                            continue;
                        }
                        Ok(Up::Visible { visible }) => {
                            hub.note_visible(visible);
                            continue;
                        }
                        Err(e) => {
                            tracing::warn!("window channel: a line that is no message: {e}");
                            continue;
                        }
                    },
                    Ok(PeerLine::TooLong) => {
                        tracing::warn!("window channel: a line over {MAX_UP_LINE} bytes, dropped");
                        continue;
                    }
                    Ok(PeerLine::Closed) | Err(_) => return,
                }
            }
            event = events.recv() => match event {
                Ok(ReviewEvent::Added(r)) => Down::Added { review: r.detail() },
                Ok(ReviewEvent::Updated(r)) => Down::Updated { review: r.detail() },
                Ok(ReviewEvent::Resolved { id, outcome, .. }) => Down::Resolved {
                    resolved: Resolved { id, outcome },
                },
                // The window's list is behind: it ends, and a new one lists the queue afresh.
                Err(RecvError::Lagged(n)) => {
                    tracing::warn!("window channel: the window fell {n} events behind; closing it");
                    return;
                }
                Err(RecvError::Closed) => return,
            },
            command = attached.commands.recv() => match command {
                Ok(Command::Show { focus }) => Down::Show { focus },
                Ok(Command::Quit) | Err(RecvError::Closed) => {
                    let _ = send(&mut stream, &Down::<Detail, Resolved>::Quit).await;
                    return;
                }
                Err(RecvError::Lagged(_)) => Down::Show { focus: false },
            },
        };
        if !send(&mut stream, &down).await {
            return;
        }
    }
}

/// One line to the window; false if it is gone or stopped reading.
async fn send<S: AsyncWrite + Unpin, D: serde::Serialize, R: serde::Serialize>(
    stream: &mut S,
    down: &Down<D, R>,
) -> bool {
    let write = async {
        write_json(stream, down).await?;
        stream.flush().await
    };
    matches!(
        tokio::time::timeout(WRITE_DEADLINE, write).await,
        Ok(Ok(()))
    )
}

async fn answer(instance: &Instance, call: Call) -> Returned {
    // The window asks what the page and the window itself may ask; the rest is a command's.
    let asked = if call.reach() <= Reach::Window {
        call.handle(instance).await
    } else {
        Err(Error::Usage(format!(
            "`{}` is not an action of the review window",
            call.name()
        )))
    };
    match asked {
        Ok(v) => Returned::Ok(v),
        Err(e) => Returned::Error(Fault::from(&e)),
    }
}
