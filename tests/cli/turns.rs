//! `redline turns` end to end: a turn begun by the prompt hook (`redline hook CLI
//! --turn-start`) and ended by the end-of-turn hook, its files changed by plain writes as a
//! shell command would, then listed, shown and undone against a real workspace and the real git.

use super::local_review::{serving, stop, until_reviews};
use super::Env;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Output, Stdio};

/// Runs `redline ARGS` in `dir` with `stdin` written and closed, as a CLI runs its hook.
pub(super) fn run_in(env: &Env, dir: &Path, args: &[&str], stdin: &str) -> Output {
    spawn_in(env, dir, args, stdin).wait_with_output().unwrap()
}

/// As `run_in`, not waiting for it.
pub(super) fn spawn_in(env: &Env, dir: &Path, args: &[&str], stdin: &str) -> Child {
    let mut child = env
        .cmd(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    child
}

/// Claude Code's `UserPromptSubmit` input.
fn prompt_input(cwd: &Path, session: &str) -> String {
    json!({
        "session_id": session, "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "UserPromptSubmit", "permission_mode": "default",
        "prompt": "tidy the files",
    })
    .to_string()
}

/// Claude Code's `Stop` input (`again`: after a Continue).
fn stop_input_again(cwd: &Path, session: &str, again: bool) -> String {
    json!({
        "session_id": session, "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "Stop", "stop_hook_active": again,
    })
    .to_string()
}

pub(super) fn stop_input(cwd: &Path, session: &str) -> String {
    stop_input_again(cwd, session, false)
}

/// The checkpointed turn's end is one review of the whole turn (every file, whatever tool made
/// it): answered Done, so the end-of-turn hook ends.
fn done_with_the_whole_turn(env: &Env) {
    let list = until_reviews(env, |l| l.len() == 1);
    assert_eq!(list[0]["kind"], "turn", "{list:?}");
    assert!(list[0]["turnId"].is_u64(), "{list:?}");
    env.ok(&["review", "accept", &list[0]["id"].to_string()]);
}

pub(super) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The prompt hook's answer: exit 0 and nothing on standard output, whatever happened (the CLI
/// would add standard output to the prompt); its standard error.
pub(super) fn prompt(env: &Env, cwd: &Path, session: &str) -> String {
    let out = run_in(
        env,
        cwd,
        &["hook", "claude", "--turn-start"],
        &prompt_input(cwd, session),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    text(&out.stderr)
}

const CRLF: &[u8] = b"one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n";
const CRLF_AFTER: &[u8] = b"one\r\nTWO\r\nthree\r\nfour\r\nFIVE\r\n";
/// CRLF_AFTER with its first hunk (line 2) undone.
const CRLF_HALF: &[u8] = b"one\r\ntwo\r\nthree\r\nfour\r\nFIVE\r\n";

#[test]
fn a_turn_from_the_prompt_hook_lists_every_file_and_undo_gives_back_exact_bytes() {
    let env = Env::new();
    let ws = env.ws();
    std::fs::write(ws.join("crlf.txt"), CRLF).unwrap();
    std::fs::write(ws.join("gone.txt"), "bye\n").unwrap();
    std::fs::write(ws.join("kept.txt"), "same\n").unwrap();
    let child = serving(&env);

    assert_eq!(prompt(&env, &ws, "s1"), "");
    // The turn's work, by plain writes: no edit tool, no pre-edit hook.
    std::fs::write(ws.join("crlf.txt"), CRLF_AFTER).unwrap();
    std::fs::write(ws.join("new.txt"), "made\n").unwrap();
    std::fs::remove_file(ws.join("gone.txt")).unwrap();
    let end = spawn_in(
        &env,
        &ws,
        &["hook", "claude", "--turn-review"],
        &stop_input(&ws, "s1"),
    );
    done_with_the_whole_turn(&env);
    let out = end.wait_with_output().unwrap();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), "".into()));

    let list: Value = serde_json::from_slice(
        &run_in(&env, &ws.join("sub"), &["turns", "list", "--json"], "").stdout,
    )
    .unwrap();
    let turn = &list.as_array().unwrap()[0];
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(
        (&turn["cli"], &turn["session"], &turn["state"]),
        (&json!("claude"), &json!("s1"), &json!("ended"))
    );
    let mut files: Vec<(String, String)> = turn["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().into(),
                f["status"].as_str().unwrap().into(),
            )
        })
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            ("crlf.txt".into(), "modified".into()),
            ("gone.txt".into(), "deleted".into()),
            ("new.txt".into(), "added".into())
        ]
    );
    let id = turn["id"].as_u64().unwrap().to_string();

    let shown = env.ok(&["turns", "list", ws.to_str().unwrap()]);
    assert!(
        shown.contains("claude session s1") && shown.contains("A new.txt  +1 −0"),
        "{shown}"
    );
    let diff = text(&run_in(&env, &ws, &["turns", "show", &id, "crlf.txt"], "").stdout);
    assert!(
        diff.starts_with("diff --git a/crlf.txt b/crlf.txt") && diff.contains("+TWO\r\n"),
        "{diff}"
    );
    assert!(!diff.contains("new.txt"), "{diff}");

    // One hunk of the CRLF file: its bytes as they were, the other hunk left.
    let out = run_in(&env, &ws, &["turns", "undo", &id, "crlf.txt:2"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(ws.join("crlf.txt")).unwrap(), CRLF_HALF);

    // A file changed since the turn: refused, named, nothing written.
    std::fs::write(ws.join("new.txt"), "mine now\n").unwrap();
    let out = run_in(
        &env,
        &ws,
        &["turns", "undo", &id, "gone.txt", "new.txt"],
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("new.txt"),
        "{}",
        text(&out.stderr)
    );
    assert!(!ws.join("gone.txt").exists());
    assert_eq!(std::fs::read(ws.join("new.txt")).unwrap(), b"mine now\n");

    // As the turn left it again: both undone, the deleted file back byte for byte.
    std::fs::write(ws.join("new.txt"), "made\n").unwrap();
    let out = run_in(
        &env,
        &ws,
        &["turns", "undo", &id, "gone.txt", "new.txt"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(ws.join("gone.txt")).unwrap(), b"bye\n");
    assert!(!ws.join("new.txt").exists());
    assert_eq!(std::fs::read(ws.join("kept.txt")).unwrap(), b"same\n");

    // No such turn, no such hunk: errors (2), nothing written.
    let out = run_in(&env, &ws, &["turns", "show", "99"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = run_in(&env, &ws, &["turns", "undo", &id, "crlf.txt:3"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(ws.join("crlf.txt")).unwrap(), CRLF_HALF);

    let made = env.ok(&["turns", "checkpoint", ws.to_str().unwrap()]);
    assert!(
        made.starts_with("checkpoint ") && made.contains(ws.to_str().unwrap()),
        "{made}"
    );
    // Nothing of the store is in the workspace.
    assert!(!ws.join(".git").exists());
    stop(&env, child);
}

#[test]
fn the_prompt_hook_never_holds_the_prompt_up() {
    let env = Env::new();
    let ws = env.ws();
    // No Redline: the prompt goes on, and the terminal is told.
    assert!(prompt(&env, &ws, "s").contains("not running"));
    let child = serving(&env);
    // A folder in no workspace: the same.
    let outside = ws.parent().unwrap().join("tmp");
    assert!(prompt(&env, &outside, "s").contains("not checkpointed"));
    // Input that is not the prompt hook's.
    let out = run_in(&env, &ws, &["hook", "claude", "--turn-start"], "{\"x\":1}");
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), "".into()));
    assert!(
        text(&out.stderr).contains("UserPromptSubmit"),
        "{}",
        text(&out.stderr)
    );
    // A turn begun and never ended is listed as running, with no files yet.
    assert_eq!(prompt(&env, &ws, "s"), "");
    let list: Value =
        serde_json::from_str(&env.ok(&["turns", "list", ws.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(list[0]["state"], "running");
    assert_eq!(list[0]["files"], json!([]));
    let out = run_in(&env, &ws, &["turns", "undo", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not ended"),
        "{}",
        text(&out.stderr)
    );
    stop(&env, child);
}

/// The files of `turn` (one of `turns list --json`), by path.
fn paths(turn: &Value) -> Vec<&str> {
    let mut p: Vec<&str> = turn["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    p.sort_unstable();
    p
}

#[test]
fn after_a_continue_the_models_further_work_is_a_turn_of_its_own() {
    let env = Env::new();
    let ws = env.ws();
    let a = ws.join("a.py");
    std::fs::write(&a, "x = 1\n").unwrap();
    let child = serving(&env);
    assert_eq!(prompt(&env, &ws, "s"), "");

    // An edit through Claude Code's edit tool, recorded for the turn's review and accepted.
    let edit = json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": ws,
        "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": { "file_path": a, "old_string": "x = 1", "new_string": "x = 2" },
    });
    let pre = spawn_in(
        &env,
        &ws,
        &["hook", "claude", "--record-turn"],
        &edit.to_string(),
    );
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "accept", &list[0]["id"].to_string()]);
    assert_eq!(pre.wait_with_output().unwrap().status.code(), Some(0));
    std::fs::write(&a, "x = 2\n").unwrap();

    // Its end: the review says Continue.
    let end = spawn_in(
        &env,
        &ws,
        &["hook", "claude", "--turn-review"],
        &stop_input(&ws, "s"),
    );
    let list = until_reviews(&env, |l| l.len() == 1);
    let id = list[0]["id"].to_string();
    env.ok(&["review", "reject", &id, "--reason", "add b too"]);
    let out = end.wait_with_output().unwrap();
    assert!(
        text(&out.stdout).contains("add b too"),
        "{}",
        text(&out.stdout)
    );

    // The model goes on with no prompt of its own: that work is the next turn.
    std::fs::write(ws.join("b.py"), "b = 1\n").unwrap();
    let again = stop_input_again(&ws, "s", true);
    let end = spawn_in(&env, &ws, &["hook", "claude", "--turn-review"], &again);
    done_with_the_whole_turn(&env);
    let out = end.wait_with_output().unwrap();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), "".into()));

    let list: Value =
        serde_json::from_str(&env.ok(&["turns", "list", ws.to_str().unwrap(), "--json"])).unwrap();
    let turns = list.as_array().unwrap();
    assert_eq!(turns.len(), 2, "{list}");
    assert!(turns.iter().all(|t| t["state"] == "ended"), "{list}");
    assert_eq!(
        (paths(&turns[0]), paths(&turns[1])),
        (vec!["b.py"], vec!["a.py"])
    );
    assert!(turns[0]["id"].as_u64() > turns[1]["id"].as_u64());
    stop(&env, child);
}

