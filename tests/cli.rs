//! The `redline` binary end to end, isolated in temp dirs: start, announce, stop, clean up, and
//! every command against a running instance (or none).

#![cfg(unix)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_redline");

struct Env {
    tmp: tempfile::TempDir,
    root: PathBuf,
    /// Whether commands see the D-Bus session (and so the Secret Service), if there is one.
    keyring: bool,
}

impl Env {
    fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap();
        let root = dunce_canon(tmp.path());
        for d in ["home", "tmp", "config", "run", "ws/sub"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::set_permissions(root.join("run"), std::fs::Permissions::from_mode(0o700)).unwrap();
        Env {
            tmp,
            root,
            keyring: true,
        }
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
            .env("RUST_LOG", "warn");
        if let Some(bus) = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").filter(|_| self.keyring) {
            c.env("DBUS_SESSION_BUS_ADDRESS", bus);
        }
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "redline {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.ok(args)).unwrap()
    }

    /// Starts `serve --headless` and returns once it printed `ready`.
    fn serve(&self) -> Child {
        let mut cmd = self.cmd(&["serve", "--headless"]);
        cmd.stderr(Stdio::inherit());
        Self::until_ready(cmd)
    }

    /// Spawns a `serve` command and returns once it printed `ready`.
    fn until_ready(mut cmd: Command) -> Child {
        let mut child = cmd.stdout(Stdio::piped()).spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "ready\n");
        child
    }

    fn gemini_dir(&self) -> PathBuf {
        self.root.join("tmp/gemini/ide")
    }

    fn qwen_dir(&self) -> PathBuf {
        self.root.join("home/.qwen/ide")
    }

    fn claude_dir(&self) -> PathBuf {
        self.root.join("home/.claude/ide")
    }
}

fn dunce_canon(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, sig) };
}

