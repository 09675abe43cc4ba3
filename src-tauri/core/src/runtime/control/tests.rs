//! The channel itself on this OS: a Unix socket, or on Windows a named pipe (CI runs this there).

#[cfg(unix)]
use super::request::MAX_REQUEST_BYTES;
use super::*;
use crate::error::Error;
use crate::platform::dirs::Dirs;
#[cfg(unix)]
use crate::platform::PlatformError;
use crate::runtime::instance::{Instance, World};
use crate::surfaces::action::{ReviewShow, StatusGet};
#[cfg(unix)]
use serde_json::Value;
use std::time::Duration;
#[cfg(unix)]
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn world(dirs: &Dirs) -> World {
    World {
        pid: 4242,
        ..World::isolated(dirs.clone())
    }
}

fn dirs(root: &std::path::Path) -> Dirs {
    Dirs {
        config: root.join("config"),
        data: root.join("data"),
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
        call(&dirs, &StatusGet {}.into()).await,
        Err(Error::NotRunning)
    ));
    let listener = bind(&dirs).await.unwrap();
    assert!(matches!(bind(&dirs).await, Err(Error::AlreadyRunning)));
    let instance = Instance::start(world(&dirs)).await.unwrap();
    tokio::spawn(serve(instance, listener));
    for _ in 0..3 {
        let status = call(&dirs, &StatusGet {}.into()).await.unwrap();
        assert_eq!(status["pid"], 4242);
    }
    let fault = call(&dirs, &ReviewShow { id: 9 }.into()).await.unwrap_err();
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
    let name = pipe::pipe_name(&dirs);
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
        match call(&dirs, &StatusGet {}.into()).await {
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
        .create(pipe::pipe_name(&next))
        .unwrap();
    let mut listener = bind(&dirs).await.unwrap();
    listener.name = pipe::pipe_name(&next);
    let instance = Instance::start(world(&dirs)).await.unwrap();
    let serving = tokio::spawn(serve(instance, listener));
    let status = call(&dirs, &StatusGet {}.into()).await.unwrap();
    assert_eq!(status["pid"], 4242);
    assert!(!serving.is_finished(), "the control channel ended");
    drop(held);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let status = loop {
        match call(&next, &StatusGet {}.into()).await {
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
    let called = tokio::time::timeout(bounded, call(&dirs, &StatusGet {}.into())).await;
    let connected = tokio::time::timeout(bounded, connect(&dirs)).await;
    for (what, refused) in [
        ("call", called.map(|r| r.err())),
        ("connect", connected.map(|r| r.err())),
    ] {
        match refused {
            Ok(Some(Error::Platform(PlatformError::RuntimeDir { path, problem }))) => {
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
    assert!(matches!(
        bind(&dirs).await,
        Err(Error::Platform(PlatformError::RuntimeDir { .. }))
    ));
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
    let own = crate::platform::own_user::own_uid();
    assert_eq!(stream.peer_cred().unwrap().uid(), own);
    let sock = dirs.control_socket();
    let other = own.wrapping_add(1);
    let refused = socket::same_user(&sock, other, own).unwrap_err();
    assert_eq!(refused.code(), crate::error::FaultCode::ForeignServer);
    assert!(
        refused.to_string().starts_with(&format!(
            "{} is served by another user (uid {other}): nothing was sent to it",
            sock.display()
        )),
        "{refused}"
    );
}

/// A peer on the control socket that answers with a line longer than any reply, and then
/// holds the connection: the command gives up at the bound instead of reading on without end
/// (before the shared framing it read the whole line, however long, into memory).
#[tokio::test]
async fn a_reply_past_the_bound_is_no_answer_and_is_not_read_on() {
    use tokio::io::AsyncWriteExt as _;
    let (ours, mut theirs) = tokio::io::duplex(64 * 1024);
    let flood = tokio::spawn(async move {
        let chunk = vec![b'x'; 1024 * 1024];
        let mut sent = 0u64;
        // One byte past the bound, never a newline; then the connection stays open.
        while sent <= super::MAX_REPLY_BYTES {
            if theirs.write_all(&chunk).await.is_err() {
                return sent;
            }
            sent += chunk.len() as u64;
        }
        std::future::pending::<u64>().await
    });
    let asked = tokio::time::timeout(
        Duration::from_secs(60),
        super::request::request(ours, &StatusGet {}.into()),
    )
    .await
    .expect("the command kept reading a reply past any bound");
    assert!(
        matches!(
            asked,
            Err(Error::Control(crate::error::ControlFailure::NoAnswer))
        ),
        "{asked:?}"
    );
    flood.abort();
}
