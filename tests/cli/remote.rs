//! `redline remote`, the real binary on both ends: a desktop instance showing another instance's
//! reviews through a command's stdio (here `env … redline bridge`, as ssh would run it), deciding
//! them so that the far CLI gets exactly the accepted bytes or the reason, and the states a
//! failing command leaves (`redline remote list`).

use super::bridge::claude_write;
use super::local_review::serving;
use super::turns::{prompt, spawn_in, stop_input};
use super::Env;
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::process::{Child, Output};
use std::time::{Duration, Instant};

/// The argv that joins `far`'s instance: its own home, config and runtime dirs.
pub(super) fn far_bridge(far: &Env) -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_redline");
    let mut argv: Vec<String> = vec!["env".into(), "-i".into(), "PATH=/usr/bin:/bin".into()];
    for (k, d) in [
        ("HOME", "home"),
        ("TMPDIR", "tmp"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_RUNTIME_DIR", "run"),
    ] {
        argv.push(format!("{k}={}", far.root.join(d).display()));
    }
    argv.extend(["RUST_LOG=warn".into(), bin.into(), "bridge".into()]);
    argv
}

/// `redline remote add NAME -- ARGV…` on `desk`, its link up: what it said.
pub(super) fn add(desk: &Env, name: &str, argv: &[String]) -> String {
    let out = adding(desk, name, argv);
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `redline remote add NAME -- ARGV…` on `desk`, whatever its first link did.
pub(super) fn adding(desk: &Env, name: &str, argv: &[String]) -> Output {
    let mut args = vec!["remote", "add", name, "--"];
    args.extend(argv.iter().map(String::as_str));
    desk.run(&args)
}

/// `redline remote add NAME -- ARGV…` whose first link fails: exit 1, the remote kept; its
/// standard error.
pub(super) fn add_failing(desk: &Env, name: &str, argv: &[String]) -> String {
    let out = adding(desk, name, argv);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(
        said.starts_with(&format!("added {name}, but its link failed: ")),
        "{said}"
    );
    said
}

/// `desk`'s remote `name` once `ready` holds of it (`redline remote list --json`), polled: the
/// link's state is the instance's to change, on its own time.
pub(super) fn remote_when(desk: &Env, name: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let list = desk.json(&["remote", "list", "--json"]);
        let found = list.as_array().unwrap().iter().find(|r| r["name"] == name);
        if let Some(r) = found.filter(|r| ready(r)) {
            return r.clone();
        }
        assert!(
            Instant::now() < deadline,
            "remote {name} never got there: {list}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An instance a test started, killed if the test fails before it quits.
pub(super) struct Serving(pub std::process::Child);

impl Serving {
    /// Asked to quit, as a user would, and waited for.
    pub(super) fn quit(mut self, env: &Env) {
        env.ok(&["quit"]);
        self.0.wait().unwrap();
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The next review pending on `desk` (its summary), within 20 s.
pub(super) fn next_review(desk: &Env) -> Value {
    desk.json(&["review", "wait", "--timeout", "20"])
}

/// An action sent to `env`'s instance on its control socket, as the window would send it; the
/// reply line.
pub(super) fn action(env: &Env, call: Value) -> Value {
    let mut sock = UnixStream::connect(env.root.join("run/redline/control.sock")).unwrap();
    writeln!(sock, "{call}").unwrap();
    let mut line = String::new();
    BufReader::new(sock).read_line(&mut line).unwrap();
    serde_json::from_str(&line).unwrap()
}

/// Accepts review `id` on `desk` with `bytes` (through a file, as a user's edit); what the far
/// CLI's pre-edit `hook` answered (its `hookSpecificOutput`), which must let the edit through.
pub(super) fn accept_and_hear(desk: &Env, id: &str, bytes: &str, hook: Child) -> Value {
    let edited = desk.root.join(format!("edited-{id}"));
    std::fs::write(&edited, bytes).unwrap();
    let content = edited.to_str().unwrap();
    let said = desk.ok(&["review", "accept", id, "--content-file", content]);
    assert!(said.contains(&format!("accepted review {id}")), "{said}");
    let answer = hook_answer(&hook.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "allow", "{answer}");
    answer
}

fn hook_answer(out: &Output) -> Value {
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    answer["hookSpecificOutput"].clone()
}

#[test]
fn a_far_review_is_shown_labelled_and_its_accept_and_reject_reach_the_far_cli() {
    let far = Env::new();
    let far_server = Serving(serving(&far));
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    assert_eq!(
        add(&desk, "far", &far_bridge(&far)),
        "added far: connected\n"
    );

    // Claude Code on the far side proposes; the desktop lists it as the far machine's.
    let file = far.ws().join("a.txt");
    let hook = claude_write(&far, &file, "proposed\n");
    let review = next_review(&desk);
    assert_eq!(review["remote"], "far", "{review}");
    assert_eq!(review["filePath"], file.to_str().unwrap(), "{review}");
    let id = review["id"].as_u64().unwrap().to_string();
    let listed = desk.ok(&["review", "list"]);
    assert!(
        listed.contains(&format!("far:{}", file.display())),
        "{listed}"
    );
    // Its diff is of the texts it carries (its file is the far machine's, never read here).
    let diff = desk.ok(&["review", "show", &id]);
    assert!(diff.contains("+proposed"), "{diff}");

    // What would point this machine's CLIs at its path is refused (the path is the far
    // machine's); what asks about its file is asked there, and answered there.
    let n = review["id"].clone();
    // Its remote is reached by `env`, no ssh or wsl.exe: there is no way to open its file.
    let open = action(
        &desk,
        serde_json::json!({"cmd": "reviewOpenInEditor", "id": n, "line": 1}),
    );
    assert_eq!(open["error"]["code"], "usage", "{open}");
    assert!(
        open["error"]["message"]
            .as_str()
            .unwrap()
            .contains("through ssh or wsl.exe only"),
        "{open}"
    );
    for call in [
        serde_json::json!({"cmd": "reviewMention", "id": n, "lineStart": 1, "lineEnd": 1}),
        serde_json::json!({"cmd": "reviewSelect", "id": n, "selection": {"startLine": 0, "startCharacter": 0, "endLine": 0, "endCharacter": 1}}),
    ] {
        let answer = action(&desk, call.clone());
        assert_eq!(answer["error"]["code"], "on_remote", "{call}: {answer}");
    }
    let changed = action(
        &desk,
        serde_json::json!({"cmd": "reviewDiskChanged", "id": n}),
    );
    assert_eq!(
        changed["ok"], false,
        "the far file is as the review opened: {changed}"
    );
    std::fs::write(&file, "written meanwhile on the far side\n").unwrap();
    let changed = action(
        &desk,
        serde_json::json!({"cmd": "reviewDiskChanged", "id": n}),
    );
    assert_eq!(changed["ok"], true, "{changed}");
    std::fs::remove_file(&file).unwrap();
    let files = action(&desk, serde_json::json!({"cmd": "turnFiles", "id": n}));
    assert_eq!(
        files["error"]["code"], "not_whole_turn",
        "the far one's answer: {files}"
    );

    // Accepted here with the user's edits: the far CLI gets exactly these bytes.
    let bytes = "\u{feff}accepted; édité\r\nmixed\nend\r";
    let answer = accept_and_hear(&desk, &id, bytes, hook);
    assert_eq!(answer["updatedInput"]["content"], bytes);
    assert_eq!(desk.ok(&["review", "list"]).trim(), "no pending reviews");
    let r = remote_when(&desk, "far", |r| r["pending"] == 0);
    let last = r["lastDecision"].as_str().unwrap();
    assert!(last.contains("accepted on far"), "{r}");

    // Rejected with a reason: the far CLI is told it.
    let hook = claude_write(&far, &file, "again\n");
    let id = next_review(&desk)["id"].as_u64().unwrap().to_string();
    desk.ok(&[
        "review",
        "reject",
        &id,
        "--reason",
        "use the helper; $(not run)",
    ]);
    let answer = hook_answer(&hook.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "deny", "{answer}");
    let reason = answer["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("use the helper; $(not run)"), "{answer}");
    // Decided once: the same id again is no review.
    let again = desk.run(&["review", "accept", &id]);
    assert_eq!(again.status.code(), Some(2));

    desk.ok(&["remote", "remove", "far"]);
    assert_eq!(
        desk.json(&["remote", "list", "--json"]),
        serde_json::json!([])
    );
    desk_server.quit(&desk);
    far_server.quit(&far);
}

#[test]
fn a_far_review_ends_here_when_it_ends_there_and_goes_with_its_remote() {
    let far = Env::new();
    let far_server = Serving(serving(&far));
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    add(&desk, "far", &far_bridge(&far));
    let file = far.ws().join("b.txt");
    let mut hook = claude_write(&far, &file, "one\n");
    let id = next_review(&desk)["id"].as_u64().unwrap();
    // Decided on the far machine itself: it ends on the desktop too.
    let far_id = far.json(&["review", "wait", "--timeout", "20"])["id"].to_string();
    far.ok(&["review", "accept", &far_id]);
    hook.wait().unwrap();
    remote_when(&desk, "far", |r| r["pending"] == 0);
    let gone = desk.run(&["review", "accept", &id.to_string()]);
    assert_eq!(gone.status.code(), Some(2));

    // A review shown when its remote is removed: gone here, still waiting there.
    let hook = claude_write(&far, &file, "two\n");
    next_review(&desk);
    desk.ok(&["remote", "remove", "far"]);
    assert_eq!(desk.ok(&["review", "list"]).trim(), "no pending reviews");
    let there = far.json(&["review", "list", "--json"]);
    assert_eq!(there.as_array().unwrap().len(), 1, "{there}");
    let far_id = there[0]["id"].to_string();
    far.ok(&["review", "reject", &far_id]);
    hook.wait_with_output().unwrap();
    desk_server.quit(&desk);
    far_server.quit(&far);
}

#[test]
fn a_command_that_reaches_no_redline_is_failed_with_its_own_words() {
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    let said = add_failing(
        &desk,
        "nowhere",
        &["/nonexistent/redline".into(), "bridge".into()],
    );
    assert!(said.contains("could not be run"), "{said}");
    let says = [
        "sh",
        "-c",
        "echo 'ssh: connect to host devbox port 22: No route to host' >&2; exit 255",
    ];
    let said = add_failing(&desk, "devbox", &says.map(String::from));
    assert!(said.contains("No route to host"), "{said}");
    // Not a Redline at all: said so, not taken for one.
    let cat = ["sh", "-c", "echo '{\"kind\":\"ping\"}'; echo hi"];
    assert!(add_failing(&desk, "cat", &cat.map(String::from)).contains("no hello"));
    // No redline on the far side's PATH: said so, and how to put one there.
    let none = ["sh", "-c", "exec redline-nowhere-to-be-found bridge"];
    let said = add_failing(&desk, "bare", &none.map(String::from));
    assert!(
        said.contains("not found")
            && said.contains("~/.local/share/redline/bin")
            && said.contains("--install"),
        "{said}"
    );
    for name in ["nowhere", "devbox", "cat", "bare"] {
        let r = remote_when(&desk, name, |r| r["state"] == "failed");
        assert!(r["reason"].is_string(), "{r}");
    }
    let text = desk.ok(&["remote", "list"]);
    assert!(text.contains("devbox  failed  0 reviews  ("), "{text}");
    let status = desk.ok(&["status"]);
    assert!(status.contains("devbox  failed  0 reviews  ("), "{status}");
    let json = desk.json(&["status", "--json"]);
    assert_eq!(json["remotes"].as_array().unwrap().len(), 4, "{json}");
    desk_server.quit(&desk);
}

#[test]
fn names_and_shorthands_are_checked_and_a_remote_is_kept_with_no_instance_running() {
    let desk = Env::new();
    for bad in [
        vec!["remote", "add", "a;b", "--", "ssh", "x"],
        vec!["remote", "add", "$(id)", "--", "ssh", "x"],
        vec!["remote", "add", "ssh://-oProxyCommand=touch"],
        vec!["remote", "add", "ssh://h:0"],
        vec!["remote", "add", "dev"],
        vec!["remote", "add", "ssh://h", "--", "ssh", "h"],
    ] {
        let out = desk.run(&bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}: said why");
    }
    let said = desk.ok(&["remote", "add", "ssh://me@devbox:2222"]);
    assert!(
        said.contains("added devbox") && said.contains("next `redline serve`"),
        "{said}"
    );
    let config = std::fs::read_to_string(desk.root.join("config/redline/config.json")).unwrap();
    let config: Value = serde_json::from_str(&config).unwrap();
    let command = config["remotes"][0]["command"].as_array().unwrap();
    assert_eq!(command[0], "ssh");
    assert!(command.iter().any(|a| a == "BatchMode=yes"), "{config}");
    assert!(command.iter().any(|a| a == "me@devbox"), "{config}");
    // Listed by the instance that makes the links: none runs.
    assert_eq!(desk.run(&["remote", "list"]).status.code(), Some(3));
    desk.ok(&["remote", "remove", "devbox"]);
    let gone = desk.run(&["remote", "remove", "devbox"]);
    assert_eq!(gone.status.code(), Some(2));
}

/// A remote that says hello and lists `review`, then reads and never answers.
fn hostile(review: Value) -> Vec<String> {
    let hello = serde_json::json!({"kind": "hello", "protocol": 1, "redline": "0.1.0",
        "instance": "run1", "os": "linux", "arch": "x86_64"});
    let snapshot = serde_json::json!({"kind": "snapshot", "reviews": [review]});
    let script = format!("printf '%s\\n' '{hello}' '{snapshot}'; exec cat >/dev/null");
    vec!["sh".into(), "-c".into(), script]
}

#[test]
fn a_hostile_remote_s_labels_reach_no_terminal_and_an_unanswered_decision_says_so() {
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    let evil = "/ws/\u{1b}]0;pwned\u{7}\u{1b}[2Jx.rs";
    let review = serde_json::json!({
        "id": 7, "workspace": "/ws", "relativePath": "x.rs", "filePath": evil, "path": evil,
        "container": false, "client": {"name": "\u{1b}[31mclaude", "version": "1", "process": null},
        "newFile": false, "original": "a\n", "originalNotUtf8": false, "originalBinary": null,
        "proposal": "b\n", "current": "b\n", "added": 1, "removed": 1, "createdAt": 0,
        "updatedAt": 0, "revision": 1, "readOnly": null, "canMention": true,
        "reasonHeard": true, "kind": "edit", "turnId": null,
    });
    add(&desk, "evil", &hostile(review));
    let listed = next_review(&desk);
    assert_eq!(listed["remote"], "evil");
    assert_eq!(listed["filePath"], "/ws/]0;pwned[2Jx.rs", "{listed}");
    let text = desk.ok(&["review", "list"]);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    // The remote reads the decision and never answers: said as not in yet, not as done.
    let id = listed["id"].to_string();
    let out = desk.run(&["review", "accept", &id]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("has not answered yet") && said.contains("once or not at all"),
        "{said}"
    );
    let still = desk.json(&["review", "list", "--json"]);
    assert_eq!(still[0]["id"], listed["id"], "still pending here: {still}");
    desk_server.quit(&desk);
}

#[test]
fn a_far_turn_s_files_are_read_and_undone_there_and_done_here_ends_the_far_turn() {
    let far = Env::new();
    let ws = far.ws();
    let crlf = b"one\r\ntwo\r\n";
    std::fs::write(ws.join("crlf.txt"), crlf).unwrap();
    let far_server = Serving(serving(&far));
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    add(&desk, "far", &far_bridge(&far));
    remote_when(&desk, "far", |r| r["state"] == "connected");

    // A turn on the far side, its files changed by plain writes; its end waits for the desktop.
    assert_eq!(prompt(&far, &ws, "s1"), "");
    std::fs::write(ws.join("crlf.txt"), b"one\r\nTWO\r\n").unwrap();
    std::fs::write(ws.join("new.txt"), "made\n").unwrap();
    let end = spawn_in(
        &far,
        &ws,
        &["hook", "claude", "--turn-review"],
        &stop_input(&ws, "s1"),
    );
    let review = next_review(&desk);
    assert_eq!(
        (&review["kind"], &review["remote"]),
        (&serde_json::json!("turn"), &serde_json::json!("far")),
        "{review}"
    );
    assert!(review["turnId"].is_u64(), "{review}");
    let n = review["id"].clone();

    let listed = action(&desk, serde_json::json!({"cmd": "turnFiles", "id": n}));
    let mut paths: Vec<&str> = (listed["ok"]["files"].as_array().unwrap().iter())
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    paths.sort();
    assert_eq!(paths, ["crlf.txt", "new.txt"], "{listed}");
    let undo = serde_json::json!({"cmd": "turnUndo", "id": n, "picks": [{"path": "crlf.txt"}]});
    let undone = action(&desk, undo);
    assert_eq!(undone["ok"]["undo"], "done", "{undone}");
    assert_eq!(
        std::fs::read(ws.join("crlf.txt")).unwrap(),
        crlf,
        "undone there, byte for byte"
    );
    assert!(ws.join("new.txt").exists(), "only what was picked");

    desk.ok(&["review", "done", &n.to_string()]);
    let out = end.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    desk_server.quit(&desk);
    far_server.quit(&far);
}

#[test]
fn a_far_machine_s_workspaces_are_added_listed_and_removed_from_the_desktop() {
    let far = Env::new();
    let far_server = Serving(far.serve());
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    add(&desk, "far", &far_bridge(&far));
    remote_when(&desk, "far", |r| r["state"] == "connected");
    let ws = far.ws();
    let path = ws.to_str().unwrap();
    let said = desk.ok(&["remote", "workspace", "far", "add", path]);
    assert_eq!(said.trim(), format!("added {path} on far"));
    let theirs = far.json(&["workspace", "list", "--json"]);
    assert_eq!(
        theirs[0]["path"], path,
        "added on the far machine: {theirs}"
    );
    let listed = desk.json(&["remote", "workspace", "far", "list", "--json"]);
    assert_eq!(listed, theirs);
    // What the far machine refuses is said with its words and code.
    let out = desk.run(&["remote", "workspace", "far", "add", "/nonexistent/dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("far: "),
        "{out:?}"
    );
    desk.ok(&["remote", "workspace", "far", "remove", path]);
    assert_eq!(
        far.json(&["workspace", "list", "--json"]),
        serde_json::json!([])
    );
    // A remote that is not connected is said so.
    add_failing(&desk, "off", &["false".into()]);
    let out = desk.run(&["remote", "workspace", "off", "list"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("off is not connected"),
        "{out:?}"
    );
    desk_server.quit(&desk);
    far_server.quit(&far);
}

#[test]
fn two_remotes_at_once_each_review_labelled_and_answered_on_its_own_machine() {
    let (one, two) = (Env::new(), Env::new());
    let one_server = Serving(serving(&one));
    let two_server = Serving(serving(&two));
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    add(&desk, "one", &far_bridge(&one));
    add(&desk, "two", &far_bridge(&two));
    let first = claude_write(&one, &one.ws().join("same.txt"), "from one\n");
    let second = claude_write(&two, &two.ws().join("same.txt"), "from two\n");
    let deadline = Instant::now() + Duration::from_secs(30);
    let list = loop {
        let list = desk.json(&["review", "list", "--json"]);
        if list.as_array().unwrap().len() == 2 {
            break list;
        }
        assert!(Instant::now() < deadline, "{list}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let id_of = |remote: &str| {
        let r = list
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["remote"] == remote);
        r.unwrap_or_else(|| panic!("no review of {remote}: {list}"))["id"].to_string()
    };
    let (id_one, id_two) = (id_of("one"), id_of("two"));
    assert_ne!(id_one, id_two, "the desktop's own ids");
    desk.ok(&["review", "reject", &id_one, "--reason", "not this one"]);
    let answer = accept_and_hear(&desk, &id_two, "two's, accepted\n", second);
    assert_eq!(answer["updatedInput"]["content"], "two's, accepted\n");
    let denied = hook_answer(&first.wait_with_output().unwrap());
    assert_eq!(denied["permissionDecision"], "deny", "{denied}");
    desk_server.quit(&desk);
    one_server.quit(&one);
    two_server.quit(&two);
}

#[test]
fn a_decision_made_while_the_link_is_down_is_applied_once_when_it_is_back_and_said_so() {
    let far = Env::new();
    let far_server = Serving(serving(&far));
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    // The link's command: refused while `blocked` exists, else the bridge (its pid kept).
    let (blocked, pid) = (desk.root.join("blocked"), desk.root.join("bridge.pid"));
    let bridge: Vec<String> = far_bridge(&far);
    let script = format!(
        "[ -e '{}' ] && {{ echo 'link refused' >&2; exit 1; }}; echo $$ > '{}'; exec \"$@\"",
        blocked.display(),
        pid.display()
    );
    let mut command = vec!["sh".into(), "-c".into(), script, "sh".into()];
    command.extend(bridge);
    add(&desk, "far", &command);
    let file = far.ws().join("a.txt");
    let hook = claude_write(&far, &file, "proposed\n");
    let id = next_review(&desk)["id"].to_string();

    // The link drops and cannot come back: the accept is kept, said as not in yet.
    std::fs::write(&blocked, "").unwrap();
    let bridge_pid = std::fs::read_to_string(&pid).unwrap();
    let killed = std::process::Command::new("kill")
        .arg(bridge_pid.trim())
        .status()
        .unwrap();
    assert!(killed.success());
    remote_when(&desk, "far", |r| r["state"] == "failed");
    let edited = desk.root.join("edited");
    std::fs::write(&edited, "accepted while down\n").unwrap();
    let content = edited.to_str().unwrap();
    let out = desk.run(&["review", "accept", &id, "--content-file", content]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("has not answered yet"),
        "{out:?}"
    );

    // Back: the kept accept is sent on the new link and applied there, once.
    std::fs::remove_file(&blocked).unwrap();
    let r = remote_when(&desk, "far", |r| {
        r["pending"] == 0 && r["state"] == "connected"
    });
    assert!(
        r["lastDecision"]
            .as_str()
            .unwrap()
            .contains("accepted on far"),
        "{r}"
    );
    let answer = hook_answer(&hook.wait_with_output().unwrap());
    assert_eq!(
        answer["updatedInput"]["content"], "accepted while down\n",
        "{answer}"
    );
    assert_eq!(
        far.json(&["review", "list", "--json"]),
        serde_json::json!([])
    );
    desk_server.quit(&desk);
    far_server.quit(&far);
}