fn files(status: &Value) -> Vec<PathBuf> {
    status["workspaces"][0]["discoveryFiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| PathBuf::from(f.as_str().unwrap()))
        .collect()
}

#[test]
fn serve_announces_with_its_own_pid_and_cleans_up_on_sigterm() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let status = env.json(&["status", "--json"]);
    assert_eq!(status["pid"], child.id());
    let ws = &status["workspaces"][0];
    assert_eq!(ws["path"], env.ws().to_str().unwrap());
    let port = ws["port"].as_u64().unwrap();
    let gemini = env
        .gemini_dir()
        .join(format!("gemini-ide-server-{}-{port}.json", child.id()));
    let qwen = env.qwen_dir().join(format!("{port}.lock"));
    let ws_port = ws["wsPort"].as_u64().unwrap();
    assert_ne!(ws_port, port);
    let claude = env.claude_dir().join(format!("{ws_port}.lock"));
    let copilot = env.root.join(format!(
        "home/.copilot/ide/redline-{}-{port}.lock",
        child.id()
    ));
    let amp_port = ws["ampPort"].as_u64().unwrap();
    let amp = env
        .root
        .join(format!("home/.local/share/amp/ide/{amp_port}.json"));
    assert_eq!(
        files(&status),
        vec![
            gemini.clone(),
            qwen.clone(),
            claude.clone(),
            copilot.clone(),
            amp.clone()
        ]
    );
    for f in [&gemini, &qwen, &claude, &copilot, &amp] {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
    assert_eq!(mode(&env.gemini_dir()), 0o700);
    assert_eq!(mode(&env.qwen_dir()), 0o700);
    assert_eq!(mode(&env.claude_dir()), 0o700);
    let c: Value = serde_json::from_slice(&std::fs::read(&claude).unwrap()).unwrap();
    assert_eq!(c["pid"], child.id());
    assert_eq!(c["ideName"], "Redline");
    assert_eq!(c["transport"], "ws");
    assert_eq!(c["workspaceFolders"], json!([env.ws().to_str().unwrap()]));
    let human = env.ok(&["status"]);
    assert!(
        human.contains(&format!("claude code     ws://127.0.0.1:{ws_port}")),
        "{human}"
    );
    assert!(human.contains(&claude.display().to_string()), "{human}");
    let g: Value = serde_json::from_slice(&std::fs::read(&gemini).unwrap()).unwrap();
    assert_eq!(g["port"], port);
    assert_eq!(g["workspacePath"], env.ws().to_str().unwrap());
    assert_eq!(
        g["ideInfo"],
        json!({"name": "redline", "displayName": "Redline"})
    );
    let q: Value = serde_json::from_slice(&std::fs::read(&qwen).unwrap()).unwrap();
    assert_eq!(q["ppid"], child.id());
    assert_eq!(q["authToken"], g["authToken"]);
    let socket = env.root.join("run/redline/control.sock");
    assert!(socket.exists());
    assert_eq!(mode(&env.root.join("run/redline")), 0o700);

    signal(&child, libc::SIGTERM);
    assert!(child.wait().unwrap().success());
    assert!(
        !gemini.exists() && !qwen.exists() && !claude.exists() && !copilot.exists(),
        "discovery files removed"
    );
    assert!(!socket.exists(), "control socket removed");
}

#[test]
fn quit_and_ctrl_c_stop_it_too() {
    for how in ["quit", "SIGINT"] {
        let env = Env::new();
        env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
        let mut child = env.serve();
        let before = files(&env.json(&["status", "--json"]));
        if how == "quit" {
            env.ok(&["quit"]);
        } else {
            signal(&child, libc::SIGINT);
        }
        assert!(child.wait().unwrap().success(), "{how}");
        assert!(before.iter().all(|f| !f.exists()), "{how}");
    }
}

#[test]
fn stale_files_of_a_dead_redline_go_at_start_and_other_ides_files_stay() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    // A PID that surely is dead: a child we started and reaped.
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = gone.id();
    std::fs::create_dir_all(env.gemini_dir()).unwrap();
    std::fs::create_dir_all(env.qwen_dir()).unwrap();
    let ours = json!({"port": 1, "workspacePath": "/x", "ppid": dead,
                      "ideInfo": {"name": "redline", "displayName": "Redline"}});
    let theirs = json!({"port": 2, "workspacePath": "/x", "ppid": dead,
                        "ideInfo": {"name": "vscode", "displayName": "VS Code"}});
    let stale_g = env
        .gemini_dir()
        .join(format!("gemini-ide-server-{dead}-1.json"));
    let stale_q = env.qwen_dir().join("1.lock");
    let other_g = env
        .gemini_dir()
        .join(format!("gemini-ide-server-{dead}-2.json"));
    let other_q = env.qwen_dir().join("2.lock");
    std::fs::write(&stale_g, ours.to_string()).unwrap();
    std::fs::write(&stale_q, ours.to_string()).unwrap();
    std::fs::write(&other_g, theirs.to_string()).unwrap();
    std::fs::write(&other_q, theirs.to_string()).unwrap();
    std::fs::create_dir_all(env.claude_dir()).unwrap();
    let stale_c = env.claude_dir().join("1.lock");
    let other_c = env.claude_dir().join("2.lock");
    let claude_lock = |ide: &str| {
        json!({"pid": dead, "workspaceFolders": ["/x"], "ideName": ide, "transport": "ws",
               "runningInWindows": false, "authToken": "t"})
        .to_string()
    };
    std::fs::write(&stale_c, claude_lock("Redline")).unwrap();
    std::fs::write(&other_c, claude_lock("Visual Studio Code")).unwrap();
    let mut child = env.serve();
    assert!(
        !stale_g.exists() && !stale_q.exists() && !stale_c.exists(),
        "Redline's stale files removed"
    );
    assert!(
        other_g.exists() && other_q.exists() && other_c.exists(),
        "other IDEs' files untouched"
    );
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn workspaces_change_in_the_running_instance_at_once() {
    let env = Env::new();
    let mut child = env.serve();
    assert!(env.json(&["status", "--json"])["workspaces"]
        .as_array()
        .unwrap()
        .is_empty());
    // A relative path is taken from the caller's directory.
    let out = env
        .cmd(&["workspace", "add", "ws"])
        .current_dir(&env.root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = env.json(&["status", "--json"]);
    let f = files(&status);
    assert_eq!(
        f.len(),
        5,
        "Gemini CLI, Qwen Code, Claude Code, Copilot CLI, Amp: {f:?}"
    );
    assert!(f.iter().all(|p| p.exists()));
    let listed = env.json(&["workspace", "list", "--json"]);
    assert_eq!(listed[0]["path"], env.ws().to_str().unwrap());
    let dup = env.run(&["workspace", "add", env.ws().to_str().unwrap()]);
    assert_eq!(dup.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&dup.stderr).contains("already a workspace"));
    env.ok(&["workspace", "remove", env.ws().to_str().unwrap()]);
    assert!(f.iter().all(|p| !p.exists()), "removed with the workspace");
    let config: Value = serde_json::from_slice(
        &std::fs::read(env.root.join("config/redline/config.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(config["workspaces"], json!([]));
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn a_second_instance_is_refused_and_the_first_keeps_serving() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut first = env.serve();
    let before = files(&env.json(&["status", "--json"]));
    let second = env.run(&["serve", "--headless"]);
    assert_eq!(second.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&second.stderr).contains("already running"));
    assert!(
        before.iter().all(|f| f.exists()),
        "the first one's files stay"
    );
    assert_eq!(env.json(&["status", "--json"])["pid"], first.id());
    env.ok(&["quit"]);
    first.wait().unwrap();
}

#[test]
fn without_an_instance_commands_say_so_and_workspaces_still_edit_the_config() {
    let env = Env::new();
    for args in [
        vec!["status"],
        vec!["review", "list"],
        vec!["token", "rotate", "/x"],
        vec!["env"],
        vec!["quit"],
    ] {
        let out = env.run(&args);
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no running Redline instance"),
            "{args:?}: {err}"
        );
    }
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    assert!(env
        .ok(&["workspace", "list"])
        .contains(env.ws().to_str().unwrap()));
    let missing = env.run(&["workspace", "add", "/definitely/not/here"]);
    assert_eq!(missing.status.code(), Some(2));
    env.ok(&["workspace", "remove", env.ws().to_str().unwrap()]);
    assert!(env.ok(&["workspace", "list"]).contains("no workspaces"));
}

fn raw_status(port: u64, token: &str) -> u16 {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port as u16)).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    write!(
        s,
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nauthorization: Bearer {token}\r\nconnection: close\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn token_rotate_rewrites_the_files_and_the_old_token_stops_working() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let status = env.json(&["status", "--json"]);
    let port = status["workspaces"][0]["port"].as_u64().unwrap();
    let read_token = |f: &Path| -> String {
        let v: Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
        v["authToken"].as_str().unwrap().to_owned()
    };
    let f = files(&status);
    let old = read_token(&f[0]);
    assert_eq!(old.len(), 64);
    assert_eq!(raw_status(port, &old), 200);
    env.ok(&["token", "rotate", env.ws().to_str().unwrap()]);
    let new = read_token(&f[0]);
    assert_ne!(new, old);
    assert_eq!(read_token(&f[1]), new, "every file rewritten");
    assert_eq!(read_token(&f[2]), new, "every file rewritten");
    assert_eq!(mode(&f[2]), 0o600);
    assert_eq!(mode(&f[0]), 0o600);
    assert_eq!(raw_status(port, &old), 401);
    assert_eq!(raw_status(port, &new), 200);
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn env_prints_the_pin_for_the_workspace_holding_a_path() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let port = env.json(&["status", "--json"])["workspaces"][0]["port"]
        .as_u64()
        .unwrap();
    let sh = env.ok(&["env", env.ws().join("sub").to_str().unwrap()]);
    assert!(sh.contains(&format!("export GEMINI_CLI_IDE_SERVER_PORT='{port}'")));
    assert!(sh.contains(&format!("export QWEN_CODE_IDE_SERVER_PORT='{port}'")));
    let ws_port = env.json(&["status", "--json"])["workspaces"][0]["wsPort"]
        .as_u64()
        .unwrap();
    assert!(sh.contains(&format!("export CLAUDE_CODE_SSE_PORT='{ws_port}'")));
    assert!(sh.contains(&format!(
        "export GEMINI_CLI_IDE_WORKSPACE_PATH='{}'",
        env.ws().display()
    )));
    assert!(sh.contains("export GEMINI_CLI_IDE_AUTH_TOKEN='"));
    let fish = env
        .cmd(&["env", "--shell", "fish"])
        .current_dir(env.ws().join("sub"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&fish.stdout).contains("set -gx GEMINI_CLI_IDE_SERVER_PORT"));
    let outside = env.run(&["env", env.root.join("home").to_str().unwrap()]);
    assert_eq!(outside.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&outside.stderr).contains("no enabled workspace contains"));
    env.ok(&["quit"]);
    child.wait().unwrap();
}

