//! The control channel on Windows: a named pipe only this user may open, served only by this user.
//
// Named pipes share one namespace per machine: another local user can create
// `\\.\pipe\redline-<USERNAME>` first. The security descriptor (`platform::private_pipe`)
// keeps other users out of ours; the owner check keeps our requests (and the contents they
// carry) out of theirs.

use super::connection::answer;
use super::request::{request, Request};
use crate::error::{ControlFailure, Error, Result};
use crate::platform::dirs::Dirs;
use crate::platform::private_pipe::{create, server_pid};
use crate::platform::sid::{current_user, process_user, Sid};
use crate::runtime::instance::Instance;
use serde_json::Value;
use std::io;
use std::sync::Arc;
use tokio::net::windows::named_pipe::{ClientOptions, NamedPipeServer};
use windows_sys::Win32::Foundation::{ERROR_ACCESS_DENIED, ERROR_FILE_NOT_FOUND};

/// Refuses a pipe whose server process runs as someone other than `own`.
pub fn check_server(pid: u32, own: &Sid, user_of: impl Fn(u32) -> io::Result<Sid>) -> Result<()> {
    match user_of(pid) {
        Ok(user) if &user == own => Ok(()),
        Ok(_) => Err(Error::Control(ControlFailure::PipeOfAnotherUser { pid })),
        Err(source) => Err(Error::Control(ControlFailure::PipeUserUnknown {
            pid,
            source,
        })),
    }
}

pub fn pipe_name(dirs: &Dirs) -> String {
    // Named pipes are per-machine; the runtime dir's name carries the user.
    let user = dirs
        .runtime
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "redline".into());
    format!(r"\\.\pipe\{user}")
}

pub struct Listener {
    pub(super) name: String,
    pub(super) user: Sid,
    pub(super) first: NamedPipeServer,
}

pub async fn bind(dirs: &Dirs) -> Result<Listener> {
    let name = pipe_name(dirs);
    let user = current_user().map_err(|e| Error::Control(ControlFailure::WhoAmI(e)))?;
    let first = create(&name, &user, true).map_err(|_| Error::AlreadyRunning)?;
    Ok(Listener { name, user, first })
}

pub async fn serve(instance: Arc<Instance>, listener: Listener) {
    let mut server = listener.first;
    // Connects that failed in a row: past the first, the loop waits before the next instance.
    let mut failures = 0u32;
    loop {
        match server.connect().await {
            Ok(()) => {
                failures = 0;
                let instance = instance.clone();
                // The next instance is made before this one is handed over, so the name is never
                // left free; if that fails, the client is answered all the same, then retried.
                match create(&listener.name, &listener.user, false) {
                    Ok(next) => {
                        let connected = std::mem::replace(&mut server, next);
                        tokio::spawn(async move { answer(&instance, connected).await });
                    }
                    Err(e) => {
                        tracing::warn!("control pipe: cannot create an instance ({e}); retrying");
                        tokio::spawn(async move { answer(&instance, server).await });
                        server = recreate(&listener.name, &listener.user).await;
                    }
                }
            }
            Err(e) => {
                // An instance whose connect fails at once fails every later one the same way
                // until it is disconnected: retrying it would spin. A fresh instance replaces it,
                // made while this one still holds the name.
                tracing::warn!("control pipe: {e}; replacing the instance");
                let _ = server.disconnect();
                failures += 1;
                if failures > 1 {
                    tokio::time::sleep(backoff(failures - 1)).await;
                }
                server = recreate(&listener.name, &listener.user).await;
            }
        }
    }
}

/// The wait after the `n`th failure in a row (from 1): 10 ms, doubled each time up to 2 s. A
/// failure (out of handles, say) may pass, and the channel must outlive it without spinning.
fn backoff(n: u32) -> std::time::Duration {
    let first = std::time::Duration::from_millis(10);
    (first * 2u32.saturating_pow(n.saturating_sub(1).min(16)))
        .min(std::time::Duration::from_secs(2))
}

/// A new instance of the pipe, retried with backoff until one is created.
async fn recreate(name: &str, user: &Sid) -> NamedPipeServer {
    let mut n = 0;
    loop {
        match create(name, user, false) {
            Ok(server) => return server,
            Err(e) => {
                n += 1;
                tracing::debug!("control pipe: still cannot create an instance: {e}");
                tokio::time::sleep(backoff(n)).await;
            }
        }
    }
}

