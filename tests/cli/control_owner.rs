//! Whose control socket a command talks to: the real binary run as a second real user while root
//! (this test) squats its runtime dir or serves its socket, and its own server refusing another
//! user's connection. Root-only parts say so and skip elsewhere; CI runs them as root.

use super::Env;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A real second user, created once (idempotently) and kept for the next run.
#[derive(Clone, Copy)]
pub(super) struct User {
    pub uid: u32,
    pub gid: u32,
}

fn user_b() -> Option<User> {
    system_user("redline-test-b", "/bin/false")
}

/// The user `name` with login shell `shell`, made if it is not there (not locked: sshd refuses
/// a locked one even a key; no password either); `None` when not root.
pub(super) fn system_user(name: &str, shell: &str) -> Option<User> {
    // SAFETY: geteuid cannot fail and touches no memory.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: needs root to run `redline` as a second user");
        return None;
    }
    let id = |flag: &str| {
        let out = Command::new("id").args([flag, name]).output().ok()?;
        String::from_utf8(out.stdout)
            .ok()?
            .trim()
            .parse::<u32>()
            .ok()
    };
    if id("-u").is_none() {
        // Another test may create it at the same moment: whoever wins, it then exists.
        let made = ["--system", "--no-create-home", "--shell", shell, name];
        let _ = Command::new("useradd").args(made).status();
        let _ = Command::new("usermod").args(["-p", "*", name]).status();
    }
    Some(User {
        uid: id("-u").expect("useradd"),
        gid: id("-g").expect("the user's group"),
    })
}

/// An `Env` whose commands run as `user` with no XDG_RUNTIME_DIR: their runtime dir is the
/// fallback, `$TMPDIR/redline-<uid>`, in a shared sticky tmp like /tmp.
struct AsUser {
    env: Env,
    user: User,
}

impl AsUser {
    fn new(user: User) -> AsUser {
        let mut env = Env::new();
        env.keyring = false;
        let root = &env.root;
        std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).unwrap();
        for d in ["home", "config", "ws", "ws/sub"] {
            std::os::unix::fs::chown(root.join(d), Some(user.uid), Some(user.gid)).unwrap();
        }
        std::fs::set_permissions(root.join("tmp"), std::fs::Permissions::from_mode(0o1777))
            .unwrap();
        AsUser { env, user }
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = self.env.cmd(args);
        c.env_remove("XDG_RUNTIME_DIR")
            .uid(self.user.uid)
            .gid(self.user.gid);
        c
    }

    fn runtime(&self) -> PathBuf {
        self.env
            .root
            .join("tmp")
            .join(format!("redline-{}", self.user.uid))
    }
}