/// A minimal MCP session over HTTP, enough to open a diff and read the decision.
struct Session {
    http: reqwest::Client,
    url: String,
    token: String,
    id: String,
}

impl Session {
    async fn open(port: u64, token: &str) -> Session {
        let http = reqwest::Client::new();
        let url = format!("http://127.0.0.1:{port}/mcp");
        let resp = http
            .post(&url)
            .bearer_auth(token)
            .header("accept", "application/json, text/event-stream")
            .json(
                &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "cli-test", "version": "1.2.3"}}}),
            )
            .send()
            .await
            .unwrap();
        let id = resp.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let s = Session {
            http,
            url,
            token: token.to_owned(),
            id,
        };
        s.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        s
    }

    async fn post(&self, body: Value) -> String {
        self.http
            .post(&self.url)
            .bearer_auth(&self.token)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.id)
            .header("mcp-protocol-version", "2025-06-18")
            .json(&body)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    async fn stream(&self) -> reqwest::Response {
        self.http
            .get(&self.url)
            .bearer_auth(&self.token)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &self.id)
            .send()
            .await
            .unwrap()
    }
}

/// Reads the stream until a diff decision arrives.
async fn next_decision(stream: &mut reqwest::Response) -> Value {
    let mut buf = String::new();
    loop {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), stream.chunk())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some(i) = buf.find("\n\n") {
            let block: String = buf.drain(..i + 2).collect();
            if let Some(data) = block.strip_prefix("data: ") {
                let m: Value = serde_json::from_str(data.trim()).unwrap();
                if m["method"] != "ide/contextUpdate" {
                    return m;
                }
            }
        }
    }
}

