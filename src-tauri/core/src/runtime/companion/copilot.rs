//! Copilot CLI's side of a companion: its unix sockets (the host's, and the one containers get
//! mounted) and the locks of sessions running in the workspace's subfolders.

use super::Companion;
use crate::discovery;
#[cfg(not(unix))]
use crate::error::Error;
use crate::error::Result;
use crate::net::limits::Limits;
use crate::platform::dirs::Dirs;
use crate::platform::token::Token;
use crate::protocols::mcp_http;
use crate::runtime::bridge::Bridge;
use crate::workspace::Workspace;
#[cfg(unix)]
use crate::{
    net::host::Hosts, protocols::copilot, protocols::mcp_http::guard::Guard,
    workspace::container::ContainerDirs,
};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Binds and serves Copilot CLI's socket, and the containers' one when a bridge is given (both
/// before any lock names them). The host socket's path, if bound, and the servers.
#[allow(clippy::too_many_arguments)]
pub(super) fn serve(
    dirs: &Dirs,
    port: u16,
    shared: mcp_http::shared::Shared,
    bridge: Option<&mut Bridge>,
    token: &Arc<RwLock<Token>>,
    limits: Limits,
    cancel: &CancellationToken,
) -> (Option<PathBuf>, Vec<JoinHandle<()>>) {
    let for_containers =
        bridge.and_then(|b| bind_copilot_for_containers(dirs, &shared.service.workspace, b));
    match bind_copilot(dirs, port) {
        Ok((path, listener)) => {
            let servers = std::iter::once(listener)
                .chain(for_containers)
                .map(|l| serve_copilot(l, shared.clone(), token.clone(), limits, cancel.clone()))
                .collect();
            (Some(path), servers)
        }
        Err(e) => {
            tracing::warn!("no socket for Copilot CLI: {e}");
            (None, Vec::new())
        }
    }
}

impl Companion {
    /// Keeps one Copilot CLI lock for each of `folders` (subfolders of the workspace where a
    /// session runs) and none for any other: a lock is only ever added or removed, never
    /// replaced, as replacing a lock disconnects every session connected through it.
    pub fn set_folders(&mut self, folders: &BTreeSet<PathBuf>, dirs: &Dirs, pid: u32) {
        if self.socket.is_none() {
            return;
        }
        let gone: Vec<PathBuf> = self
            .folder_locks
            .keys()
            .filter(|f| !folders.contains(*f))
            .cloned()
            .collect();
        for folder in gone {
            if let Some(lock) = self.folder_locks.remove(&folder) {
                discovery::remove(&[lock]);
            }
        }
        let written: Vec<(PathBuf, PathBuf)> = self.with_announcement(pid, |a| {
            folders
                .iter()
                .filter(|folder| !self.folder_locks.contains_key(*folder))
                .filter_map(|folder| {
                    let lock = discovery::write_folder_lock(dirs, a, folder)
                        .files
                        .into_iter()
                        .next()?;
                    Some((folder.clone(), lock))
                })
                .collect()
        });
        for (folder, lock) in written {
            tracing::info!("Copilot CLI lock for {}", folder.display());
            self.folder_locks.insert(folder, lock);
        }
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

#[cfg(not(unix))]
fn bind_copilot_for_containers(
    _: &Dirs,
    _: &Workspace,
    _: &mut Bridge,
) -> Option<std::convert::Infallible> {
    None
}

#[cfg(not(unix))]
fn bind_copilot(_: &Dirs, _: u16) -> Result<(PathBuf, std::convert::Infallible)> {
    Err(Error::Control(
        "Copilot CLI's named pipe is not served on this system yet".into(),
    ))
}

#[cfg(unix)]
fn serve_copilot(
    listener: tokio::net::UnixListener,
    shared: mcp_http::shared::Shared,
    token: Arc<RwLock<Token>>,
    limits: Limits,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let hosts = Hosts {
        port: None,
        container_port: None,
    };
    copilot::serve(listener, shared, Guard { hosts, token }, limits, cancel)
}

#[cfg(not(unix))]
fn serve_copilot(
    listener: std::convert::Infallible,
    _: mcp_http::shared::Shared,
    _: Arc<RwLock<Token>>,
    _: Limits,
    _: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    match listener {}
}
