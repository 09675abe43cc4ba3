//! `redline bridge`, the real binary: a desktop's link to this machine's instance over the
//! command's stdin and stdout (as `ssh HOST redline bridge` runs it), a CLI's review seen and
//! decided through it, and a clear line when no instance runs.

use super::local_review::{serving, stop};
use super::Env;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Stdio};

fn line(out: &mut BufReader<ChildStdout>) -> Value {
    loop {
        let mut l = String::new();
        assert!(out.read_line(&mut l).unwrap() > 0, "the bridge closed");
        let v: Value = serde_json::from_str(&l).unwrap();
        if v["kind"] != "ping" {
            return v;
        }
    }
}

/// Claude Code's pre-edit hook in `env`'s workspace, proposing `content` for `file`.
pub(super) fn claude_write(env: &Env, file: &Path, content: &str) -> Child {
    let input = json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": env.ws(),
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": file, "content": content},
    });
    let mut hook = env
        .cmd(&["hook", "claude"])
        .current_dir(env.ws())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = hook.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).unwrap();
    hook
}

fn say(to: &mut impl Write, v: Value) {
    writeln!(to, "{v}").unwrap();
    to.flush().unwrap();
}

#[test]
fn a_cli_s_review_is_decided_through_the_bridge_and_the_cli_gets_the_accepted_bytes() {
    let env = Env::new();
    let server = serving(&env);
    let mut bridge = env
        .cmd(&["bridge"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = bridge.stdin.take().unwrap();
    let mut from = BufReader::new(bridge.stdout.take().unwrap());
    let hello = line(&mut from);
    assert_eq!(
        (&hello["kind"], &hello["protocol"]),
        (&json!("hello"), &json!(1)),
        "{hello}"
    );
    say(
        &mut to,
        json!({"kind": "hello", "protocol": 1, "redline": "desk", "instance": "d", "os": "linux", "arch": "x86_64"}),
    );
    assert_eq!(line(&mut from), json!({"kind": "snapshot", "reviews": []}));

    // Claude Code's pre-edit hook asks; the desktop sees it and accepts with its own edit.
    let file = env.ws().join("a.txt");
    let hook = claude_write(&env, &file, "proposed\n");
    let added = line(&mut from);
    assert_eq!(added["kind"], "added", "{added}");
    let id = added["review"]["id"].clone();
    let accepted = "proposed; édité\r\n";
    say(
        &mut to,
        json!({"kind": "decide", "decision": "d:1", "instance": hello["instance"],
        "call": {"cmd": "reviewAccept", "id": id, "content": accepted}}),
    );
    let mut heard = [line(&mut from), line(&mut from)];
    heard.sort_by_key(|v| v["kind"].as_str().unwrap_or_default().to_owned());
    assert_eq!(
        heard[0],
        json!({"kind": "decided", "decision": "d:1", "result": "applied"})
    );
    assert_eq!(
        heard[1]["resolved"],
        json!({"id": id, "outcome": "accepted"})
    );
    let out = hook.wait_with_output().unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow", "{answer}");
    assert_eq!(specific["updatedInput"]["content"], accepted, "{answer}");

    // The desktop ends the link: the bridge exits, the instance serves on.
    drop(to);
    assert!(bridge.wait().unwrap().success());
    stop(&env, server);
}

#[test]
fn with_no_instance_the_desktop_reads_why_and_the_bridge_fails() {
    let env = Env::new();
    let out = env.cmd(&["bridge"]).stdin(Stdio::null()).output().unwrap();
    // 3: no instance runs, as for every command that needs one.
    assert_eq!(out.status.code(), Some(3));
    let bye: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(bye["kind"], "bye", "{bye}");
    assert!(
        bye["why"]
            .as_str()
            .unwrap()
            .contains("`redline serve --headless`"),
        "{bye}"
    );
}

#[test]
fn with_start_an_instance_is_started_for_the_link_and_serves_after_it() {
    let env = Env::new();
    let mut bridge = env
        .cmd(&["bridge", "--start"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let to = bridge.stdin.take().unwrap();
    let mut from = BufReader::new(bridge.stdout.take().unwrap());
    assert_eq!(line(&mut from)["kind"], "hello");
    drop(to);
    assert!(bridge.wait().unwrap().success());
    // The instance it started serves on for the next link and the CLIs, until asked to quit.
    let status: Value = serde_json::from_str(&env.ok(&["status", "--json"])).unwrap();
    assert!(status["pid"].as_u64().is_some(), "{status}");
    env.ok(&["quit"]);
}
