//! Who is on the other end of a real socket: a real child process (Node running a script laid
//! out as npm installs Gemini CLI) connects, and the lookup names its PID, program, version,
//! working directory, terminal and tmux pane.
#![cfg(target_os = "linux")]

use redline_core::platform::peer::{OsPeers, PeerLookup};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// `lib/node_modules/@google/gemini-cli/dist/index.js`: connects to the port in argv and stays.
fn fake_gemini(root: &Path) -> PathBuf {
    let pkg = root.join("lib/node_modules/@google/gemini-cli");
    std::fs::create_dir_all(pkg.join("dist")).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name": "@google/gemini-cli", "version": "0.61.0"}"#,
    )
    .unwrap();
    let script = pkg.join("dist/index.js");
    std::fs::write(
        &script,
        "const s = require('net').connect(Number(process.argv[2]), '127.0.0.1');\n\
         s.on('error', () => process.exit(1));\n\
         setInterval(() => {}, 1000);\n",
    )
    .unwrap();
    script
}

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn accept(
    listener: &tokio::net::TcpListener,
) -> (
    std::net::SocketAddr,
    std::net::SocketAddr,
    tokio::net::TcpStream,
) {
    let (stream, peer) = tokio::time::timeout(WAIT, listener.accept())
        .await
        .expect("the child connects")
        .unwrap();
    (stream.local_addr().unwrap(), peer, stream)
}

#[tokio::test]
async fn a_real_child_is_named_by_pid_program_version_and_cwd() {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let script = fake_gemini(&root);
    let work = root.join("project");
    std::fs::create_dir_all(&work).unwrap();
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let child = Killed(
        Command::new("node")
            .arg(&script)
            .arg(port.to_string())
            .current_dir(&work)
            .stdin(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let (local, peer, _stream) = accept(&listener).await;
    let found = tokio::task::spawn_blocking(move || OsPeers.lookup(local, peer))
        .await
        .unwrap()
        .expect("the peer is found");
    assert_eq!(found.pid, child.0.id());
    assert_eq!(found.program, "Gemini CLI");
    assert_eq!(found.version.as_deref(), Some("0.61.0"));
    assert_eq!(found.cwd.as_deref(), Some(work.to_str().unwrap()));
    assert_eq!(found.tmux, None);

    // A connection nobody holds any more is nobody's.
    drop(child);
    let gone: std::net::SocketAddr = "127.0.0.1:1".parse().unwrap();
    assert_eq!(OsPeers.lookup(local, gone), None);
}

#[tokio::test]
async fn in_tmux_the_pane_and_terminal_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let script = fake_gemini(&root);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let socket = root.join("tmux.sock");
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(["-f", "/dev/null"])
            .args(args)
            .status()
            .unwrap()
    };
    let cmd = format!("node {} {port}", script.display());
    assert!(tmux(&[
        "new-session",
        "-d",
        "-s",
        "who",
        "-x",
        "80",
        "-y",
        "24",
        &cmd
    ])
    .success());
    struct Server<'a>(&'a dyn Fn(&[&str]) -> std::process::ExitStatus);
    impl Drop for Server<'_> {
        fn drop(&mut self) {
            (self.0)(&["kill-server"]);
        }
    }
    let _server = Server(&tmux);
    let (local, peer, _stream) = accept(&listener).await;
    let found = tokio::task::spawn_blocking(move || OsPeers.lookup(local, peer))
        .await
        .unwrap()
        .expect("the peer is found");
    assert_eq!(found.program, "Gemini CLI");
    assert_eq!(found.tmux.as_deref(), Some("who:0.0"));
    assert!(
        found
            .tty
            .as_deref()
            .is_some_and(|t| t.starts_with("/dev/pts/")),
        "{found:?}"
    );
    assert_eq!(found.label(), "Gemini CLI 0.61.0 · tmux who:0.0");
}

/// A child that holds the CLI's socket too (as every child does between fork and exec, and one
/// given it keeps it), with a lower PID as after the PIDs wrapped, is not taken for the CLI: the
/// CLI is the holder whose parent does not hold it.
#[tokio::test]
async fn a_child_holding_the_socket_under_a_lower_pid_is_not_taken_for_the_cli() {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    let (server, peer) = listener.accept().unwrap();
    let local = server.local_addr().unwrap();
    let me = std::process::id();
    let child = Killed(spawn_below(me, &client));
    assert!(
        child.0.id() < me,
        "the child ({}) was given a PID below this process's ({me})",
        child.0.id()
    );
    let found = tokio::task::spawn_blocking(move || OsPeers.lookup(local, peer))
        .await
        .unwrap()
        .expect("the peer is found");
    assert_eq!(found.pid, me);
}

/// `cat` with `held` as its standard output, under the lowest free PID at or above 300 (where
/// the kernel starts again after a wrap): root sets the namespace's last PID, as CRIU does.
fn spawn_below(pid: u32, held: &std::net::TcpStream) -> Child {
    let floor = if pid > 1000 { 300 } else { 2 };
    let free = (floor..pid)
        .find(|p| !Path::new(&format!("/proc/{p}")).exists())
        .expect("a free PID below this process's");
    std::fs::write("/proc/sys/kernel/ns_last_pid", (free - 1).to_string())
        .expect("root sets the next PID");
    Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(
            held.try_clone().unwrap(),
        )))
        .spawn()
        .unwrap()
}
