//! The local control channel between `redline` commands and the running instance: one JSON
//! request line, one JSON response line, over a socket no other user and no browser can reach.

use crate::api::fault::Fault;
use crate::error::{Error, Result};
use crate::platform::dirs::Dirs;
use crate::review::ReviewId;
use crate::runtime::companion::Decision;
use crate::runtime::instance::local;
use crate::runtime::instance::Instance;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "cmd", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Request {
    Status,
    WorkspaceAdd {
        path: PathBuf,
    },
    WorkspaceRemove {
        path: PathBuf,
    },
    WorkspaceEnable {
        path: PathBuf,
        enabled: bool,
    },
    WorkspaceList,
    ReviewList,
    ReviewShow {
        id: ReviewId,
    },
    ReviewAccept {
        id: ReviewId,
        content: Option<String>,
    },
    ReviewReject {
        id: ReviewId,
    },
    ReviewWait {
        file: Option<String>,
        timeout_ms: u64,
    },
    TokenRotate {
        path: PathBuf,
    },
    Pin {
        path: PathBuf,
    },
    ContainerEnable {
        path: PathBuf,
        address: Option<std::net::Ipv4Addr>,
    },
    ContainerDisable {
        path: PathBuf,
    },
    ContainerArgs {
        path: PathBuf,
        container_path: Option<String>,
        home: String,
    },
    /// Show the review window (a second `redline` launch reaching the running one).
    Show,
    /// `redline propose`: answered at once, or with `wait` when decided.
    Propose(crate::runtime::instance::local::Propose),
    /// `redline diff`: answered at once, or with `wait` when every file is decided.
    Diff(crate::runtime::instance::local::Diff),
    /// Turns this connection into an editor channel (runtime::editor): no reply line, JSON lines
    /// both ways until either side closes.
    Editor,
    /// One editor message from a one-shot command (`redline mention`, `redline context`).
    EditorSend {
        message: crate::review::editor::Message,
    },
    Quit,
}

/// The answer to `ContainerEnable`: the workspace and its containers as they now stand.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ContainersOn {
    pub path: PathBuf,
    /// Whether the workspace's server runs (containers apply when it does).
    pub running: bool,
    pub containers: Option<crate::api::status::ContainerStatus>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum Reply {
    Ok(Value),
    Error(Fault),
}

async fn dispatch(instance: &Instance, req: Request) -> Result<Value> {
    Ok(match req {
        Request::Status => value(&instance.status().await),
        Request::WorkspaceAdd { path } => json!(instance.add_workspace(&path).await?),
        Request::WorkspaceRemove { path } => json!(instance.remove_workspace(&path).await?),
        Request::WorkspaceEnable { path, enabled } => {
            instance.set_enabled(&path, enabled).await?;
            Value::Null
        }
        Request::WorkspaceList => value(&instance.workspaces().await),
        Request::ReviewList => value(instance.list()),
        Request::ReviewShow { id } => json!(instance.show(id)?),
        Request::ReviewAccept { id, content } => {
            instance.decide(id, Decision::Accept(content)).await?;
            Value::Null
        }
        Request::ReviewReject { id } => {
            instance.decide(id, Decision::Reject).await?;
            Value::Null
        }
        Request::ReviewWait { file, timeout_ms } => value(
            &instance
                .wait(file.as_deref(), Duration::from_millis(timeout_ms))
                .await?,
        ),
        Request::TokenRotate { path } => {
            instance.rotate_token(&path).await?;
            Value::Null
        }
        Request::Pin { path } => value(&instance.pin(&path).await?),
        Request::ContainerEnable { path, address } => {
            let path = instance.set_containers(&path, true, address).await?;
            let status = instance.status().await;
            let w = status.workspaces.into_iter().find(|w| w.path == path);
            value(ContainersOn {
                running: w.as_ref().is_some_and(|w| w.port.is_some()),
                containers: w.and_then(|w| w.containers),
                path,
            })
        }
        Request::ContainerDisable { path } => {
            json!(instance.set_containers(&path, false, None).await?)
        }
        Request::ContainerArgs {
            path,
            container_path,
            home,
        } => value(
            &instance
                .container_args(&path, container_path.as_deref(), &home)
                .await?,
        ),
        Request::Show => json!(instance.request_show()),
        // Answered in `answer`: they hold the connection until decided.
        Request::Propose(_) | Request::Diff(_) => {
            return Err(Error::Control(
                "a local review needs its own connection".into(),
            ))
        }
        // Answered in `answer`, which hands the connection over.
        Request::Editor => return Err(Error::Control("an editor channel is a connection".into())),
        Request::EditorSend { message } => {
            instance.editor_message(None, message).await?;
            Value::Null
        }
        Request::Quit => {
            instance.request_quit();
            Value::Null
        }
    })
}