#[tokio::test]
async fn reviews_are_listed_shown_waited_for_and_decided_from_the_command_line() {
    let env = Env::new();
    std::fs::write(env.ws().join("a.txt"), "one\ntwo\n").unwrap();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let status = env.json(&["status", "--json"]);
    let port = status["workspaces"][0]["port"].as_u64().unwrap();
    let f = files(&status);
    let v: Value = serde_json::from_slice(&std::fs::read(&f[0]).unwrap()).unwrap();
    let s = Session::open(port, v["authToken"].as_str().unwrap()).await;
    let mut stream = s.stream().await;
    let path = env.ws().join("a.txt").to_string_lossy().into_owned();

    // `review wait` blocks until the proposal arrives: start it first.
    let waiter = env
        .cmd(&["review", "wait", "--file", &path, "--timeout", "10"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    s.post(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "openDiff", "arguments": {"filePath": path, "newContent": "one\nTWO\n"}}}),
    )
    .await;
    let waited = waiter.wait_with_output().unwrap();
    assert!(waited.status.success());
    let review: Value = serde_json::from_slice(&waited.stdout).unwrap();
    assert_eq!(review["filePath"], path);
    assert_eq!(review["workspace"], env.ws().to_str().unwrap());
    assert_eq!(review["client"]["name"], "cli-test");
    assert_eq!(review["client"]["version"], "1.2.3");
    // Who really asked: this test process, on the other end of the connection.
    assert_eq!(review["client"]["process"]["pid"], std::process::id());
    assert_eq!(
        (review["added"].as_u64(), review["removed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(review["newFile"], false);
    let id = review["id"].as_u64().unwrap().to_string();

    let list = env.json(&["review", "list", "--json"]);
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0], review);
    let status = env.json(&["status", "--json"]);
    assert_eq!(status["workspaces"][0]["pendingReviews"], 1);
    assert_eq!(status["workspaces"][0]["clients"][0]["name"], "cli-test");
    let shown = env.ok(&["review", "show", &id]);
    assert!(shown.contains("--- a/a.txt\n+++ b/a.txt\n"), "{shown}");
    assert!(shown.contains("-two\n+TWO\n"), "{shown}");

    let edited = env.root.join("edited.txt");
    std::fs::write(&edited, "one\nmy edit, ünïcode").unwrap();
    env.ok(&[
        "review",
        "accept",
        &id,
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    let m = next_decision(&mut stream).await;
    assert_eq!(m["method"], "ide/diffAccepted");
    assert_eq!(
        m["params"],
        json!({"filePath": path, "content": "one\nmy edit, ünïcode"})
    );
    assert_eq!(
        std::fs::read_to_string(env.ws().join("a.txt")).unwrap(),
        "one\ntwo\n"
    );

    let missing = env.run(&["review", "accept", &id]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no review with id"));
    let timeout = env.run(&["review", "wait", "--timeout", "0"]);
    assert_eq!(timeout.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&timeout.stderr).contains("timed out"));

    s.post(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "openDiff", "arguments": {"filePath": path, "newContent": "x\n"}}}),
    )
    .await;
    let review = env.json(&["review", "wait"]);
    env.ok(&["review", "reject", &review["id"].to_string()]);
    let m = next_decision(&mut stream).await;
    assert_eq!(
        m,
        json!({"jsonrpc": "2.0", "method": "ide/diffRejected", "params": {"filePath": path}})
    );

    env.ok(&["quit"]);
    child.wait().unwrap();
    drop(env.tmp);
}

fn token_in(status: &Value) -> String {
    let v: Value = serde_json::from_slice(&std::fs::read(&files(status)[0]).unwrap()).unwrap();
    v["authToken"].as_str().unwrap().to_owned()
}

