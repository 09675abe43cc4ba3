//! The `redline` binary's editor commands end to end: `editor --stdio` bridges an editor's pipes
//! to the running instance and ends with either side; `mention` and `context` answer at once.

#![cfg(unix)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_redline");
const WAIT: Duration = Duration::from_secs(10);

struct Env {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Env {
    fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        for d in ["home", "tmp", "config", "run", "ws"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::set_permissions(root.join("run"), std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(root.join("ws/a.txt"), "one\ntwo\nthree\n").unwrap();
        Env { _tmp: tmp, root }
    }

    fn ws(&self) -> PathBuf {
        self.root.join("ws")
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.root.join("home"))
            .env("TMPDIR", self.root.join("tmp"))
            .env("XDG_CONFIG_HOME", self.root.join("config"))
            .env("XDG_RUNTIME_DIR", self.root.join("run"))
            .env("RUST_LOG", "warn")
            .current_dir(self.ws());
        c
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        self.cmd(args).output().unwrap()
    }

    fn serve(&self) -> Child {
        let mut child = self
            .cmd(&["serve", "--headless"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "ready\n");
        child
    }

    fn editor(&self) -> (Child, BufReader<ChildStdout>) {
        let mut child = self
            .cmd(&["editor", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        (child, out)
    }
}

fn line(out: &mut BufReader<ChildStdout>) -> Value {
    let mut l = String::new();
    out.read_line(&mut l).unwrap();
    serde_json::from_str(&l).unwrap_or_else(|_| panic!("not a JSON line: {l:?}"))
}

/// Waits for `child` to exit, within the deadline.
fn exits(mut child: Child) -> std::process::ExitStatus {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait().unwrap());
    });
    rx.recv_timeout(WAIT).expect("the process did not exit")
}

#[test]
fn editor_commands_without_an_instance_say_so() {
    let env = Env::new();
    let (child, mut out) = env.editor();
    let e = line(&mut out);
    assert_eq!(
        (e["type"].clone(), e["code"].clone()),
        (json!("error"), json!("not_running"))
    );
    assert_eq!(exits(child).code(), Some(3));
    let m = env.run(&["mention", "a.txt:1-2"]);
    assert_eq!(m.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&m.stderr).contains("no running Redline instance"));
}

#[test]
fn the_editor_channel_bridges_lines_and_ends_with_either_side() {
    let env = Env::new();
    let ws = env.ws();
    assert!(env
        .run(&["workspace", "add", ws.to_str().unwrap()])
        .status
        .success());
    let mut serve = env.serve();
    let a = ws.join("a.txt");

    let (mut child, mut out) = env.editor();
    assert_eq!(line(&mut out)["type"], "ready");
    let mut stdin = child.stdin.take().unwrap();
    let msg = json!({"type": "context", "id": 1, "files": [
        {"path": a, "active": true, "cursor": {"line": 2, "col": 1}}]});
    writeln!(stdin, "{msg}").unwrap();
    assert_eq!(line(&mut out), json!({"type": "ok", "id": 1}));
    writeln!(stdin, "garbage").unwrap();
    assert_eq!(line(&mut out)["code"], "bad_message");
    // The editor closes its end: the bridge ends cleanly.
    drop(stdin);
    assert!(exits(child).success());

    // One-shot commands for editors without plugins.
    let ok = env.run(&["mention", "a.txt:3-1"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let ok = env.run(&[
        "context",
        "--file",
        "a.txt",
        "--line",
        "2",
        "--selection",
        "1:1-2:4",
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let outside = env.run(&["mention", "/etc/hostname:1"]);
    assert_eq!(outside.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&outside.stderr)
        .contains("no enabled workspace contains /etc/hostname"));
    let bad = env.run(&["mention", "a.txt:zero"]);
    assert_eq!(bad.status.code(), Some(2));

    // The instance goes: so does the bridge.
    let (child, mut out) = env.editor();
    assert_eq!(line(&mut out)["type"], "ready");
    assert!(env.run(&["quit"]).status.success());
    assert!(exits(child).success());
    serve.wait().unwrap();
}