fn value<T: Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// How long a `redline` command may take to send its request line.
const REQUEST_READ: Duration = Duration::from_secs(10);

/// The longest request line: a proposal or a diff's text, JSON-escaped, with room to spare.
const MAX_REQUEST_BYTES: u64 = 3 * crate::runtime::instance::local::MAX_DIFF_BYTES as u64 / 2;

/// Answers one connection: a request line in, a reply line out. (The named pipe knows no pid.)
#[cfg(windows)]
async fn answer<S: AsyncRead + AsyncWrite + Unpin>(instance: &Instance, stream: S) {
    answer_from(instance, stream, None).await
}

/// As `answer`, knowing the process that connected (`pid`), to name it on a local review.
async fn answer_from<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: S,
    pid: Option<u32>,
) {
    let mut stream = BufReader::new(stream);
    let mut line = String::new();
    // A request is one line, bounded: a peer that does not send it in time is dropped.
    let read = {
        let mut bounded = (&mut stream).take(MAX_REQUEST_BYTES);
        tokio::time::timeout(REQUEST_READ, bounded.read_line(&mut line)).await
    };
    let reply = match read {
        Ok(Ok(n)) if n as u64 == MAX_REQUEST_BYTES && !line.ends_with('\n') => {
            Reply::Error(Fault {
                code: "too_large".into(),
                message: format!("control request over {MAX_REQUEST_BYTES} bytes"),
            })
        }
        Ok(Ok(_)) => match serde_json::from_str::<Request>(&line) {
            Ok(Request::Propose(p)) => {
                let wait = p.wait;
                let opened = instance.propose_local(p, pid).await;
                match local(instance, &mut stream, opened, wait).await {
                    Some(reply) => reply,
                    None => return,
                }
            }
            Ok(Request::Diff(d)) => {
                let wait = d.wait;
                let opened = instance.diff_local(d, pid).await;
                match local(instance, &mut stream, opened, wait).await {
                    Some(reply) => reply,
                    None => return,
                }
            }
            Ok(Request::Editor) => return crate::runtime::editor::serve(instance, stream).await,
            Ok(req) => match dispatch(instance, req).await {
                Ok(v) => Reply::Ok(v),
                Err(e) => Reply::Error((&e).into()),
            },
            Err(e) => Reply::Error(Fault {
                code: "bad_request".into(),
                message: format!("bad control request: {e}"),
            }),
        },
        _ => return,
    };
    let mut out = serde_json::to_vec(&reply).unwrap_or_default();
    out.push(b'\n');
    let _ = stream.get_mut().write_all(&out).await;
}

/// Answers a local review's request (see `local::Opened::answer`); `None`: the command went away.
async fn local<S: AsyncRead + AsyncWrite + Unpin>(
    instance: &Instance,
    stream: &mut BufReader<S>,
    opened: Result<local::Opened>,
    wait: bool,
) -> Option<Reply> {
    let opened = match opened {
        Ok(o) => o,
        Err(e) => return Some(Reply::Error((&e).into())),
    };
    // The command sends nothing more: any read returning is its end going away.
    let mut probe = [0u8; 1];
    let gone = async {
        let _ = stream.read(&mut probe).await;
    };
    let answer = opened.answer(instance, wait, gone).await?;
    Some(Reply::Ok(value(answer)))
}

async fn request<S: AsyncRead + AsyncWrite + Unpin>(stream: S, req: &Request) -> Result<Value> {
    let mut stream = BufReader::new(stream);
    let mut out = serde_json::to_vec(req).map_err(|e| Error::Control(e.to_string()))?;
    out.push(b'\n');
    stream
        .get_mut()
        .write_all(&out)
        .await
        .map_err(|e| Error::Control(e.to_string()))?;
    let mut line = String::new();
    stream
        .read_line(&mut line)
        .await
        .map_err(|e| Error::Control(e.to_string()))?;
    match serde_json::from_str::<Reply>(&line) {
        Ok(Reply::Ok(v)) => Ok(v),
        Ok(Reply::Error(f)) => Err(Error::Refused(f.message)),
        Err(_) => Err(Error::Control("the instance closed the connection".into())),
    }
}

