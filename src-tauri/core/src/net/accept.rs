//! The accept loop every companion server runs, whatever its protocol: a cap on open
//! connections that evicts idle ones first, a deadline for each request head (slowloris; also
//! how long an idle keep-alive connection may wait), and a stop that never waits on a slow peer.

use crate::net::limits::Limits;
use crate::platform::peer::Endpoints;
use axum::body::Body;
use axum::Router;
use http::Request;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

/// After a stop, responses already under way get this long to finish (a GET stream's last
/// notification, say) before their connection is dropped.
pub const SHUTDOWN_DRAIN: Duration = Duration::from_secs(1);
/// When accept fails (out of file descriptors), wait this long before trying again rather than
/// spin: the failed accept leaves the pending connection in the backlog.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// One open connection, as the cap sees it.
struct Conn {
    /// Requests whose response is still going out; an idle connection (none) may be evicted.
    busy: AtomicUsize,
    close: CancellationToken,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Conns {
    next: u64,
    open: BTreeMap<u64, Arc<Conn>>,
}

struct Table {
    conns: Mutex<Conns>,
    closed: Notify,
}

impl Table {
    fn lock(&self) -> std::sync::MutexGuard<'_, Conns> {
        self.conns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits a new connection. At the cap, the oldest idle connection (one not answering a
    /// request: idle keep-alive or a head still dribbling in) is closed to make room, so
    /// peers that only hold connections cannot lock out a CLI; if every connection is busy,
    /// the new one is refused.
    fn admit(&self, max: usize) -> Option<(u64, Arc<Conn>)> {
        let mut t = self.lock();
        if t.open.len() >= max {
            let idle = t
                .open
                .iter()
                .find(|(_, c)| c.busy.load(Ordering::SeqCst) == 0)
                .map(|(id, _)| *id)?;
            if let Some(evicted) = t.open.remove(&idle) {
                evicted.close.cancel();
            }
        }
        let id = t.next;
        t.next += 1;
        let conn = Arc::new(Conn {
            busy: AtomicUsize::new(0),
            close: CancellationToken::new(),
        });
        t.open.insert(id, conn.clone());
        Some((id, conn))
    }

    fn remove(&self, id: u64) {
        self.lock().open.remove(&id);
        self.closed.notify_waiters();
    }

    /// A connection task's end: its entry goes, and `drained` looks again once it is counted out.
    fn release(&self, id: u64, tasks: &AtomicUsize) {
        self.remove(id);
        tasks.fetch_sub(1, Ordering::SeqCst);
        self.closed.notify_waiters();
    }

    /// Resolves once no connection task is left.
    async fn drained(&self, tasks: &AtomicUsize) {
        loop {
            let closed = self.closed.notified();
            if tasks.load(Ordering::SeqCst) == 0 {
                return;
            }
            closed.await;
        }
    }
}

/// Marks a connection busy from a request's arrival until its response body is dropped
/// (fully sent, or the connection gone).
struct Busy(Arc<Conn>);

impl Busy {
    fn new(conn: Arc<Conn>) -> Busy {
        conn.busy.fetch_add(1, Ordering::SeqCst);
        Busy(conn)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What the accept loop serves on: TCP (loopback, a container bridge) or a unix socket. `Sync`:
/// waiting for the next connection borrows it across an await.
pub trait Listen: Send + Sync + 'static {
    type Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    /// Who connected, put in every request's extensions for handlers to find the process.
    type Peer: Clone + Send + Sync + 'static;
    fn accept(&self) -> impl Future<Output = std::io::Result<(Self::Stream, Self::Peer)>> + Send;
}

impl Listen for TcpListener {
    type Stream = tokio::net::TcpStream;
    type Peer = Endpoints;
    async fn accept(&self) -> std::io::Result<(Self::Stream, Endpoints)> {
        let (stream, peer) = TcpListener::accept(self).await?;
        // Without NODELAY an SSE answer's second write waits on the peer's delayed ACK.
        let _ = stream.set_nodelay(true);
        let ends = Endpoints {
            local: stream.local_addr().unwrap_or(peer),
            peer,
        };
        Ok((stream, ends))
    }
}

/// The process at the other end of a unix socket, from the kernel (not from anything it sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SocketPeer {
    pub pid: Option<u32>,
}

#[cfg(unix)]
impl Listen for tokio::net::UnixListener {
    type Stream = tokio::net::UnixStream;
    type Peer = SocketPeer;
    async fn accept(&self) -> std::io::Result<(Self::Stream, SocketPeer)> {
        let (stream, _) = tokio::net::UnixListener::accept(self).await?;
        let pid = stream
            .peer_cred()
            .ok()
            .and_then(|c| c.pid())
            .and_then(|p| u32::try_from(p).ok());
        Ok((stream, SocketPeer { pid }))
    }
}

/// A listener on 127.0.0.1 and the port the OS chose: bound before anything is announced, so the
/// port in the discovery files is always live.
pub async fn bind_loopback() -> std::io::Result<(TcpListener, u16)> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let port = listener.local_addr()?.port();
    Ok((listener, port))
}

/// Serves `app` on each listener (loopback, and a container bridge when on), each with its own
/// connection cap; the task ends when every one has ended.
pub fn serve_all(
    listeners: Vec<TcpListener>,
    app: Router,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let loops: Vec<_> = listeners
        .into_iter()
        .map(|listener| serve(listener, app.clone(), limits, cancel.clone()))
        .collect();
    tokio::spawn(async move {
        for accept_loop in loops {
            let _ = accept_loop.await;
        }
    })
}

/// Serves `app` (HTTP/1.1, upgrades such as WebSocket included) on `listener` until `cancel`
/// fires; the task ends once every connection is closed, at most `SHUTDOWN_DRAIN` later.
pub fn serve<L: Listen>(
    listener: L,
    app: Router,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let max = limits.max_connections.max(1);
        let table = Arc::new(Table {
            conns: Mutex::default(),
            closed: Notify::new(),
        });
        let tasks = Arc::new(AtomicUsize::new(0));
        while let Some((stream, ends)) = next_connection(&listener, &cancel).await {
            let Some((id, conn)) = table.admit(max) else {
                tracing::debug!("every connection is busy; closing a new one");
                continue;
            };
            let (app, marked) = (app.clone(), conn.clone());
            let service = tower::service_fn(move |req: Request<Incoming>| {
                let busy = Busy::new(marked.clone());
                let app = app.clone();
                let mut req = req.map(Body::new);
                req.extensions_mut().insert(ends.clone());
                async move {
                    let resp = app.oneshot(req).await?;
                    // The closure owns `busy`: dropped with the body, once it is sent.
                    Ok::<_, Infallible>(resp.map(|b| {
                        Body::new(b.map_frame(move |f| {
                            let _ = &busy;
                            f
                        }))
                    }))
                }
            });
            let service = TowerToHyperService::new(service);
            let (cancel, table, tasks) = (cancel.clone(), table.clone(), tasks.clone());
            tasks.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut http = hyper::server::conn::http1::Builder::new();
                http.timer(TokioTimer::new())
                    .header_read_timeout(limits.header_read);
                let served = http
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades();
                tokio::pin!(served);
                let stop = tokio::select! {
                    _ = served.as_mut() => false,
                    _ = conn.close.cancelled() => false,
                    _ = cancel.cancelled() => true,
                };
                if stop {
                    served.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(SHUTDOWN_DRAIN, served).await;
                }
                table.release(id, &tasks);
            });
        }
        drop(listener);
        table.drained(&tasks).await;
    })
}

