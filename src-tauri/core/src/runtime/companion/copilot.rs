//! Copilot CLI's server in a companion: MCP over HTTP on a unix socket (the host's, and the one
//! containers get mounted), or on Windows on a named pipe only this user may open.

use super::server::{Server, Terms};
use crate::discovery::Announcement;
use crate::error::Result;
use crate::platform::dirs::Dirs;
use crate::protocols::copilot::sessions::CopilotSessions;
use crate::protocols::mcp_http::site::Site;
use crate::review::registry::Registry;
use crate::review::service::Service;
use crate::runtime::bridge::Bridge;
#[cfg(unix)]
use crate::workspace::container::ContainerDirs;
use crate::workspace::Workspace;
use crate::{net::host::Hosts, protocols::copilot, protocols::mcp_http::guard::Guard};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::task::JoinHandle;

#[cfg(unix)]
type Listener = tokio::net::UnixListener;
#[cfg(windows)]
type Listener = crate::net::pipe_accept::PipeListener;

pub(super) struct CopilotServer {
    sessions: Arc<CopilotSessions>,
    /// The host's socket (on Windows the pipe's name), when it could be bound: without it
    /// nothing is served or announced.
    socket: Option<PathBuf>,
    /// Taken when serving starts.
    listeners: Vec<Listener>,
}

impl CopilotServer {
    /// Binds Copilot CLI's socket, and the containers' one when a bridge is given (both before
    /// any lock names them). `port` is the HTTP server's, which names the socket.
    pub(super) fn bind(
        sessions: Arc<CopilotSessions>,
        dirs: &Dirs,
        port: u16,
        workspace: &Workspace,
        bridge: Option<&mut Bridge>,
    ) -> Self {
        let for_containers = bridge.and_then(|b| bind_copilot_for_containers(dirs, workspace, b));
        let (socket, listeners) = match bind_copilot(dirs, port) {
            Ok((path, listener)) => (
                Some(path),
                std::iter::once(listener).chain(for_containers).collect(),
            ),
            Err(e) => {
                tracing::warn!("no socket for Copilot CLI: {e}");
                (None, Vec::new())
            }
        };
        CopilotServer {
            sessions,
            socket,
            listeners,
        }
    }
}

impl Server for CopilotServer {
    /// Copilot CLI's lock names the socket; no port of its own.
    fn announce<'a>(&'a self, a: &mut Announcement<'a>) {
        a.socket = self.socket.as_deref();
    }

    fn serve(&mut self, service: &Arc<Service>, terms: &Terms) -> Vec<JoinHandle<()>> {
        let site = Site::new(service, &self.sessions);
        let serve = |l| serve_copilot(l, site.clone(), terms);
        std::mem::take(&mut self.listeners)
            .into_iter()
            .map(serve)
            .collect()
    }

    fn registry(&self) -> Arc<dyn Registry> {
        self.sessions.clone()
    }
}

/// Copilot CLI's socket, in Redline's private runtime directory, named by the workspace's
/// HTTP port (unique while it runs).
#[cfg(unix)]
fn bind_copilot(dirs: &Dirs, port: u16) -> Result<(PathBuf, tokio::net::UnixListener)> {
    let path = dirs.runtime.join(format!("copilot-{port}.sock"));
    let listener = copilot::bind(&path)?;
    Ok((path, listener))
}

/// The workspace's socket for containers, in the directory `redline container args` mounts;
/// the bridge's files name it once bound.
#[cfg(unix)]
fn bind_copilot_for_containers(
    dirs: &Dirs,
    workspace: &Workspace,
    bridge: &mut Bridge,
) -> Option<tokio::net::UnixListener> {
    let host = workspace.id();
    let place = ContainerDirs::new(dirs, host, &host.to_string_lossy());
    let path = place
        .socket_dir()
        .join(crate::workspace::container::SOCKET_NAME);
    match copilot::bind(&path) {
        Ok(listener) => {
            bridge.socket = Some(path);
            Some(listener)
        }
        Err(e) => {
            tracing::warn!("no socket for Copilot CLI in containers: {e}");
            None
        }
    }
}

/// Containers reach the host's unix socket through a mount; nothing mounts a Windows pipe.
#[cfg(windows)]
fn bind_copilot_for_containers(_: &Dirs, _: &Workspace, _: &mut Bridge) -> Option<Listener> {
    None
}

/// Copilot CLI's pipe on Windows. Pipe names are one namespace for the whole machine: the
/// runtime dir's name carries the user (as the control pipe's does), the port keeps this
/// workspace's apart while it runs, and a random part keeps anyone from making the name first
/// (the lock, written after, is the only place it is said). Copilot CLI's client has no name
/// format of its own: it opens whatever the lock's `socketPath` says (`http.request({socketPath,
/// ...})` in its cli-main.js).
#[cfg(windows)]
fn bind_copilot(dirs: &Dirs, port: u16) -> Result<(PathBuf, Listener)> {
    let user = dirs
        .runtime
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "redline".into());
    let mut nonce = [0u8; 8];
    getrandom::fill(&mut nonce)
        .map_err(|e| crate::error::Error::io(dirs.runtime.as_path(), std::io::Error::other(e)))?;
    let nonce: String = nonce.iter().map(|b| format!("{b:02x}")).collect();
    let path = PathBuf::from(format!(r"\\.\pipe\{user}-copilot-{port}-{nonce}"));
    let listener = copilot::bind(&path)?;
    Ok((path, listener))
}

fn serve_copilot(listener: Listener, site: Site<CopilotSessions>, terms: &Terms) -> JoinHandle<()> {
    let hosts = Hosts {
        port: None,
        container_port: None,
    };
    let guard = Guard {
        hosts,
        token: terms.token.clone(),
    };
    copilot::serve(listener, site, guard, terms.limits, terms.cancel.clone())
}
