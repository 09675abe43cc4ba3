//! The accept loop's listener on Windows: instances of one named pipe that only this user may
//! open, a new one listening before each connected one is handed over.
//
// A named pipe is not a listening socket: each client takes one instance, and a name with no
// instance left is free for anyone to create. So one instance always waits for the next client
// (made before the connected one goes to the accept loop), and the accept loop's cap on open
// connections (`Limits::max_connections`, as on TCP and the unix socket) bounds the instances:
// at most that many connected plus the one waiting.

use super::accept::{Listen, SocketPeer};
use crate::platform::private_pipe::{client_user, create};
use crate::platform::sid::{current_user, Sid};
use std::io;
use tokio::net::windows::named_pipe::NamedPipeServer;
use tokio::sync::Mutex;
use windows_sys::Win32::Foundation::ERROR_NO_DATA;

/// One pipe name served by the accept loop.
#[derive(Debug)]
pub struct PipeListener {
    name: String,
    user: Sid,
    /// The instance waiting for a client; none only after making one failed (the next accept
    /// tries again, and the accept loop backs off between tries).
    waiting: Mutex<Option<NamedPipeServer>>,
}

impl PipeListener {
    /// Makes pipe `name`'s first instance, only if no pipe of that name exists at all, whoever
    /// made it: we never add instances to another's pipe.
    pub fn bind(name: &str) -> io::Result<PipeListener> {
        let user = current_user()?;
        let first = create(name, &user, true)?;
        Ok(PipeListener {
            name: name.to_owned(),
            user,
            waiting: Mutex::new(Some(first)),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// A new instance of the pipe, or the reason there is none (logged: a client then waits
    /// for the next accept).
    fn next(&self) -> io::Result<NamedPipeServer> {
        create(&self.name, &self.user, false).inspect_err(|e| {
            tracing::warn!("pipe {}: cannot make an instance ({e})", self.name);
        })
    }

    /// The instance waiting for a client, for tests that read its security descriptor.
    #[cfg(test)]
    pub(crate) async fn with_waiting<T>(&self, f: impl FnOnce(&NamedPipeServer) -> T) -> T {
        let waiting = self.waiting.lock().await;
        f(waiting.as_ref().expect("an instance waits"))
    }
}

impl Listen for PipeListener {
    type Stream = NamedPipeServer;
    type Peer = SocketPeer;

    async fn accept(&self) -> io::Result<(NamedPipeServer, SocketPeer)> {
        // One accept at a time (the accept loop never runs two): the lock only makes `&self`
        // enough to swap the waiting instance.
        let mut waiting = self.waiting.lock().await;
        loop {
            let server = match waiting.take() {
                Some(server) => server,
                None => self.next()?,
            };
            // Kept in the slot while it waits: a stop that drops this future leaves it there.
            let server = waiting.insert(server);
            match server.connect().await {
                Ok(()) => {}
                // A client that came and went before the connect (Copilot CLI probes every lock
                // with a connection it closes at once): the instance is done with; the next
                // one is made before it is closed, so the name is never free.
                Err(e) if e.raw_os_error() == Some(ERROR_NO_DATA as i32) => {
                    *waiting = Some(self.next()?);
                    continue;
                }
                // An instance whose connect failed fails every later connect the same way until
                // it is disconnected: it is replaced once its successor is made (until then it
                // stays, disconnected, holding the name), and the accept loop backs off.
                Err(e) => {
                    match self.next() {
                        Ok(next) => *waiting = Some(next),
                        Err(_) => {
                            let _ = server.disconnect();
                        }
                    }
                    return Err(e);
                }
            }
            let Some(connected) = std::mem::replace(&mut *waiting, self.next().ok()) else {
                continue;
            };
            // The DACL admits only this user; a client of another user is dropped all the same,
            // as on the control pipe and Codex's.
            if client_user(&connected).ok().as_ref() != Some(&self.user) {
                tracing::warn!("pipe {}: refused a connection from another user", self.name);
                continue;
            }
            // Which process connected is not looked up on Windows yet: the review then names
            // the CLI without its process.
            return Ok((connected, SocketPeer { pid: None }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::private_pipe::inspect::dacl_of;
    use std::sync::Arc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::windows::named_pipe::ClientOptions;

    /// Opens pipe `name` as libuv does (Node's `net.connect`): while every instance is taken,
    /// `WaitNamedPipeW` until one is free, then open again. Blocking.
    fn open_waiting(name: &str) -> tokio::net::windows::named_pipe::NamedPipeClient {
        let wide: Vec<u16> = name.encode_utf16().chain([0]).collect();
        loop {
            match ClientOptions::new().open(name) {
                Err(e)
                    if e.raw_os_error()
                        == Some(windows_sys::Win32::Foundation::ERROR_PIPE_BUSY as i32) =>
                {
                    // SAFETY: `wide` is a NUL-terminated name that outlives the call.
                    let free = unsafe {
                        windows_sys::Win32::System::Pipes::WaitNamedPipeW(wide.as_ptr(), 10_000)
                    };
                    assert_ne!(free, 0, "{}", io::Error::last_os_error());
                }
                r => return r.unwrap(),
            }
        }
    }

    fn name(tag: &str) -> String {
        format!(r"\\.\pipe\redline-pipe-accept-{tag}-{}", std::process::id())
    }

    #[tokio::test]
    async fn the_pipe_admits_the_current_user_only() {
        let listener = PipeListener::bind(&name("dacl")).unwrap();
        let dacl = listener.with_waiting(dacl_of).await;
        let me = current_user().unwrap().text().unwrap();
        // Protected (no inherited entries) and exactly one allow entry, ours: what the control
        // pipe's and Codex's pipe's tests check of `private_pipe::create`.
        assert!(dacl.starts_with("D:P"), "{dacl}");
        assert_eq!(dacl.matches('(').count(), 1, "{dacl}");
        assert!(dacl.ends_with(&format!(";;;{me})")), "{dacl}");
    }

    #[tokio::test]
    async fn a_client_gone_before_the_accept_does_not_stop_the_next_and_an_instance_always_waits() {
        let listener = Arc::new(PipeListener::bind(&name("probe")).unwrap());
        // Copilot CLI's probe: opened and closed before the server took it.
        drop(ClientOptions::new().open(listener.name()).unwrap());
        let accepting = tokio::spawn({
            let listener = listener.clone();
            async move {
                // Windows fails the probe's connect (ERROR_NO_DATA) and accept skips it; Wine 8
                // connects it: it is then handed over and ends at its first read, as hyper
                // ends it.
                for _ in 0..2 {
                    let (mut server, _) = listener.accept().await.unwrap();
                    let mut got = [0u8; 1];
                    if server.read_exact(&mut got).await.is_ok() {
                        return got;
                    }
                }
                panic!("the client after the probe was never accepted");
            }
        });
        // The probe's instance is replaced before it goes: wait for the new one as clients do.
        let opening = tokio::task::spawn_blocking({
            let name = listener.name().to_owned();
            move || open_waiting(&name)
        });
        let mut client = opening.await.unwrap();
        client.write_all(b"x").await.unwrap();
        let got = accepting.await.unwrap();
        assert_eq!(&got, b"x", "the accepted instance is the live client's");
        // The next instance was made before this one was handed over.
        assert!(ClientOptions::new().open(listener.name()).is_ok());
    }
}
