//! The core's end of the window channel: the page's calls carried out on the instance and
//! answered by id, the review queue's events and the hub's commands sent as they happen.

use super::hub::{Command, WindowHub};
use super::message::{Call, Down, Returned, Up, MAX_UP_LINE};
use crate::api::fault::Fault;
use crate::error::Error;
use crate::review::{Detail, Resolved, ReviewEvent};
use crate::runtime::instance::Instance;
use crate::runtime::line::{self, rebound, Delimited, PeerLine};
use crate::surfaces::action::Reach;
use futures::stream::{FuturesUnordered, StreamExt};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::broadcast::error::RecvError;

/// Calls carried out at once on one channel; past it the channel reads no more until one ends.
const IN_FLIGHT: usize = 32;

/// A window that reads nothing for this long is let go (it stopped, or hangs): the channel
/// closes, and the launcher brings a new window if one is wanted.
const WRITE_DEADLINE: Duration = Duration::from_secs(10);

/// What a line from the window leaves the loop to do.
enum Heard {
    /// A call to carry out, answered with its id.
    Call(u64, Call),
    /// Nothing more: a note taken, or a line dropped (said in the log).
    Noted,
    /// The window closed the channel.
    Closed,
}

/// Reads one line from the window: its notes go to the hub at once.
fn heard(hub: &WindowHub, line: std::io::Result<PeerLine>) -> Heard {
    match line {
        Ok(PeerLine::Text(bytes)) => match serde_json::from_slice::<Up>(&bytes) {
            Ok(Up::Call { id, call }) => return Heard::Call(id, call),
            Ok(Up::Ready) => hub.note_ready(),
            Ok(Up::Visible { visible }) => hub.note_visible(visible),
            Err(e) => tracing::warn!("window channel: a line that is no message: {e}"),
        },
        Ok(PeerLine::TooLong) => {
            tracing::warn!("window channel: a line over {MAX_UP_LINE} bytes, dropped")
        }
        Ok(PeerLine::Closed) | Err(_) => return Heard::Closed,
    }
    Heard::Noted
}

/// A channel's line for each review event: the window's and a bridge's say them alike.
pub(crate) trait EventLine: Sized {
    fn added(review: Detail) -> Self;
    fn updated(review: Detail) -> Self;
    fn resolved(resolved: Resolved) -> Self;
}

impl EventLine for Down {
    fn added(review: Detail) -> Self {
        Down::Added { review }
    }
    fn updated(review: Detail) -> Self {
        Down::Updated { review }
    }
    fn resolved(resolved: Resolved) -> Self {
        Down::Resolved { resolved }
    }
}

/// A review event, as `channel`'s peer hears it; `None` ends the channel: the peer fell behind
/// (it attaches again and lists the queue afresh), or the queue is gone.
pub(crate) fn event_line<L: EventLine>(
    channel: &str,
    event: Result<ReviewEvent, RecvError>,
) -> Option<L> {
    match event {
        Ok(ReviewEvent::Added(r)) => Some(L::added(r.detail())),
        Ok(ReviewEvent::Updated(r)) => Some(L::updated(r.detail())),
        Ok(ReviewEvent::Resolved { id, outcome, .. }) => {
            Some(L::resolved(Resolved { id, outcome }))
        }
        Err(RecvError::Lagged(n)) => {
            tracing::warn!("{channel}: the peer fell {n} events behind; closing it");
            None
        }
        Err(RecvError::Closed) => None,
    }
}

/// Serves one window until either side closes the channel.
pub(crate) async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    mut stream: Delimited<S>,
) {
    rebound(&mut stream, MAX_UP_LINE as usize);
    // Subscribed before the window can list the reviews, so none added in between is missed.
    let mut events = instance.reviews().queue().subscribe();
    let mut workspaces = instance.workspaces().changes();
    let hub = instance.windows();
    let mut attached = hub.attach();
    if let Some(focus) = attached.pending.take() {
        if !send(&mut stream, &Down::<Detail, Resolved>::Show { focus }).await {
            return;
        }
    }
    let mut calls = FuturesUnordered::new();
    loop {
        let down: Down = tokio::select! {
            // In this order: a review and its pop-up are ready together (the launcher's show
            // follows the review's event), and the window is to have the review before it
            // maps, or it paints the page without it first.
            biased;
            Some((id, answer)) = calls.next(), if !calls.is_empty() => Down::Reply { id, answer },
            line = line::recv(&mut stream), if calls.len() < IN_FLIGHT =>
            {
                match heard(hub, line) {
                    Heard::Call(id, call) => {
                        calls.push(async move { (id, answer(instance, call).await) })
                    }
                    Heard::Noted => {}
                    Heard::Closed => return,
                }
                continue;
            }
            event = events.recv() => match event_line("window channel", event) {
                Some(down) => down,
                None => return,
            },
            // A change marks the watch; changes while this line waits are told once.
            Ok(()) = workspaces.changed() => Down::WorkspacesChanged,
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
async fn send<S: AsyncRead + AsyncWrite + Unpin, D: serde::Serialize, R: serde::Serialize>(
    stream: &mut Delimited<S>,
    down: &Down<D, R>,
) -> bool {
    line::send(stream, down, WRITE_DEADLINE).await.is_ok()
}

async fn answer(instance: &Instance, call: Call) -> Returned {
    // The window asks what the page and the window itself may ask; the rest is a command's.
    let allowed = call.reach() <= Reach::Window;
    answer_if(instance, call, allowed, "an action of the review window").await
}

/// `call` carried out if `allowed` (else refused as not `what` the channel carries), as the
/// channel's peer reads it: its value, or the fault.
pub(crate) async fn answer_if(
    instance: &Instance,
    call: Call,
    allowed: bool,
    what: &str,
) -> Returned {
    let asked = match allowed {
        true => call.handle(instance).await,
        false => Err(Error::Usage(format!("`{}` is not {what}", call.name()))),
    };
    match asked {
        Ok(v) => Returned::Ok(v),
        Err(e) => Returned::Error(Fault::from(&e)),
    }
}