#[test]
fn tokens_survive_a_restart_when_the_os_keyring_answers() {
    use redline_core::platform::keyring::{OsKeyring, SecretStore};
    if let Err(e) = OsKeyring::probe() {
        assert!(
            std::env::var_os("REDLINE_REQUIRE_KEYRING").is_none(),
            "REDLINE_REQUIRE_KEYRING is set but the keyring does not answer: {e}"
        );
        eprintln!("skipped: no OS keyring here ({e})");
        return;
    }
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let status = env.json(&["status", "--json"]);
    assert_eq!(status["keyring"]["available"], true);
    assert_eq!(status["workspaces"][0]["tokenStore"], "keyring");
    let first = token_in(&status);
    env.ok(&["quit"]);
    child.wait().unwrap();
    let mut child = env.serve();
    let again = env.json(&["status", "--json"]);
    assert_eq!(token_in(&again), first, "the same token after a restart");
    let account = env.ws().to_string_lossy().into_owned();
    assert_eq!(
        OsKeyring.get(&account).unwrap().as_deref(),
        Some(first.as_str())
    );
    env.ok(&["workspace", "remove", env.ws().to_str().unwrap()]);
    assert_eq!(
        OsKeyring.get(&account).unwrap(),
        None,
        "forgotten with the workspace"
    );
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn without_a_keyring_it_says_so_and_keeps_the_token_in_memory() {
    let mut env = Env::new();
    env.keyring = false;
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let status = env.json(&["status", "--json"]);
    assert_eq!(status["keyring"]["available"], false);
    assert!(status["keyring"]["detail"]
        .as_str()
        .unwrap()
        .contains("memory"));
    assert_eq!(status["workspaces"][0]["tokenStore"], "memory");
    assert!(env.ok(&["status"]).contains("keyring unavailable"));
    let first = token_in(&status);
    env.ok(&["quit"]);
    child.wait().unwrap();
    let mut child = env.serve();
    assert_ne!(
        token_in(&env.json(&["status", "--json"])),
        first,
        "a per-run token"
    );
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn a_signal_the_moment_it_is_ready_still_cleans_up() {
    // `ready` promises the stop signals are heard: a race here left stale files behind.
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    for round in 0..20 {
        let mut child = env.serve();
        signal(
            &child,
            if round % 2 == 0 {
                libc::SIGTERM
            } else {
                libc::SIGINT
            },
        );
        let status = child.wait().unwrap();
        assert!(status.success(), "round {round}: {status:?}");
        let left: Vec<_> = std::fs::read_dir(env.gemini_dir()).unwrap().collect();
        assert!(left.is_empty(), "round {round}: {left:?}");
    }
}

/// The hint names what starts Redline here: the app (desktop build, a display), else the headless
/// servers; never `serve --headless` to a desktop user who has a screen.
#[test]
fn not_running_says_how_to_start_redline_here() {
    let env = Env::new();
    let hint = |display: Option<&str>| {
        let mut cmd = env.cmd(&["status"]);
        if let Some(d) = display {
            cmd.env("DISPLAY", d);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(3));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let headless = "(start one with `redline serve --headless`)";
    assert!(hint(None).contains(headless), "{}", hint(None));
    let with_display = hint(Some(":99"));
    if cfg!(feature = "desktop") {
        assert!(
            with_display.contains("(start one with `redline`)"),
            "{with_display}"
        );
    } else {
        assert!(with_display.contains(headless), "{with_display}");
    }
}

#[cfg(feature = "desktop")]
#[test]
fn a_second_launch_reaches_the_running_instance_instead_of_starting_another() {
    let env = Env::new();
    let mut first = env.serve();
    // `redline` alone would start the desktop app; with an instance running it only asks that
    // one to show its window (a headless one has none, and says so).
    let second = env.run(&[]);
    let err = String::from_utf8_lossy(&second.stderr);
    // docs/cli.md: the "no" of 1, not an error (issue 41; it was 2).
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(err.contains("no window opened"), "{err}");
    assert!(err.contains("`redline quit`"), "{err}");
    assert_eq!(env.json(&["status", "--json"])["pid"], first.id());
    env.ok(&["quit"]);
    first.wait().unwrap();
}

/// Built without the desktop feature, the desktop entry points to the headless server instead of
/// failing somewhere in a GUI library, and starts nothing.
#[cfg(not(feature = "desktop"))]
#[test]
fn the_headless_build_says_it_has_no_window_and_how_to_serve() {
    let env = Env::new();
    for args in [vec![], vec!["serve"]] {
        let out = env.run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err,
            "redline: this build has no desktop window; `redline serve --headless` runs the servers\n",
            "{args:?}"
        );
        assert!(!env.root.join("run/redline").exists(), "nothing started");
    }
}

/// A fake npm install of a CLI on the test's PATH, and its IDE mode switched on.
fn fake_cli(env: &Env, cmd: &str, package: &str, version: &str, settings: &str) -> PathBuf {
    let pkg = env.root.join("npm/lib/node_modules").join(package);
    std::fs::create_dir_all(pkg.join("dist")).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        json!({"name": package, "version": version}).to_string(),
    )
    .unwrap();
    let script = pkg.join("dist/index.js");
    std::fs::write(&script, "#!/usr/bin/env node\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bin = env.root.join("npm/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(&script, bin.join(cmd)).unwrap();
    let dir = env.root.join("home").join(settings);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("settings.json"), r#"{"ide":{"enabled":true}}"#).unwrap();
    bin
}

/// `redline doctor` in the test's environment with the fake CLIs first on PATH.
fn doctor(env: &Env, bin: &Path, dir: &Path) -> (Option<i32>, Value) {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = env
        .cmd(&["doctor", "--json", dir.to_str().unwrap()])
        .env("PATH", path)
        // These machines are containers: Gemini CLI would otherwise go to host.docker.internal.
        .env("REMOTE_CONTAINERS", "1")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), report)
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["clis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn fix_of(report: &Value, id: &str) -> String {
    report["clis"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap()["fix"]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn doctor_follows_a_real_instance_and_each_fix_it_offers_works() {
    let env = Env::new();
    fake_cli(&env, "gemini", "@google/gemini-cli", "0.61.0", ".gemini");
    let bin = fake_cli(&env, "qwen", "@qwen-code/qwen-code", "0.24.4", ".qwen");
    let sub = env.ws().join("sub");

    // Nothing running: exit 1, and the fix starts Redline.
    let (code, report) = doctor(&env, &bin, &sub);
    assert_eq!(code, Some(1));
    assert_eq!(
        verdicts(&report)[0],
        ("gemini".into(), "not_running".into())
    );
    assert_eq!(fix_of(&report, "qwen"), "redline serve --headless");

    let mut child = env.serve();
    // Running, but no workspace holds the directory: the fix adds it.
    let (code, report) = doctor(&env, &bin, &sub);
    assert_eq!(code, Some(1));
    let add = fix_of(&report, "gemini");
    assert_eq!(add, format!("redline workspace add {}", sub.display()));
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);

    // Every installed CLI connects; the token was checked against the real server.
    let (code, report) = doctor(&env, &bin, &sub);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(
        verdicts(&report),
        vec![
            ("gemini".into(), "connects".into()),
            ("qwen".into(), "connects".into()),
            ("claude".into(), "not_installed".into()),
            ("copilot".into(), "not_installed".into()),
            ("amp".into(), "not_installed".into()),
        ]
    );
    let port = env.json(&["status", "--json"])["workspaces"][0]["port"].clone();
    for c in report["clis"].as_array().unwrap().iter().take(2) {
        assert_eq!(c["port"], port);
        assert_eq!(c["probe"]["kind"], "answered");
        assert_eq!(c["probe"]["server"], "redline");
    }

    // Off: exit 1, and the offered command turns it back on.
    env.ok(&["workspace", "disable", env.ws().to_str().unwrap()]);
    let (code, report) = doctor(&env, &bin, &sub);
    assert_eq!(code, Some(1));
    assert_eq!(
        verdicts(&report)[1],
        ("qwen".into(), "workspace_off".into())
    );
    let enable = fix_of(&report, "qwen");
    let args: Vec<&str> = enable.split(' ').skip(1).collect();
    env.ok(&args);
    let (code, _) = doctor(&env, &bin, &sub);
    assert_eq!(code, Some(0));

    // A rotated token in a stale copy of the file is caught by the end-to-end check.
    let port = env.json(&["status", "--json"])["workspaces"][0]["port"].clone();
    let gemini_file =
        env.gemini_dir()
            .join(format!("gemini-ide-server-{}-{}.json", child.id(), port));
    let stale = std::fs::read(&gemini_file).unwrap();
    env.ok(&["token", "rotate", env.ws().to_str().unwrap()]);
    std::fs::write(&gemini_file, stale).unwrap();
    let (code, report) = doctor(&env, &bin, &sub);
    assert_eq!(code, Some(1));
    assert_eq!(
        verdicts(&report)[0],
        ("gemini".into(), "token_refused".into())
    );

    // People get the same in plain text.
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = env
        .cmd(&["doctor", sub.to_str().unwrap()])
        .env("PATH", path)
        .env("REMOTE_CONTAINERS", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("[NO] Gemini CLI 0.61.0: Redline refused the token"),
        "{text}"
    );
    assert!(text.contains("fix (run): redline token rotate"), "{text}");
    assert!(text.contains("[ok] Qwen Code 0.24.4"), "{text}");
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn in_a_container_doctor_offers_a_container_enable_for_the_host_that_runs() {
    if !Path::new("/.dockerenv").exists() && !Path::new("/run/.containerenv").exists() {
        eprintln!("skipped: not in a container, so doctor offers no container fix");
        return;
    }
    let env = Env::new();
    let bin = fake_cli(&env, "gemini", "@google/gemini-cli", "0.61.0", ".gemini");
    let ws = env.ws();
    env.ok(&["workspace", "add", ws.to_str().unwrap()]);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    // No REMOTE_CONTAINERS: Gemini CLI here would look for Redline on the host.
    let out = env
        .cmd(&["doctor", "--json", ws.join("sub").to_str().unwrap()])
        .env("PATH", path)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdicts(&report)[0], ("gemini".into(), "container".into()));
    // Nothing run in this container would help: the fix says what to run on the host.
    let advice = fix_of(&report, "gemini");
    let fix = format!("redline container enable {}", ws.display());
    assert_eq!(
        advice,
        format!(
            "on the host, run `{fix}` (with the workspace's path there, if the container sees it \
             elsewhere)"
        )
    );
    // Run as offered (on the "host": this same machine, no instance, the same config). With no
    // bridge interface here it may ask for --address; it must not be a usage error (exit 2 is
    // any error now: a usage error is clap's, which prints the usage).
    let args: Vec<&str> = fix.split(' ').skip(1).collect();
    let out = env.run(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("required") && !err.contains("Usage:"),
        "{fix}: {err}"
    );
    let mut with_address = args.clone();
    with_address.extend(["--address", "127.0.0.2"]);
    env.ok(&with_address);
    let run_args = env.ok(&["container", "args", ws.to_str().unwrap()]);
    assert!(
        run_args.contains("host.docker.internal:127.0.0.2"),
        "{run_args}"
    );
}

#[test]
fn containers_are_configured_without_an_instance_and_picked_up_by_the_next_serve() {
    let e = Env::new();
    let ws = e.ws();
    let ws_str = ws.to_str().unwrap();
    e.ok(&["workspace", "add", ws_str]);
    let off = e.run(&["container", "args", ws_str]);
    assert_eq!(off.status.code(), Some(2));
    let said = String::from_utf8_lossy(&off.stderr);
    assert!(said.contains("containers are off"), "{said}");
    // The command it names runs as printed.
    assert!(
        said.contains(&format!("`redline container enable {ws_str}`")),
        "{said}"
    );
    let wild = e.run(&["container", "enable", ws_str, "--address", "0.0.0.0"]);
    assert_eq!(wild.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wild.stderr).contains("never 0.0.0.0"));
    e.ok(&["container", "enable", ws_str, "--address", "127.0.0.2"]);
    let sub = ws.join("sub");
    let args = e.ok(&[
        "container",
        "args",
        sub.to_str().unwrap(),
        "--path",
        "/workspace",
    ]);
    let lines: Vec<&str> = args.lines().collect();
    assert_eq!(lines[..2], ["--add-host", "host.docker.internal:127.0.0.2"]);
    assert_eq!(lines[lines.len() - 2..], ["-w", "/workspace"]);
    assert_eq!(
        lines[lines.len() - 4..lines.len() - 2],
        ["-e", "CLAUDE_CODE_IDE_HOST_OVERRIDE=host.docker.internal"]
    );
    assert!(lines[7].ends_with("/claude:/root/.claude/ide:ro"), "{args}");
    let json_args = e.json(&[
        "container",
        "args",
        ws_str,
        "--path",
        "/workspace",
        "--json",
    ]);
    assert_eq!(
        json_args["env"],
        json!([["CLAUDE_CODE_IDE_HOST_OVERRIDE", "host.docker.internal"]])
    );
    assert_eq!(json_args["mounts"][2]["target"], "/root/.claude/ide");
    assert_eq!(json_args["mounts"][2]["readOnly"], true);
    let gemini_src = lines[3].strip_suffix(":/tmp/gemini/ide:ro").unwrap();
    assert!(
        Path::new(gemini_src).is_dir(),
        "the mount source exists before docker run"
    );
    assert_eq!(mode(Path::new(gemini_src)), 0o700);
    let config: Value = serde_json::from_str(
        &std::fs::read_to_string(e.root.join("config/redline/config.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        config["workspaces"][0]["containers"],
        json!({"address": "127.0.0.2", "paths": ["/workspace"]})
    );

    let mut child = e.serve();
    let status = e.json(&["status", "--json"]);
    let w = &status["workspaces"][0];
    assert_eq!(w["containers"]["address"], "127.0.0.2");
    assert_eq!(w["containers"]["port"], w["port"]);
    let lock = Path::new(gemini_src)
        .parent()
        .unwrap()
        .join(format!("qwen/{}.lock", w["port"]));
    let lock: Value = serde_json::from_str(&std::fs::read_to_string(lock).unwrap()).unwrap();
    assert_eq!(lock["workspacePath"], "/workspace");
    let claude_lock = Path::new(gemini_src)
        .parent()
        .unwrap()
        .join(format!("claude/{}.lock", w["containers"]["wsPort"]));
    let claude_lock: Value =
        serde_json::from_str(&std::fs::read_to_string(claude_lock).unwrap()).unwrap();
    assert_eq!(claude_lock["workspaceFolders"], json!(["/workspace"]));
    assert_eq!(claude_lock.get("pid"), None);
    let text = e.ok(&["status"]);
    assert!(text.contains("containers      on  127.0.0.2:"), "{text}");
    assert!(
        text.contains(&format!(
            "containers ws   127.0.0.2:{} as host.docker.internal (Claude Code)",
            w["containers"]["wsPort"]
        )),
        "{text}"
    );
    e.ok(&["container", "disable", ws_str]);
    let status = e.json(&["status", "--json"]);
    assert_eq!(status["workspaces"][0]["containers"], Value::Null);
    e.ok(&["quit"]);
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read_dir(gemini_src).unwrap().count(), 0);
}

/// Runs `cmd`, failing the test if it does not finish within `deadline`.
fn output_within(mut cmd: Command, deadline: std::time::Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let end = std::time::Instant::now() + deadline;
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > end {
            let _ = child.kill();
            panic!("{cmd:?} did not finish within {deadline:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn an_idle_flood_at_the_descriptor_limit_leaves_status_and_the_server_answering() {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let deadline = std::time::Duration::from_secs(20);
    // This test itself holds 1,100 sockets.
    let mut own = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut own) };
    if own.rlim_max < 2048 {
        eprintln!("skipped: the hard descriptor limit is {}", own.rlim_max);
        return;
    }
    own.rlim_cur = own.rlim_max;
    unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &own) };

    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    // A desktop session's 1,024 descriptors, and no way to raise them.
    let mut cmd = env.cmd(&["serve", "--headless"]);
    cmd.stdout(Stdio::piped()).stderr(Stdio::null());
    unsafe {
        cmd.pre_exec(|| {
            let l = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &l) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "ready\n");
    let status = env.json(&["status", "--json"]);
    let port = status["workspaces"][0]["port"].as_u64().unwrap() as u16;
    let token = token_in(&status);

    let flood: Vec<_> = (0..1100)
        .filter_map(|_| std::net::TcpStream::connect(("127.0.0.1", port)).ok())
        .collect();
    assert!(flood.len() >= 1000, "only {} connected", flood.len());

    let out = output_within(env.cmd(&["status", "--json"]), deadline);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(deadline)).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    write!(
        s,
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nauthorization: Bearer {token}\r\nconnection: close\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "answer: {answer:?}");

    signal(&child, libc::SIGTERM);
    let end = std::time::Instant::now() + deadline;
    while child.try_wait().unwrap().is_none() {
        assert!(std::time::Instant::now() < end, "SIGTERM with a flood open");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(flood);
}

#[test]
fn the_log_is_plain_text_when_stderr_is_not_a_terminal() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut cmd = env.cmd(&["serve", "--headless"]);
    cmd.env("RUST_LOG", "info").stderr(Stdio::piped());
    let child = Env::until_ready(cmd);
    env.ok(&["quit"]);
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("listening on 127.0.0.1:"), "{log}");
    assert!(
        !log.contains('\x1b'),
        "colour escapes in a piped log: {log:?}"
    );
}