pub async fn call(dirs: &Dirs, req: &Request) -> Result<Value> {
    request(connect(dirs).await?, req).await
}

/// A connection to the running instance's pipe, once it is known to be this user's.
pub async fn connect(dirs: &Dirs) -> Result<tokio::net::windows::named_pipe::NamedPipeClient> {
    let name = pipe_name(dirs);
    let client = match ClientOptions::new().open(&name) {
        Ok(c) => c,
        Err(e) if e.raw_os_error() == Some(ERROR_FILE_NOT_FOUND as i32) => {
            return Err(Error::NotRunning)
        }
        // Ours admits us: a pipe of this name that refuses us is another user's.
        Err(e) if e.raw_os_error() == Some(ERROR_ACCESS_DENIED as i32) => {
            return Err(Error::Control(ControlFailure::PipeRefused { name }))
        }
        Err(_) => return Err(Error::NotRunning),
    };
    let pid = server_pid(&client).map_err(|source| {
        Error::Control(ControlFailure::PipeServerUnknown {
            name: name.clone(),
            source,
        })
    })?;
    let own = current_user().map_err(|e| Error::Control(ControlFailure::WhoAmI(e)))?;
    check_server(pid, &own, process_user)?;
    Ok(client)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::private_pipe::inspect::dacl_of;
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Foundation::HANDLE;
    use windows_sys::Win32::System::Pipes::GetNamedPipeServerProcessId;

    fn dirs(root: &std::path::Path, tag: &str) -> Dirs {
        Dirs {
            config: root.join("config"),
            data: root.join("data"),
            runtime: root.join(format!("redline-pipe-{tag}-{}", std::process::id())),
            home: root.join("home"),
            tmp: root.join("tmp"),
            vars: Default::default(),
        }
    }

    #[test]
    fn a_server_running_as_another_user_gets_nothing() {
        let me = current_user().unwrap();
        let pid = std::process::id();
        check_server(pid, &me, process_user).unwrap();
        let system = |_| Sid::parse("S-1-5-18");
        let refused = check_server(pid, &me, system).unwrap_err().to_string();
        assert!(refused.contains("another user"), "{refused}");
        let unknown = |_| Err(io::Error::from_raw_os_error(ERROR_ACCESS_DENIED as i32));
        let refused = check_server(pid, &me, unknown).unwrap_err().to_string();
        assert!(refused.contains("cannot tell which user"), "{refused}");
        // A PID with no process behind it is no one we know.
        assert!(check_server(4_294_967_293, &me, process_user).is_err());
    }

    #[tokio::test]
    async fn the_pipe_admits_the_current_user_only() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path(), "dacl");
        let listener = bind(&dirs).await.unwrap();
        let dacl = dacl_of(&listener.first);
        let me = current_user().unwrap().text().unwrap();
        // Protected (no inherited entries) and exactly one allow entry, ours.
        assert!(dacl.starts_with("D:P"), "{dacl}");
        assert_eq!(dacl.matches('(').count(), 1, "{dacl}");
        assert!(dacl.ends_with(&format!(";;;{me})")), "{dacl}");
        assert!(
            dacl.contains("(A;;FA;;;") || dacl.contains("(A;;GA;;;"),
            "{dacl}"
        );
    }

    #[tokio::test]
    async fn the_client_reaches_its_own_users_server_and_names_the_pipe_it_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path(), "call");
        assert!(matches!(
            call(&dirs, &crate::surfaces::action::StatusGet {}.into()).await,
            Err(Error::NotRunning)
        ));
        let listener = bind(&dirs).await.unwrap();
        let client = ClientOptions::new().open(pipe_name(&dirs)).unwrap();
        let mut pid = 0u32;
        // SAFETY: a live client handle.
        let ok = unsafe { GetNamedPipeServerProcessId(client.as_raw_handle() as HANDLE, &mut pid) };
        assert_ne!(ok, 0, "{}", io::Error::last_os_error());
        assert_eq!(pid, std::process::id());
        drop((client, listener));
    }

    /// Windows refuses a second pipe of the name (FILE_FLAG_FIRST_PIPE_INSTANCE); Wine 8 does
    /// not, so tests/wine skips this one.
    #[tokio::test]
    async fn a_second_server_cannot_take_the_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path(), "first");
        let _listener = bind(&dirs).await.unwrap();
        assert!(matches!(bind(&dirs).await, Err(Error::AlreadyRunning)));
    }
}
