//! GitHub Copilot CLI's protocol: MCP over Streamable HTTP on a unix socket, or a named pipe on
//! Windows (the same app as Gemini CLI's, with Copilot's tools), where `open_diff` blocks until
//! the user decides.

pub mod sessions;
pub mod tools;
pub mod wire;

#[cfg(windows)]
pub use pipe::{bind, serve};
#[cfg(unix)]
pub use socket::{bind, serve, sweep};

use crate::net::accept::{self, Listen};
use crate::net::limits::Limits;
use crate::protocols::mcp_http::guard::Guard;
use crate::protocols::mcp_http::site::Site;
use sessions::CopilotSessions;
use tokio_util::sync::CancellationToken;

/// Serves Copilot CLI's tools on `listener` until `cancel` fires: one pipeline whatever the
/// transport (the socket or the pipe is the only difference).
fn serve_on<L: Listen>(
    listener: L,
    site: Site<CopilotSessions>,
    guard: Guard,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let app = crate::protocols::mcp_http::server::app(
        site,
        guard,
        limits,
        cancel.clone(),
        crate::protocols::mcp_http::handler::Handler::<tools::Tools>::new,
    );
    accept::serve(listener, app, limits, cancel)
}

#[cfg(unix)]
mod socket {
    use crate::error::{Error, Result};
    use crate::net::limits::Limits;
    use crate::protocols::copilot::sessions::CopilotSessions;
    use crate::protocols::mcp_http::guard::Guard;
    use crate::protocols::mcp_http::site::Site;
    use std::path::Path;
    use tokio::net::UnixListener;
    use tokio_util::sync::CancellationToken;

    /// Listens on `path` in Redline's private runtime directory, replacing a socket a crashed
    /// run left there; bound before the lock that names it is written.
    pub fn bind(path: &Path) -> Result<UnixListener> {
        let dir = path.parent().unwrap_or(Path::new("."));
        if let Err(why) = crate::platform::safe_dir::prepare(dir) {
            return Err(Error::io(dir, std::io::Error::other(why.to_string())));
        }
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(path, e)),
            _ => {}
        }
        UnixListener::bind(path).map_err(|e| Error::io(path, e))
    }

    /// Removes the sockets a crashed run left in `dir` (named `copilot-*.sock`): only those
    /// nothing listens on any more, so a live server's socket is never taken away.
    pub fn sweep(dir: &Path) -> Vec<std::path::PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut removed = Vec::new();
        for path in entries.filter_map(|e| Some(e.ok()?.path())) {
            let ours = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("copilot-") && n.ends_with(".sock"));
            let dead = ours
                && std::os::unix::net::UnixStream::connect(&path)
                    .is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionRefused);
            if dead && std::fs::remove_file(&path).is_ok() {
                removed.push(path);
            }
        }
        removed
    }

    /// Serves Copilot CLI's tools on `listener` until `cancel` fires; the socket file goes with
    /// the server.
    pub fn serve(
        listener: UnixListener,
        site: Site<CopilotSessions>,
        guard: Guard,
        limits: Limits,
        cancel: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let path = listener
            .local_addr()
            .ok()
            .and_then(|a| a.as_pathname().map(Path::to_path_buf));
        let served = super::serve_on(listener, site, guard, limits, cancel);
        tokio::spawn(async move {
            let _ = served.await;
            if let Some(path) = path {
                let _ = std::fs::remove_file(path);
            }
        })
    }
}

/// On Windows the socket is a named pipe, which goes with its last instance: nothing to remove.
#[cfg(windows)]
mod pipe {
    use crate::error::{Error, Result};
    use crate::net::limits::Limits;
    use crate::net::pipe_accept::PipeListener;
    use crate::protocols::copilot::sessions::CopilotSessions;
    use crate::protocols::mcp_http::guard::Guard;
    use crate::protocols::mcp_http::site::Site;
    use std::path::Path;
    use tokio_util::sync::CancellationToken;

    /// Makes the named pipe `name` (`\\.\pipe\…`, which Copilot CLI opens as the lock's
    /// `socketPath`), only this user's; made before the lock that names it is written.
    pub fn bind(name: &Path) -> Result<PipeListener> {
        PipeListener::bind(&name.to_string_lossy()).map_err(|e| Error::io(name, e))
    }

    pub fn serve(
        listener: PipeListener,
        site: Site<CopilotSessions>,
        guard: Guard,
        limits: Limits,
        cancel: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        super::serve_on(listener, site, guard, limits, cancel)
    }
}
