//! The review window's end of the channel: calls answered by id, the core's events in order.

use super::message::{Call, Down, Returned, Up, MAX_DOWN_LINE, MAX_UP_LINE};
use crate::api::fault::Fault;
use crate::error::{ControlFailure, Error, FaultCode, Result};
use crate::platform::dirs::Dirs;
use crate::runtime::control::{self, Request};
use crate::runtime::line::{self, JsonLines, PeerLine};
use crate::surfaces::action::Act;
use futures::SinkExt;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio_util::codec::{FramedRead, FramedWrite};

type Waiting = Arc<Mutex<HashMap<u64, oneshot::Sender<Returned>>>>;

/// An event from the core, its payloads as JSON for the page.
pub type Event = Down<Value, Value>;

/// The window's handle on the channel: cheap to clone, one per command handler.
#[derive(Clone)]
pub struct Link {
    up: mpsc::Sender<Up>,
    waiting: Waiting,
    next: Arc<AtomicU64>,
}

/// Connects to the running instance's control socket and turns the connection into a window
/// channel. The receiver yields the core's events and ends when the core goes.
pub async fn connect(dirs: &Dirs) -> Result<(Link, mpsc::Receiver<Event>)> {
    let stream = control::connect(dirs).await?;
    over(stream).await
}

/// As `connect`, over a stream already connected to the core (a test's socket, a forwarded one).
pub async fn over<S>(stream: S) -> Result<(Link, mpsc::Receiver<Event>)>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (read, write) = tokio::io::split(stream);
    let mut write = FramedWrite::new(write, JsonLines::new(MAX_UP_LINE as usize));
    write
        .send(&Request::Window)
        .await
        .map_err(|e| Error::Control(ControlFailure::WindowChannel(e)))?;
    let read = FramedRead::new(read, JsonLines::new(MAX_DOWN_LINE as usize));

    let (up, up_rx) = mpsc::channel::<Up>(64);
    let (events, events_rx) = mpsc::channel::<Event>(256);
    let waiting: Waiting = Arc::default();
    // Every handle gone: the reader lets go of its half too, so the connection closes whatever
    // the stream (a named pipe has no half-close for the core to read as the window leaving).
    let left = tokio_util::sync::CancellationToken::new();

    tokio::spawn(write_up(write, up_rx, left.clone()));
    tokio::spawn(read_down(read, waiting.clone(), events, left));

    Ok((
        Link {
            up,
            waiting,
            next: Arc::new(AtomicU64::new(1)),
        },
        events_rx,
    ))
}

/// Writes the window's lines to the core until every handle is gone, then closes its half.
async fn write_up<W: AsyncWrite + Unpin>(
    mut write: FramedWrite<W, JsonLines>,
    mut up_rx: mpsc::Receiver<Up>,
    left: tokio_util::sync::CancellationToken,
) {
    let _left = left.drop_guard();
    while let Some(line) = up_rx.recv().await {
        if write.send(&line).await.is_err() {
            return;
        }
    }
    let _ = write.get_mut().shutdown().await;
}

/// Reads the core's lines until it goes (or every handle is gone): each reply to its call, each
/// event to `events`. Calls still waiting then learn that no answer comes.
async fn read_down<R: AsyncRead + Unpin>(
    mut read: FramedRead<R, JsonLines>,
    answers: Waiting,
    events: mpsc::Sender<Event>,
    left: tokio_util::sync::CancellationToken,
) {
    loop {
        let line = tokio::select! {
            _ = left.cancelled() => break,
            line = line::recv(&mut read) => line,
        };
        let Ok(PeerLine::Text(line)) = line else {
            // The core went, or sent a line past any it writes: the channel is over.
            break;
        };
        match serde_json::from_slice::<Event>(&line) {
            Ok(Down::Reply { id, answer }) => {
                let to = lock(&answers).remove(&id);
                if let Some(to) = to {
                    let _ = to.send(answer);
                }
            }
            Ok(event) => {
                if events.send(event).await.is_err() {
                    break;
                }
            }
            Err(e) => tracing::warn!("window channel: a line the window cannot read: {e}"),
        }
    }
    lock(&answers).clear();
}

fn lock(w: &Waiting) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Returned>>> {
    w.lock().unwrap_or_else(|e| e.into_inner())
}

fn gone() -> Fault {
    Fault {
        code: FaultCode::NotRunning,
        message: "Redline closed the review window's channel (it quit or restarted)".into(),
    }
}

impl Link {
    /// Sends action `request` and waits for its reply; a fault the page shows if it failed, the
    /// core went, or its reply is not the action's.
    pub async fn call<A: Act>(&self, request: A) -> std::result::Result<A::Reply, Fault> {
        let value = self.forward(request.into()).await?;
        serde_json::from_value(value).map_err(|e| Fault {
            code: FaultCode::Internal,
            message: format!(
                "Redline answered the review window with something it cannot read: {e}"
            ),
        })
    }

    /// Sends `call` and waits for its reply as JSON (the page's actions, passed on as they are).
    pub async fn forward(&self, call: Call) -> std::result::Result<Value, Fault> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(id, tx);
        if self.up.send(Up::Call { id, call }).await.is_err() {
            lock(&self.waiting).remove(&id);
            return Err(gone());
        }
        match rx.await {
            Ok(Returned::Ok(v)) => Ok(v),
            Ok(Returned::Error(f)) => Err(f),
            Err(_) => Err(gone()),
        }
    }

    /// Tells the core something that needs no answer (`Ready`, `Visible`).
    pub async fn note(&self, up: Up) {
        let _ = self.up.send(up).await;
    }
}