#[path = "cli/local_review.rs"]
mod local_review;

#[path = "cli/hook.rs"]
mod hook;

#[path = "cli/review_comments.rs"]
mod review_comments;

#[path = "cli/hooks_modes.rs"]
mod hooks_modes;

#[path = "cli/diff_edit.rs"]
mod diff_edit;

#[path = "cli/control_owner.rs"]
mod control_owner;

#[path = "cli/bridge.rs"]
mod bridge;

#[path = "cli/bridge_ssh.rs"]
mod bridge_ssh;

#[path = "cli/remote.rs"]
mod remote;

#[path = "cli/remote_ssh.rs"]
mod remote_ssh;

#[path = "cli/remote_install.rs"]
mod remote_install;

/// Whether `program` is on PATH (a test that needs it skips, or fails where CI requires it).
fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[path = "cli/manual.rs"]
mod manual;

#[cfg(all(feature = "desktop", target_os = "linux"))]
#[path = "cli/launch.rs"]
mod launch;

#[path = "cli/diff_paths.rs"]
mod diff_paths;

#[path = "cli/secret_service.rs"]
mod secret_service;

#[path = "cli/recipes.rs"]
mod recipes;

#[path = "cli/contract.rs"]
mod contract;

#[path = "cli/who_asked.rs"]
mod who_asked;

#[path = "cli/state.rs"]
mod state;

#[path = "cli/difftool.rs"]
mod difftool;

#[path = "cli/first_hour.rs"]
mod first_hour;

#[path = "cli/doctor_fixes.rs"]
mod doctor_fixes;

#[path = "cli/hooks_twice.rs"]
mod hooks_twice;

#[path = "cli/turns.rs"]
mod turns;

#[path = "cli/turns_proofs.rs"]
mod turns_proofs;

#[path = "cli/turns_opencode.rs"]
mod turns_opencode;
