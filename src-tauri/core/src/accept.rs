//! The accept loop every companion server runs, whatever its protocol: a cap on open
//! connections, a deadline for each request head (slowloris; also how long an idle keep-alive
//! connection may wait), and a stop that never waits on a slow peer.

use crate::limits::Limits;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// After a stop, responses already under way get this long to finish (a GET stream's last
/// notification, say) before their connection is dropped.
pub const SHUTDOWN_DRAIN: Duration = Duration::from_secs(1);
/// When accept fails (out of file descriptors), wait this long before trying again rather than
/// spin: the failed accept leaves the pending connection in the backlog.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves `app` (HTTP/1.1, upgrades such as WebSocket included) on `listener` until `cancel`
/// fires; the task ends once every connection is closed, at most `SHUTDOWN_DRAIN` later.
pub fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let max = limits.max_connections.max(1);
        let slots = Arc::new(Semaphore::new(max));
        loop {
            let accepted = tokio::select! {
                _ = cancel.cancelled() => break,
                r = listener.accept() => r,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::select! {
                        _ = cancel.cancelled() => break,
                        _ = tokio::time::sleep(ACCEPT_BACKOFF) => continue,
                    }
                }
            };
            let Ok(slot) = slots.clone().try_acquire_owned() else {
                // Over the cap: closed at once, so idle peers cannot hold every descriptor.
                tracing::debug!("connection limit reached; closing a new connection");
                continue;
            };
            // Without NODELAY an SSE answer's second write waits on the peer's delayed ACK.
            let _ = stream.set_nodelay(true);
            let service = TowerToHyperService::new(app.clone());
            let cancel = cancel.clone();
            tokio::spawn(async move {
                let _slot = slot;
                let mut http = hyper::server::conn::http1::Builder::new();
                http.timer(TokioTimer::new())
                    .header_read_timeout(limits.header_read);
                let conn = http
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades();
                tokio::pin!(conn);
                tokio::select! {
                    _ = conn.as_mut() => return,
                    _ = cancel.cancelled() => {}
                }
                conn.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(SHUTDOWN_DRAIN, conn).await;
            });
        }
        drop(listener);
        // Every slot back means every connection has closed.
        let _ = slots.acquire_many(max as u32).await;
    })
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