#[cfg(unix)]
mod endpoint {
    use super::*;
    use crate::platform::runtime_dir;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;
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
        let own = runtime_dir::own_uid();
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
        let cred = stream.peer_cred().map_err(|e| {
            Error::Control(format!(
                "cannot tell who serves {} ({e}): nothing was sent to it",
                path.display()
            ))
        })?;
        same_user(path, cred.uid(), runtime_dir::own_uid())
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
}

#[cfg(windows)]
#[path = "pipe.rs"]
mod endpoint;

pub use endpoint::{bind, call, connect, serve, Listener};

/// The channel itself on this OS: a Unix socket, or on Windows a named pipe (CI runs this there).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::clock::SystemClock;
    use crate::platform::keyring::Tokens;
    use crate::platform::process::OsProcessTable;
    use crate::runtime::instance::World;

    fn world(dirs: &Dirs) -> World {
        World {
            dirs: dirs.clone(),
            pid: 4242,
            procs: Arc::new(OsProcessTable),
            clock: Arc::new(SystemClock),
            tokens: Tokens::memory("test".into()),
            interfaces: Arc::new(crate::workspace::container::OsInterfaces),
        }
    }

    fn dirs(root: &std::path::Path) -> Dirs {
        Dirs {
            config: root.join("config"),
            runtime: root.join(format!("redline-test-{}", std::process::id())),
            home: root.join("home"),
            tmp: root.join("tmp"),
            vars: Default::default(),
        }
    }

    #[tokio::test]
    async fn answers_requests_refuses_a_second_instance_and_says_when_none_runs() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path());
        assert!(matches!(
            call(&dirs, &Request::Status).await,
            Err(Error::NotRunning)
        ));
        let listener = bind(&dirs).await.unwrap();
        assert!(matches!(bind(&dirs).await, Err(Error::AlreadyRunning)));
        let instance = Instance::start(world(&dirs)).await.unwrap();
        tokio::spawn(serve(instance, listener));
        for _ in 0..3 {
            let status = call(&dirs, &Request::Status).await.unwrap();
            assert_eq!(status["pid"], 4242);
        }
        let fault = call(&dirs, &Request::ReviewShow { id: 9 })
            .await
            .unwrap_err();
        assert!(fault.to_string().contains("no review with id 9"), "{fault}");
    }

    /// A client that opens the pipe and closes it before the loop connects leaves an instance
    /// whose connect reports ERROR_NO_DATA (mio takes it as a connection with nobody on it): the
    /// loop keeps serving. One such client comes before the loop first waits (`redline serve`
    /// starts its instance between binding the pipe and serving it), then 2,000 in a row.
    #[cfg(windows)]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn clients_that_open_and_close_at_once_do_not_stop_the_pipe() {
        use tokio::net::windows::named_pipe::ClientOptions;
        let tmp = tempfile::tempdir().unwrap();
        let mut dirs = dirs(tmp.path());
        dirs.runtime = tmp
            .path()
            .join(format!("redline-flap-{}", std::process::id()));
        let listener = bind(&dirs).await.unwrap();
        let name = endpoint::pipe_name(&dirs);
        drop(ClientOptions::new().open(&name).unwrap());
        let instance = Instance::start(world(&dirs)).await.unwrap();
        tokio::spawn(serve(instance, listener));
        let mut opened = 0;
        for _ in 0..2_000 {
            // Busy while the loop is between instances: that attempt is simply not counted.
            if let Ok(client) = ClientOptions::new().open(&name) {
                opened += 1;
                drop(client);
            }
        }
        assert!(opened > 0, "no client ever reached the pipe");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let status = loop {
            match call(&dirs, &Request::Status).await {
                Ok(status) => break status,
                Err(e) => assert!(
                    tokio::time::Instant::now() < deadline,
                    "the pipe stopped serving after {opened} clients left at once: {e}"
                ),
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(status["pid"], 4242);
    }

    /// A pipe instance that cannot be created (here: another server holds the name the loop
    /// makes its next instance under, with room for one instance, a real `CreateNamedPipe`
    /// failure) does not end the control channel: the client already connected is answered, and
    /// once the name frees up the loop serves on.
    #[cfg(windows)]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_channel_outlives_a_failure_to_create_an_instance() {
        use tokio::net::windows::named_pipe::ServerOptions;
        let tmp = tempfile::tempdir().unwrap();
        let mut dirs = dirs(tmp.path());
        dirs.runtime = tmp
            .path()
            .join(format!("redline-retry-{}", std::process::id()));
        let mut next = dirs.clone();
        next.runtime = tmp
            .path()
            .join(format!("redline-retry-{}-next", std::process::id()));
        let held = ServerOptions::new()
            .max_instances(1)
            .create(endpoint::pipe_name(&next))
            .unwrap();
        let mut listener = bind(&dirs).await.unwrap();
        listener.name = endpoint::pipe_name(&next);
        let instance = Instance::start(world(&dirs)).await.unwrap();
        let serving = tokio::spawn(serve(instance, listener));
        let status = call(&dirs, &Request::Status).await.unwrap();
        assert_eq!(status["pid"], 4242);
        assert!(!serving.is_finished(), "the control channel ended");
        drop(held);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let status = loop {
            match call(&next, &Request::Status).await {
                Ok(status) => break status,
                Err(e) => assert!(
                    tokio::time::Instant::now() < deadline,
                    "no instance was made once the name was free: {e}"
                ),
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(status["pid"], 4242);
    }

    /// A request line is bounded: past the bound the peer is told so, and nothing is parsed.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_request_line_past_the_bound_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path());
        let listener = bind(&dirs).await.unwrap();
        let instance = Instance::start(world(&dirs)).await.unwrap();
        tokio::spawn(serve(instance, listener));
        let stream = tokio::net::UnixStream::connect(dirs.control_socket())
            .await
            .unwrap();
        let (read, mut write) = stream.into_split();
        // The server stops reading at the bound, so write from a task of its own.
        let flood = tokio::spawn(async move {
            let chunk = vec![b' '; 1 << 20];
            for _ in 0..=MAX_REQUEST_BYTES / (1 << 20) {
                if write.write_all(&chunk).await.is_err() {
                    break;
                }
            }
        });
        let mut line = String::new();
        BufReader::new(read).read_line(&mut line).await.unwrap();
        let reply: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(reply["error"]["code"], "too_large", "{reply}");
        flood.abort();
    }

    /// The squatted `/tmp/redline-<uid>`: another user's dir, open to all, their listener in it.
    /// Every command's connection (call and connect) is refused before a byte is sent; bounded,
    /// since a command that did connect would wait for an answer that never comes.
    #[cfg(unix)]
    #[tokio::test]
    async fn nothing_is_sent_into_another_users_runtime_dir() {
        use std::os::unix::fs::PermissionsExt;
        let Some(other) = crate::platform::runtime_dir::tests::other_user() else {
            return;
        };
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path());
        std::fs::create_dir(&dirs.runtime).unwrap();
        std::fs::set_permissions(&dirs.runtime, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::os::unix::fs::chown(&dirs.runtime, Some(other), None).unwrap();
        let squatter = std::os::unix::net::UnixListener::bind(dirs.control_socket()).unwrap();
        squatter.set_nonblocking(true).unwrap();
        let bounded = Duration::from_secs(5);
        let called = tokio::time::timeout(bounded, call(&dirs, &Request::Status)).await;
        let connected = tokio::time::timeout(bounded, connect(&dirs)).await;
        for (what, refused) in [
            ("call", called.map(|r| r.err())),
            ("connect", connected.map(|r| r.err())),
        ] {
            match refused {
                Ok(Some(Error::RuntimeDir { path, problem })) => {
                    assert_eq!(path, dirs.runtime);
                    assert_eq!(problem, crate::error::DirProblem::OtherOwner { uid: other });
                }
                other => panic!("{what}: expected a refused runtime dir, got {other:?}"),
            }
        }
        match squatter.accept() {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            other => panic!("the squatter was reached: {other:?}"),
        }
        // Nor does a server listen there.
        assert!(matches!(bind(&dirs).await, Err(Error::RuntimeDir { .. })));
    }

    /// The uid read from a real connection is the listening process's (ours here); any other
    /// is refused, naming the socket and the uid.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_server_of_another_uid_is_refused_by_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path());
        let _listener = bind(&dirs).await.unwrap();
        let stream = connect(&dirs).await.unwrap();
        let own = crate::platform::runtime_dir::own_uid();
        assert_eq!(stream.peer_cred().unwrap().uid(), own);
        let sock = dirs.control_socket();
        let other = own.wrapping_add(1);
        let refused = endpoint::same_user(&sock, other, own).unwrap_err();
        assert_eq!(refused.code(), "foreign_server");
        assert!(
            refused.to_string().starts_with(&format!(
                "{} is served by another user (uid {other}): nothing was sent to it",
                sock.display()
            )),
            "{refused}"
        );
    }
}
