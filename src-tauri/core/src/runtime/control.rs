//! The local control channel between `redline` commands and the running instance: one JSON
//! request line, one JSON response line, over a socket no other user and no browser can reach.

use crate::api::fault::Fault;
use crate::error::{Error, Result};
use crate::platform::dirs::Dirs;
use crate::review::ReviewId;
use crate::runtime::companion::Decision;
use crate::runtime::instance::Instance;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

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

/// Answers one connection: a request line in, a reply line out.
async fn answer<S: AsyncRead + AsyncWrite + Unpin>(instance: &Instance, stream: S) {
    let mut stream = BufReader::new(stream);
    let mut line = String::new();
    // A request is one short line: a peer that does not send it in time is dropped.
    let read = tokio::time::timeout(REQUEST_READ, stream.read_line(&mut line));
    if !matches!(read.await, Ok(Ok(_))) {
        return;
    }
    let reply = match serde_json::from_str::<Request>(&line) {
        Ok(Request::Editor) => return crate::runtime::editor::serve(instance, stream).await,
        Ok(req) => match dispatch(instance, req).await {
            Ok(v) => Reply::Ok(v),
            Err(e) => Reply::Error((&e).into()),
        },
        Err(e) => Reply::Error(Fault {
            code: "bad_request".into(),
            message: format!("bad control request: {e}"),
        }),
    };
    let mut out = serde_json::to_vec(&reply).unwrap_or_default();
    out.push(b'\n');
    let _ = stream.get_mut().write_all(&out).await;
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
        Ok(Reply::Error(f)) => Err(Error::Control(f.message)),
        Err(_) => Err(Error::Control("the instance closed the connection".into())),
    }
}

#[cfg(unix)]
mod endpoint {
    use super::*;
    use crate::platform::private_file;
    use std::os::unix::fs::PermissionsExt;
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

    /// Binds the socket in a 0700 directory, refusing if a live instance answers there.
    pub async fn bind(dirs: &Dirs) -> Result<Listener> {
        private_file::ensure_dir(&dirs.runtime)?;
        std::fs::set_permissions(&dirs.runtime, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::io(&dirs.runtime, e))?;
        let path = dirs.control_socket();
        if UnixStream::connect(&path).await.is_ok() {
            return Err(Error::AlreadyRunning);
        }
        let _ = std::fs::remove_file(&path);
        let inner = UnixListener::bind(&path).map_err(|e| Error::io(&path, e))?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::io(&path, e))?;
        Ok(Listener { inner, path })
    }

    pub async fn serve(instance: Arc<Instance>, listener: Listener) {
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
            let instance = instance.clone();
            tokio::spawn(async move { answer(&instance, stream).await });
        }
    }

    pub async fn call(dirs: &Dirs, req: &Request) -> Result<Value> {
        request(connect(dirs).await?, req).await
    }

    pub async fn connect(dirs: &Dirs) -> Result<UnixStream> {
        UnixStream::connect(dirs.control_socket())
            .await
            .map_err(|_| Error::NotRunning)
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
        let instance = Instance::start(World {
            dirs: dirs.clone(),
            pid: 4242,
            procs: Arc::new(OsProcessTable),
            clock: Arc::new(SystemClock),
            tokens: Tokens::memory("test".into()),
            interfaces: Arc::new(crate::workspace::container::OsInterfaces),
        })
        .await
        .unwrap();
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
}
