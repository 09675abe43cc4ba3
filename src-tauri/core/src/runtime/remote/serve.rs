//! The remote instance's end of a bridge: its hello, a snapshot of the pending reviews, the
//! queue's events as they happen, the desktop's calls and decisions carried out, and a
//! heartbeat both ways so a link that goes silent is let go.

use super::counted::{counted, last_read};
use super::decisions::MAX_ID;
use super::end::RemoteEnd;
use super::protocol::{Call, Fate, FromDesktop, Hello, ToDesktop};
use super::protocol::{MAX_FROM_DESKTOP, PROTOCOL};
use crate::api::fault::Fault;
use crate::review::{Detail, Resolved};
use crate::runtime::instance::Instance;
use crate::runtime::line::{self, rebound, Delimited, PeerLine};
use crate::runtime::window::channel::{answer_if, event_line, EventLine};
use crate::runtime::window::message::Returned;
use futures::stream::{FuturesUnordered, StreamExt};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{sleep_until, Instant};

/// Calls carried out at once on one link; past it the link reads no more until one ends.
const IN_FLIGHT: usize = 32;

/// A desktop that reads nothing for this long is let go (as a window is).
const WRITE_DEADLINE: Duration = Duration::from_secs(10);

type Down = ToDesktop<Detail, Resolved>;

/// Serves one desktop until either side closes the link or it goes silent.
pub(crate) async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: Delimited<S>,
) {
    let end = instance.remote_end();
    let (mut stream, read_at) = counted(stream);
    rebound(&mut stream, MAX_FROM_DESKTOP as usize);
    if !send(&mut stream, &Down::Hello(Hello::ours(&end.run))).await {
        return;
    }
    if let Err(why) = their_hello(&mut stream, end.beat.dead).await {
        tracing::warn!("bridge: {why}");
        let _ = send(&mut stream, &Down::Bye { why }).await;
        return;
    }
    // Subscribed before the snapshot is taken, so no review added in between is missed.
    let mut events = instance.reviews().queue().subscribe();
    let mut workspaces = instance.workspaces().changes();
    let reviews = instance.reviews().details();
    if !send(&mut stream, &Down::Snapshot { reviews }).await {
        return;
    }
    let mut calls = FuturesUnordered::new();
    let mut wrote = Instant::now();
    loop {
        let silent_until = last_read(&read_at) + end.beat.dead;
        let down: Down = tokio::select! {
            biased;
            Some(down) = calls.next(), if !calls.is_empty() => down,
            line = line::recv(&mut stream), if calls.len() < IN_FLIGHT => match heard(line) {
                Heard::Work(work) => {
                    calls.push(carry_out(instance, end, work));
                    continue;
                }
                Heard::Pinged => Down::Pong,
                Heard::Noted => continue,
                Heard::Closed => return,
            },
            event = events.recv() => match event_line("bridge", event) {
                Some(down) => down,
                None => return,
            },
            Ok(()) = workspaces.changed() => Down::WorkspacesChanged,
            () = sleep_until(wrote + end.beat.idle) => Down::Ping,
            () = sleep_until(silent_until) => {
                if last_read(&read_at) + end.beat.dead <= Instant::now() {
                    tracing::warn!("bridge: nothing heard from the desktop for {:?}; letting it go", end.beat.dead);
                    return;
                }
                continue;
            }
        };
        if !send(&mut stream, &down).await {
            return;
        }
        wrote = Instant::now();
    }
}

/// The desktop's hello, within `dead`; why not, when it is none or of another protocol.
async fn their_hello<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut Delimited<S>,
    dead: Duration,
) -> Result<Hello, String> {
    let line = match tokio::time::timeout(dead, line::recv(stream)).await {
        Ok(Ok(PeerLine::Text(line))) => line,
        Ok(_) => return Err("the desktop closed the link before its hello".into()),
        Err(_) => return Err(format!("no hello from the desktop within {dead:?}")),
    };
    match serde_json::from_slice::<FromDesktop>(&line) {
        Ok(FromDesktop::Hello(h)) if h.protocol == PROTOCOL => Ok(h),
        Ok(FromDesktop::Hello(h)) => Err(format!(
            "the desktop's Redline {} speaks bridge protocol {}, this one {PROTOCOL}: install the same version on both",
            h.redline, h.protocol
        )),
        Ok(_) | Err(_) => Err("the desktop's first line was no hello".into()),
    }
}

/// A line from the desktop that takes the instance's time.
enum Work {
    Call(u64, Call),
    Decide {
        decision: String,
        instance: String,
        call: Call,
    },
}

/// What a line from the desktop leaves the loop to do.
enum Heard {
    Work(Work),
    /// A ping, answered at once.
    Pinged,
    /// Nothing more: a pong, or a line dropped (said in the log).
    Noted,
    Closed,
}

fn heard(line: std::io::Result<PeerLine>) -> Heard {
    match line {
        Ok(PeerLine::Text(bytes)) => match serde_json::from_slice::<FromDesktop>(&bytes) {
            Ok(FromDesktop::Call { id, call }) => return Heard::Work(Work::Call(id, call)),
            Ok(FromDesktop::Decide {
                decision,
                instance,
                call,
            }) => {
                return Heard::Work(Work::Decide {
                    decision,
                    instance,
                    call,
                })
            }
            Ok(FromDesktop::Ping) => return Heard::Pinged,
            Ok(FromDesktop::Pong) => {}
            Ok(FromDesktop::Hello(_)) => tracing::warn!("bridge: a second hello, ignored"),
            Err(e) => tracing::warn!("bridge: a line that is no message: {e}"),
        },
        Ok(PeerLine::TooLong) => {
            tracing::warn!("bridge: a line over {MAX_FROM_DESKTOP} bytes, dropped")
        }
        Ok(PeerLine::Closed) | Err(_) => return Heard::Closed,
    }
    Heard::Noted
}

async fn carry_out(instance: &Instance, end: &RemoteEnd, work: Work) -> Down {
    match work {
        Work::Call(id, call) => Down::Reply {
            id,
            answer: answer(instance, call).await,
        },
        Work::Decide {
            decision,
            instance: run,
            call,
        } => {
            let fate = match refused(end, &decision, &run, &call) {
                Some(why) => Fate::Gone { why },
                None => end.decisions.settle(&decision, apply(instance, call)).await,
            };
            Down::Decided { decision, fate }
        }
    }
}

/// Why decision `id` cannot be applied here, if it cannot.
fn refused(end: &RemoteEnd, id: &str, run: &str, call: &Call) -> Option<String> {
    if id.is_empty() || id.len() > MAX_ID {
        return Some(format!("a decision's id is 1 to {MAX_ID} bytes"));
    }
    if !matches!(call, Call::ReviewAccept(_) | Call::ReviewReject(_)) {
        return Some(format!("`{}` is no decision", call.name()));
    }
    (run != end.run).then(|| {
        "Redline on this machine restarted since the review was shown: that review is gone".into()
    })
}

async fn apply(instance: &Instance, call: Call) -> Fate {
    match call.handle(instance).await {
        Ok(_) => Fate::Applied,
        Err(e) => Fate::Gone {
            why: Fault::from(&e).message,
        },
    }
}

async fn answer(instance: &Instance, call: Call) -> Returned {
    let allowed = call.bridged();
    answer_if(
        instance,
        call,
        allowed,
        "asked of another machine's Redline",
    )
    .await
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

async fn send<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut Delimited<S>, down: &Down) -> bool {
    line::send(stream, down, WRITE_DEADLINE).await.is_ok()
}
