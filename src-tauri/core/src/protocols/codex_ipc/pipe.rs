//! Where Codex looks for an IDE on Windows: the named pipe `\\.\pipe\codex-ipc`, one name for the
//! whole machine. Redline makes it only if no program has (a Codex desktop app or IDE extension
//! holding it is the router), and only this user may open it; Codex itself refuses a pipe whose
//! server process runs as another user.

use super::binding::Binding;
use super::hub::Hub;
use super::Source;
use crate::platform::private_pipe::{client_user, create, server_user};
use crate::platform::sid::{current_user, Sid};
use std::path::Path;
use tokio::net::windows::named_pipe::{ClientOptions, NamedPipeClient, NamedPipeServer};
use tokio_util::sync::CancellationToken;
use windows_sys::Win32::Foundation::{ERROR_ACCESS_DENIED, ERROR_FILE_NOT_FOUND, ERROR_PIPE_BUSY};

/// Codex's pipe (codex-rs/tui/src/ide_context/ipc.rs, `default_ipc_socket_path` on Windows).
pub const PATH: &str = r"\\.\pipe\codex-ipc";

/// How long joining waits for a busy router's pipe to take another client.
const JOIN_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The pipe's first instance, and who may open it.
#[derive(Debug)]
pub struct BoundPipe {
    name: String,
    user: Sid,
    first: NamedPipeServer,
}

/// Takes pipe `at`: held when any program serves it (probed first, as Wine does not enforce
/// `FILE_FLAG_FIRST_PIPE_INSTANCE`; then the flag closes the race on Windows), refused when it
/// is another user's.
pub fn bind(at: &Path) -> Binding<BoundPipe> {
    let name = at.to_string_lossy().into_owned();
    let user = match current_user() {
        Ok(u) => u,
        Err(e) => return Binding::Refused(format!("who am I: {e}")),
    };
    match ClientOptions::new().open(&name) {
        Ok(_) => return Binding::Held(at.to_owned()),
        Err(e) if e.raw_os_error() == Some(ERROR_PIPE_BUSY as i32) => {
            return Binding::Held(at.to_owned())
        }
        Err(e) if e.raw_os_error() == Some(ERROR_ACCESS_DENIED as i32) => {
            return Binding::Refused(another_users(&name))
        }
        Err(e) if e.raw_os_error() == Some(ERROR_FILE_NOT_FOUND as i32) => {}
        Err(e) => return Binding::Refused(format!("{name}: {e}")),
    }
    match create(&name, &user, true) {
        Ok(first) => Binding::Bound(BoundPipe { name, user, first }),
        // Made by another program between the probe and the create.
        Err(e) if e.raw_os_error() == Some(ERROR_ACCESS_DENIED as i32) => {
            Binding::Held(at.to_owned())
        }
        Err(e) => Binding::Refused(format!("{name}: {e}")),
    }
}

fn another_users(name: &str) -> String {
    format!(
        "{name} is another user's (one pipe name serves the whole machine): Codex CLI refuses it too"
    )
}

/// Serves Codex's pipe until `cancel` fires; the name goes with the last instance.
pub fn serve(
    bound: BoundPipe,
    source: Source,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let BoundPipe { name, user, first } = bound;
    let hub = Hub::new(source, cancel.clone());
    tokio::spawn(async move {
        let mut listening = Some(first);
        loop {
            let server = match listening.take() {
                Some(s) => s,
                None => match recreate(&name, &user, &cancel).await {
                    Some(s) => s,
                    None => break,
                },
            };
            let connected = tokio::select! {
                _ = cancel.cancelled() => break,
                r = server.connect() => r,
            };
            // The next instance is made before this one is handed over, so that Codex (which
            // does not wait for a busy pipe) finds one listening.
            listening = create(&name, &user, false)
                .inspect_err(|e| tracing::warn!("Codex pipe: cannot make an instance ({e})"))
                .ok();
            // A failed connect (a client gone already) fails again on that instance: it goes.
            if connected.is_err() {
                continue;
            }
            // The DACL admits only this user; a client of another user is refused all the same
            // (as on the unix socket).
            if client_user(&server).ok().as_ref() != Some(&user) {
                tracing::warn!("Codex pipe: refused a connection from another user");
                continue;
            }
            hub.take(server);
        }
    })
}