/// Qwen Code's `UserPromptSubmit` input: it runs the hook before each request to the model,
/// under the id of the user's prompt the request is for (`createBaseInput`'s `prompt_id`).
fn qwen_prompt(env: &Env, ws: &Path, prompt: &str, prompt_id: &str) {
    let input = json!({
        "session_id": "q", "transcript_path": "/dev/null", "cwd": ws,
        "hook_event_name": "UserPromptSubmit", "timestamp": "2026-11-30T01:00:00.000Z",
        "permission_mode": "yolo", "prompt_id": prompt_id, "prompt": prompt,
    });
    let out = run_in(
        env,
        ws,
        &["hook", "qwen", "--turn-start"],
        &input.to_string(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn words_typed_while_qwen_works_go_on_with_its_turn_and_the_next_prompt_begins_one() {
    let env = Env::new();
    let ws = env.ws();
    let child = serving(&env);
    let turns = || -> Value {
        serde_json::from_str(&env.ok(&["turns", "list", ws.to_str().unwrap(), "--json"])).unwrap()
    };
    qwen_prompt(&env, &ws, "tidy the files", "q########1");
    std::fs::write(ws.join("a.txt"), "one\n").unwrap();
    // Mid-turn steering: the user's words on a tool's result, under the same prompt's id.
    qwen_prompt(&env, &ws, "and keep the tests", "q########1");
    let list = turns();
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list[0]["state"], "running", "{list}");
    // The user's next prompt (an Esc before it: no Stop came) ends that turn and begins one.
    std::fs::write(ws.join("b.txt"), "two\n").unwrap();
    qwen_prompt(&env, &ws, "now the docs", "q########2");
    let list = turns();
    let states: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["state"].clone())
        .collect();
    assert_eq!(states, ["running", "ended"], "{list}");
    assert_eq!(paths(&list[1]), ["a.txt", "b.txt"], "{list}");
    stop(&env, child);
}