/// Runs `cmd` to its end with `stdin`, within a deadline: a command that reached a squatter
/// would wait for its answer forever.
fn finish(mut cmd: Command, stdin: &[u8], what: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It may exit before reading: a broken pipe is its answer, not ours to report.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what} still waiting after 20 s (on the squatter's socket?): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Everything the squatter's listener was sent, per connection, once the commands have exited
/// (their connections wait in the backlog, with whatever they wrote, until accepted here).
fn received(listener: &UnixListener) -> Vec<Vec<u8>> {
    listener.set_nonblocking(true).unwrap();
    let mut got = Vec::new();
    loop {
        match listener.accept() {
            Ok((mut s, _)) => {
                s.set_nonblocking(false).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                let mut bytes = Vec::new();
                let _ = s.read_to_end(&mut bytes);
                got.push(bytes);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return got,
            Err(e) => panic!("accept: {e}"),
        }
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The commands that carry the user's text: open files, selections, proposals, diffs.
fn every_command(b: &AsUser) -> Vec<(&'static str, Command, Vec<u8>)> {
    let ws = b.env.ws();
    let left = ws.join("left.txt");
    let right = ws.join("right.txt");
    std::fs::write(&left, "mine\n").unwrap();
    std::fs::write(&right, "theirs\n").unwrap();
    let file = ws.join("secret.rs").to_string_lossy().into_owned();
    let (l, r) = (left.to_str().unwrap(), right.to_str().unwrap());
    vec![
        ("status", b.cmd(&["status"]), vec![]),
        (
            "propose --wait",
            b.cmd(&["propose", &file, "--content-file", "-", "--wait"]),
            b"let key = \"secret\";\n".to_vec(),
        ),
        (
            "diff --edit --wait",
            b.cmd(&["diff", l, r, "--edit", "--wait"]),
            vec![],
        ),
        (
            "editor --stdio",
            b.cmd(&["editor", "--stdio"]),
            format!("{{\"type\":\"context\",\"file\":\"{file}\",\"line\":1}}\n").into_bytes(),
        ),
    ]
}

/// `/tmp/redline-<uid>` made first by another user, open to all, their socket listening in it:
/// no command sends it a byte, each says whose the dir is in one line, and no server starts there.
#[test]
fn a_squatted_runtime_dir_gets_nothing_and_is_named_in_one_line() {
    let Some(user) = user_b() else { return };
    let b = AsUser::new(user);
    let dir = b.runtime();
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let squatter = UnixListener::bind(dir.join("control.sock")).unwrap();
    std::fs::set_permissions(
        dir.join("control.sock"),
        std::fs::Permissions::from_mode(0o777),
    )
    .unwrap();
    let line = format!(
        "redline: {} belongs to another user (uid 0): refusing to use it; set XDG_RUNTIME_DIR \
         to a directory of your own, or have it removed\n",
        dir.display()
    );
    for (what, cmd, stdin) in every_command(&b) {
        let out = finish(cmd, &stdin, what);
        assert!(!out.status.success(), "{what} succeeded");
        assert_eq!(stderr(&out), line, "{what}");
    }
    let out = finish(b.cmd(&["serve", "--headless"]), b"", "serve --headless");
    assert!(!out.status.success(), "serve started in a squatted dir");
    assert_eq!(stderr(&out), line, "serve --headless");
    assert!(out.stdout.is_empty(), "serve said ready");
    let meta = std::fs::symlink_metadata(&dir).unwrap();
    assert_eq!(
        (meta.uid(), meta.mode() & 0o7777),
        (0, 0o777),
        "the dir was changed"
    );
    assert_eq!(
        received(&squatter),
        Vec::<Vec<u8>>::new(),
        "the squatter was reached"
    );
}

/// The dir is the user's own, but the socket in it is served by another user (replaced, or
/// hard-linked there): refused on the peer's credentials, before a byte is sent.
#[test]
fn a_socket_served_by_another_user_gets_nothing() {
    let Some(user) = user_b() else { return };
    let b = AsUser::new(user);
    let dir = b.runtime();
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::chown(&dir, Some(user.uid), Some(user.gid)).unwrap();
    let sock = dir.join("control.sock");
    let impostor = UnixListener::bind(&sock).unwrap();
    std::fs::set_permissions(&sock, std::fs::Permissions::from_mode(0o777)).unwrap();
    let line = format!(
        "redline: {} is served by another user (uid 0): nothing was sent to it; stop that \
         server or set XDG_RUNTIME_DIR to a directory of your own\n",
        sock.display()
    );
    let commands = every_command(&b);
    let count = commands.len();
    for (what, cmd, stdin) in commands {
        let out = finish(cmd, &stdin, what);
        assert!(!out.status.success(), "{what} succeeded");
        assert_eq!(stderr(&out), line, "{what}");
    }
    let got = received(&impostor);
    assert_eq!(got.len(), count, "each command connected once");
    assert!(got.iter().all(|b| b.is_empty()), "sent: {got:?}");
}

/// The user's own server, reached by another user (root passes the 0700 dir): it answers
/// nothing, and goes on answering its own user.
#[test]
fn the_server_answers_no_other_user() {
    let Some(user) = user_b() else { return };
    let b = AsUser::new(user);
    let mut cmd = b.cmd(&["serve", "--headless"]);
    cmd.stderr(Stdio::inherit());
    let mut child = Stopped(Env::until_ready(cmd));
    let sock = b.runtime().join("control.sock");
    let mut root = UnixStream::connect(&sock).unwrap();
    root.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let _ = root.write_all(b"{\"cmd\":\"status\"}\n");
    let mut answer = Vec::new();
    let _ = root.read_to_end(&mut answer);
    assert_eq!(
        String::from_utf8_lossy(&answer),
        "",
        "another user got an answer"
    );
    let out = finish(b.cmd(&["status", "--json"]), b"", "status");
    assert!(out.status.success(), "{}", stderr(&out));
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["pid"], child.0.id());
    assert!(finish(b.cmd(&["quit"]), b"", "quit").status.success());
    child.0.wait().unwrap();
}

/// A server the test started, killed if the test fails before it quits (it would hold the test
/// harness's stderr open).
struct Stopped(std::process::Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The user's own runtime dir, open to others: commands refuse it; the server tightens it to
/// 0700, says so, and starts.
#[test]
fn an_open_runtime_dir_is_refused_by_commands_and_tightened_by_the_server() {
    let env = Env::new();
    let dir = env.root.join("run/redline");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = env.run(&["status"]);
    assert_eq!(
        stderr(&out),
        format!(
            "redline: {} is open to other users (mode 755, not 700): refusing to use it; \
             `chmod 700` it (`redline serve` does so when it starts)\n",
            dir.display()
        )
    );
    let mut cmd = env.cmd(&["serve", "--headless"]);
    cmd.stderr(Stdio::piped());
    let mut child = Env::until_ready(cmd);
    assert_eq!(super::mode(&dir), 0o700);
    env.ok(&["quit"]);
    child.wait().unwrap();
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(
        log.contains(&format!(
            "{} was open to other users (mode 755): tightened to 700",
            dir.display()
        )),
        "{log}"
    );
}

/// A runtime dir that is a symlink, even to a private dir of the user's own: refused by both.
#[test]
fn a_symlinked_runtime_dir_is_refused() {
    let env = Env::new();
    let target = env.root.join("elsewhere");
    std::fs::create_dir(&target).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o700)).unwrap();
    let dir = env.root.join("run/redline");
    std::os::unix::fs::symlink(&target, &dir).unwrap();
    let line = format!(
        "redline: {} is a symbolic link: refusing to use it; remove it (`redline serve` \
         creates its own)\n",
        dir.display()
    );
    let out = finish(env.cmd(&["status"]), b"", "status");
    assert_eq!(stderr(&out), line);
    let out = finish(env.cmd(&["serve", "--headless"]), b"", "serve");
    assert!(!out.status.success());
    assert_eq!(stderr(&out), line);
    assert!(
        !Path::new(&target.join("control.sock")).exists(),
        "served through the link"
    );
}
