//! The control channel on Unix: a socket in the user's own 0700 runtime dir, served and reached
//! only by processes of that user.

use super::connection::answer_from;
use super::request::{request, Request};
use crate::error::{ControlFailure, Error, Result};
use crate::platform::dirs::Dirs;
use crate::platform::own_user::own_uid;
use crate::platform::runtime_dir;
use crate::runtime::instance::Instance;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::net::{UnixListener, UnixStream};

pub struct Listener {
    inner: UnixListener,
    path: PathBuf,
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Binds the socket in the user's own 0700 runtime dir (another user's is refused, never
/// taken over), refusing if a live instance answers there.
pub async fn bind(dirs: &Dirs) -> Result<Listener> {
    runtime_dir::prepare(&dirs.runtime)?;
    let path = dirs.control_socket();
    if let Ok(stream) = UnixStream::connect(&path).await {
        // Ours is running; anyone else's is named, not replaced.
        served_by_us(&stream, &path)?;
        return Err(Error::AlreadyRunning);
    }
    let _ = std::fs::remove_file(&path);
    let inner = UnixListener::bind(&path).map_err(|e| Error::io(&path, e))?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| Error::io(&path, e))?;
    Ok(Listener { inner, path })
}

pub async fn serve(instance: Arc<Instance>, listener: Listener) {
    let own = own_uid();
    loop {
        let stream = match listener.inner.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors: the pending connection stays queued, so retrying at
                // once would spin; wait for some to free up.
                tracing::warn!("control socket: accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let cred = stream.peer_cred().ok();
        // The 0700 dir keeps other users out; this holds if it ever does not (root, or a
        // descriptor passed on). Dropped unread.
        match cred.as_ref().map(|c| c.uid()) {
            Some(uid) if uid == own => {}
            uid => {
                tracing::warn!("control socket: refused a connection from uid {uid:?}");
                continue;
            }
        }
        // Names the command's caller on a review it opens (`redline propose`).
        let pid = cred
            .and_then(|c| c.pid())
            .and_then(|p| u32::try_from(p).ok());
        let instance = instance.clone();
        tokio::spawn(async move { answer_from(&instance, stream, pid).await });
    }
}

pub async fn call(dirs: &Dirs, req: &Request) -> Result<Value> {
    request(connect(dirs).await?, req).await
}

/// The one way a command reaches the instance: through the user's own private runtime dir,
/// to a socket served by the user's own process. Nothing is sent before both hold.
pub async fn connect(dirs: &Dirs) -> Result<UnixStream> {
    runtime_dir::check(&dirs.runtime)?;
    let path = dirs.control_socket();
    let stream = UnixStream::connect(&path)
        .await
        .map_err(|_| Error::NotRunning)?;
    served_by_us(&stream, &path)?;
    Ok(stream)
}

/// The process listening on `stream`'s other end runs as this user (SO_PEERCRED on Linux,
/// getpeereid on macOS and the BSDs).
fn served_by_us(stream: &UnixStream, path: &Path) -> Result<()> {
    let cred = stream.peer_cred().map_err(|source| {
        Error::Control(ControlFailure::SocketOwnerUnknown {
            path: path.to_path_buf(),
            source,
        })
    })?;
    same_user(path, cred.uid(), own_uid())
}

pub(super) fn same_user(path: &Path, peer: u32, own: u32) -> Result<()> {
    if peer == own {
        Ok(())
    } else {
        Err(Error::ForeignServer {
            path: path.to_path_buf(),
            uid: peer,
        })
    }
}