/// A new instance of the pipe, retried (10 ms, doubled up to 2 s) until made; none once `cancel`
/// fires.
async fn recreate(name: &str, user: &Sid, cancel: &CancellationToken) -> Option<NamedPipeServer> {
    let mut pause = std::time::Duration::from_millis(10);
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return None,
            _ = tokio::time::sleep(pause) => {}
        }
        match create(name, user, false) {
            Ok(s) => return Some(s),
            Err(e) => tracing::debug!("Codex pipe: still cannot make an instance: {e}"),
        }
        pause = (pause * 2).min(std::time::Duration::from_secs(2));
    }
}

/// Opens the router's pipe `at`, if its server runs as this user (Codex's own rule for whom it
/// asks).
pub async fn join(at: &Path) -> Result<NamedPipeClient, String> {
    let name = at.to_string_lossy();
    // A router makes its next instance only after it took a client (Redline's own probe, say):
    // a busy pipe is waited on a little, as `WaitNamedPipe` would.
    let deadline = tokio::time::Instant::now() + JOIN_WAIT;
    let client = loop {
        match ClientOptions::new().open(name.as_ref()) {
            Ok(c) => break c,
            Err(e)
                if e.raw_os_error() == Some(ERROR_PIPE_BUSY as i32)
                    && tokio::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await
            }
            Err(e) if e.raw_os_error() == Some(ERROR_ACCESS_DENIED as i32) => {
                return Err(another_users(&name))
            }
            Err(e) => return Err(format!("{name}: {e}")),
        }
    };
    let own = current_user().map_err(|e| format!("who am I: {e}"))?;
    match server_user(&client) {
        Ok(user) if user == own => Ok(client),
        Ok(_) => Err(another_users(&name)),
        Err(e) => Err(format!("cannot tell who serves {name}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::private_pipe::inspect::dacl_of;
    use std::path::PathBuf;
    use tokio::net::windows::named_pipe::ServerOptions;

    fn name(tag: &str) -> PathBuf {
        PathBuf::from(format!("{PATH}-{tag}-{}", std::process::id()))
    }

    #[tokio::test]
    async fn redline_s_pipe_admits_the_current_user_only() {
        let at = name("dacl");
        let Binding::Bound(bound) = bind(&at) else {
            panic!("a free name is taken");
        };
        let dacl = dacl_of(&bound.first);
        let me = current_user().unwrap().text().unwrap();
        // Protected (no inherited entries) and exactly one allow entry, ours.
        assert!(dacl.starts_with("D:P"), "{dacl}");
        assert_eq!(dacl.matches('(').count(), 1, "{dacl}");
        assert!(dacl.ends_with(&format!(";;;{me})")), "{dacl}");
    }

    #[tokio::test]
    async fn a_pipe_another_program_serves_is_left_to_it_and_joined() {
        let at = name("held");
        let foreign = ServerOptions::new()
            .first_pipe_instance(true)
            .create(&at)
            .unwrap();
        assert!(matches!(bind(&at), Binding::Held(_)));
        // The probe took the one listening instance: a busy pipe is held all the same.
        assert!(matches!(bind(&at), Binding::Held(_)));
        drop(foreign);
        let foreign = ServerOptions::new().create(&at).unwrap();
        let joined = join(&at).await.expect("a pipe of this user's is joined");
        assert_eq!(
            crate::platform::private_pipe::server_pid(&joined).unwrap(),
            std::process::id()
        );
        drop((joined, foreign));
        assert!(
            matches!(bind(&at), Binding::Bound(_)),
            "a free name is taken"
        );
    }
}
