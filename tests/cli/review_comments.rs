//! `redline review reject|continue|done` with `--comment PATH:LINE:TEXT`: the real binary, a
//! real instance, reviews opened by Claude Code's hooks, and the message its model reads.

use super::local_review::{serving, stop, until_reviews};
use super::Env;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Output, Stdio};

/// Starts `redline hook claude ARGS` with `stdin` written and closed, as Claude Code runs it.
fn hook(env: &Env, args: &[&str], stdin: &str) -> Child {
    let mut all = vec!["hook", "claude"];
    all.extend_from_slice(args);
    let mut child = env
        .cmd(&all)
        .current_dir(env.ws())
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

fn write_input(cwd: &Path, file: &Path, content: &str) -> String {
    json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": { "file_path": file, "content": content },
    })
    .to_string()
}

fn stop_input(cwd: &Path, again: bool) -> String {
    json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "Stop", "stop_hook_active": again,
    })
    .to_string()
}

/// What the hook printed, from a run that exited 0.
fn answer(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `redline ARGS` refused: exit 2, its one line on stderr.
fn refused(env: &Env, args: &[&str]) -> String {
    let out = env.run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    err
}

#[test]
fn an_edits_reject_carries_comments_on_odd_names_and_bad_ones_leave_it_pending() {
    let env = Env::new();
    let ws = env.ws();
    std::fs::create_dir_all(ws.join("dir a")).unwrap();
    // A name with a space, a ';' and a ':3:' that looks like a line.
    let file = ws.join("dir a/b;c:3:d.txt");
    std::fs::write(&file, "one\ntwo\nthree\n").unwrap();
    let child = serving(&env);
    let running = hook(&env, &[], &write_input(&ws, &file, "one\nTWO\nthree\n"));
    let list = until_reviews(&env, |l| l.len() == 1);
    let id = list[0]["id"].as_u64().unwrap().to_string();

    // Not a turn's review: continue and done say what answers it instead.
    let err = refused(&env, &["review", "continue", &id, "--reason", "go on"]);
    assert!(
        err.contains(&format!("redline review reject {id}")),
        "{err}"
    );
    let err = refused(&env, &["review", "done", &id]);
    assert!(
        err.contains(&format!("redline review accept {id}")),
        "{err}"
    );
    // A line past the end, a file outside, no line: refused, the review stays.
    let past = "dir a/b;c:3:d.txt:4:no such line";
    let err = refused(&env, &["review", "reject", &id, "--comment", past]);
    assert!(err.contains("has 3 lines: line 4 is past its end"), "{err}");
    let err = refused(
        &env,
        &["review", "reject", &id, "--comment", "/etc/passwd:1:x"],
    );
    assert!(
        err.contains("/etc/passwd") && err.contains("outside"),
        "{err}"
    );
    refused(&env, &["review", "reject", &id, "--comment", "b.txt:x:y"]);
    until_reviews(&env, |l| l.len() == 1);

    let absolute = format!("{}:3:and: this", file.display());
    let out = env.ok(&[
        "review",
        "reject",
        &id,
        "--comment",
        "dir a/b;c:3:d.txt:2:keep: lowercase",
        "--comment",
        &absolute,
        "--reason",
        "then run the tests",
    ]);
    assert_eq!(out, format!("rejected review {id}\n"));
    let v = answer(&running.wait_with_output().unwrap());
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecisionReason"],
        "Review comments on your changes:\n\n- dir a/b;c:3:d.txt:2\n  > two\n  keep: lowercase\
         \n\n- dir a/b;c:3:d.txt:3\n  > three\n  and: this\n\nthen run the tests"
    );
    stop(&env, child);
}

/// One edit of the turn, accepted; the CLI then writes it, as it would.
fn edit_accepted(env: &Env, file: &Path, after: &str) {
    let running = hook(
        env,
        &["--record-turn"],
        &write_input(&env.ws(), file, after),
    );
    let list = until_reviews(env, |l| l.len() == 1);
    env.ok(&[
        "review",
        "accept",
        &list[0]["id"].as_u64().unwrap().to_string(),
    ]);
    assert_eq!(running.wait_with_output().unwrap().status.code(), Some(0));
    std::fs::write(file, after).unwrap();
}

#[test]
fn a_turns_review_continues_with_comments_and_words_and_done_ends_it() {
    let env = Env::new();
    let ws = env.ws();
    let a = ws.join("a.py");
    std::fs::write(&a, "x = 1\n").unwrap();
    let child = serving(&env);
    edit_accepted(&env, &a, "x = 2\ny = 3\n");

    let running = hook(&env, &["--turn-review"], &stop_input(&ws, false));
    let list = until_reviews(&env, |l| l.len() == 1);
    assert_eq!(list[0]["kind"], "turn");
    let id = list[0]["id"].as_u64().unwrap().to_string();
    let out = env.ok(&[
        "review",
        "continue",
        &id,
        "--comment",
        "a.py:2:name it count",
        "--reason",
        "add a test",
    ]);
    assert_eq!(out, format!("continued review {id}\n"));
    let v = answer(&running.wait_with_output().unwrap());
    assert_eq!(
        v,
        json!({ "decision": "block", "reason":
            "Review comments on your changes:\n\n- a.py:2\n  > y = 3\n  name it count\n\nadd a test" })
    );

    // The model goes on; Done ends the turn with nothing said.
    edit_accepted(&env, &a, "x = 2\ncount = 3\n");
    let running = hook(&env, &["--turn-review"], &stop_input(&ws, true));
    let list = until_reviews(&env, |l| l.len() == 1);
    let id = list[0]["id"].as_u64().unwrap().to_string();
    assert_eq!(
        env.ok(&["review", "done", &id]),
        format!("done: review {id}\n")
    );
    let out = running.wait_with_output().unwrap();
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    stop(&env, child);
}