/// The next connection, accepting again after a failed accept; `None` once `cancel` fires.
async fn next_connection<L: Listen>(
    listener: &L,
    cancel: &CancellationToken,
) -> Option<(L::Stream, L::Peer)> {
    loop {
        let accepted = tokio::select! {
            _ = cancel.cancelled() => return None,
            r = listener.accept() => r,
        };
        match accepted {
            Ok(accepted) => return Some(accepted),
            Err(e) => {
                tracing::warn!("accept failed: {e}");
                tokio::select! {
                    _ = cancel.cancelled() => return None,
                    _ = tokio::time::sleep(ACCEPT_BACKOFF) => {}
                }
            }
        }
    }
}

/// Raises the open-file soft limit to the hard limit: each CLI session holds connections,
/// and desktop sessions often start with a soft limit of 1,024. Returns the new soft limit.
#[cfg(unix)]
pub fn raise_fd_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return None;
    }
    let mut want = lim.rlim_max;
    // macOS refuses RLIM_INFINITY for descriptors; OPEN_MAX is its ceiling.
    if cfg!(target_os = "macos") {
        want = want.min(10_240);
    }
    if lim.rlim_cur < want {
        let raised = libc::rlimit {
            rlim_cur: want,
            rlim_max: lim.rlim_max,
        };
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            lim.rlim_cur = want;
        }
    }
    Some(lim.rlim_cur)
}

#[cfg(not(unix))]
pub fn raise_fd_limit() -> Option<u64> {
    None
}
