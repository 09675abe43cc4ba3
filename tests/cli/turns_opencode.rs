//! opencode's turn modes through the real `redline` binary: `hooks install opencode --review
//! turn|both` writes Redline's one plugin for the mode (and `hooks status` reads it back), and
//! the inputs that plugin sends (`discovery/opencode_plugin.js`: `chat.message` as the turn's
//! start, `session.idle` as its end) checkpoint the turn, list it with every file, and answer a
//! Continue with the comments' message the plugin sends as the session's next prompt.

use super::local_review::{serving, stop, until_reviews};
use super::turns::{run_in, spawn_in, text};
use super::Env;
use serde_json::{json, Value};
use std::path::Path;

/// The plugin's input on `chat.message`: the session, opencode's folder, the user's words.
fn start_input(cwd: &Path, session: &str, prompt: &str) -> String {
    json!({ "sessionID": session, "cwd": cwd, "prompt": prompt }).to_string()
}

/// The plugin's input on `session.idle`.
fn idle_input(cwd: &Path, session: &str) -> String {
    json!({ "sessionID": session, "cwd": cwd }).to_string()
}

/// `redline hook opencode --turn-start`: exit 0 and nothing on standard output, whatever
/// happened; its standard error.
fn start(env: &Env, cwd: &Path, session: &str, prompt: &str) -> String {
    let input = start_input(cwd, session, prompt);
    let out = run_in(env, cwd, &["hook", "opencode", "--turn-start"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    text(&out.stderr)
}

/// `redline hook opencode --turn-review` run to its end: exit 0 and nothing on standard output
/// (the plugin sends a Continue's message itself); its standard error.
fn idle(env: &Env, cwd: &Path, session: &str) -> String {
    let input = idle_input(cwd, session);
    let out = run_in(env, cwd, &["hook", "opencode", "--turn-review"], &input);
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), "".into()));
    text(&out.stderr)
}

fn turns(env: &Env, ws: &Path) -> Vec<Value> {
    let list = env.json(&["turns", "list", ws.to_str().unwrap(), "--json"]);
    list.as_array().unwrap().clone()
}

#[test]
fn each_mode_is_one_plugin_read_back_by_hooks_status() {
    let env = Env::new();
    let file = env.root.join("config/opencode/plugin/redline.js");
    let status = |env: &Env| {
        let all = env.json(&["hooks", "status", "--json"]);
        let mine = all
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["cli"] == "opencode");
        mine.cloned().unwrap()
    };
    let out = env.ok(&["hooks", "install", "opencode", "--review", "turn"]);
    assert!(
        out.contains("chat.message: ") && out.contains("--turn-start"),
        "{out}"
    );
    assert!(
        out.contains("session.idle: ") && out.contains("--turn-review"),
        "{out}"
    );
    let turn = std::fs::read_to_string(&file).unwrap();
    assert!(turn.contains("\"chat.message\"") && turn.contains("session.idle"));
    assert!(turn.contains("const REVIEW = \"turn\";"), "{turn}");
    let s = status(&env);
    assert_eq!(
        (&s["review"], &s["current"], &s["turnReview"]),
        (&json!("turn"), &json!(true), &json!(true)),
        "{s}"
    );
    assert!(s["command"]
        .as_str()
        .unwrap()
        .ends_with(" hook opencode --record-only"));

    env.ok(&["hooks", "install", "opencode", "--review", "both"]);
    let s = status(&env);
    assert_eq!(
        (&s["review"], &s["current"]),
        (&json!("both"), &json!(true))
    );
    let again = env.ok(&["hooks", "install", "opencode", "--review", "both"]);
    assert!(again.contains("already in"), "{again}");

    // Back to the edit mode: the turn's hooks go, the plugin is the pre-edit one alone.
    env.ok(&["hooks", "install", "opencode"]);
    let edit = std::fs::read_to_string(&file).unwrap();
    assert!(
        !edit.contains("chat.message") && !edit.contains("REVIEW"),
        "{edit}"
    );
    let s = status(&env);
    assert_eq!(
        (&s["review"], &s["current"], &s["turnReview"]),
        (&json!("edit"), &json!(true), &json!(false))
    );
    env.ok(&["hooks", "uninstall", "opencode"]);
    assert!(!file.exists());
}

#[test]
fn the_plugins_turn_inputs_checkpoint_list_and_continue_with_the_comments_message() {
    let env = Env::new();
    let ws = env.ws();
    // No Redline: the prompt and the turn's end go on, each with one line saying why.
    assert!(start(&env, &ws, "ses_a", "tidy").contains("redline: Redline is not running"));
    assert!(idle(&env, &ws, "ses_a").starts_with("redline: Redline is not running"));

    let a = ws.join("a.txt");
    std::fs::write(&a, "one\ntwo\n").unwrap();
    let child = serving(&env);
    assert_eq!(start(&env, &ws, "ses_a", "tidy"), "");
    let running = turns(&env, &ws);
    assert_eq!(
        (
            &running[0]["cli"],
            &running[0]["session"],
            &running[0]["state"]
        ),
        (&json!("opencode"), &json!("ses_a"), &json!("running"))
    );

    // The turn's work: `write` (recorded in the turn mode, never asked), then a shell command.
    let write = json!({ "tool": "write", "sessionID": "ses_a", "callID": "c1", "cwd": ws,
        "args": { "filePath": a, "content": "one\nTWO\n" } });
    let out = run_in(
        &env,
        &ws,
        &["hook", "opencode", "--record-only"],
        &write.to_string(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"verdict\":\"pass\"}");
    std::fs::write(&a, "one\nTWO\n").unwrap();
    std::fs::write(ws.join("made.txt"), "made\n").unwrap();

    // The session goes idle: the plugin's hook waits for the review of the whole turn.
    let end = spawn_in(
        &env,
        &ws,
        &["hook", "opencode", "--turn-review"],
        &idle_input(&ws, "ses_a"),
    );
    let list = until_reviews(&env, |l| l.len() == 1);
    assert_eq!(list[0]["kind"], "turn", "{list:?}");
    let ended = turns(&env, &ws);
    let id = ended[0]["id"].as_u64().unwrap();
    assert_eq!(list[0]["turnId"], json!(id));
    assert_eq!(ended[0]["state"], "ended");
    let mut files: Vec<(&str, &str)> = (ended[0]["files"].as_array().unwrap().iter())
        .map(|f| (f["path"].as_str().unwrap(), f["status"].as_str().unwrap()))
        .collect();
    files.sort_unstable();
    assert_eq!(files, [("a.txt", "modified"), ("made.txt", "added")]);
    env.ok(&[
        "review",
        "continue",
        &list[0]["id"].to_string(),
        "--comment",
        "a.txt:2:keep it lower case",
        "--reason",
        "then stop",
    ]);
    let out = end.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let message = "Review comments on your changes:\n\n- a.txt:2\n  > TWO\n  keep it lower case\
                   \n\nthen stop";
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer, json!({ "decision": "block", "reason": message }));

    // The plugin sends that message as the session's next prompt: its `chat.message` goes on
    // with the turn the Continue began, which ends with nothing more changed and no review.
    assert_eq!(start(&env, &ws, "ses_a", message), "");
    idle(&env, &ws, "ses_a");
    let after = turns(&env, &ws);
    let shape: Vec<(u64, &str, usize)> = (after.iter())
        .map(|t| {
            let files = t["files"].as_array().unwrap().len();
            (
                t["id"].as_u64().unwrap(),
                t["state"].as_str().unwrap(),
                files,
            )
        })
        .collect();
    assert_eq!(shape, [(id + 1, "ended", 0), (id, "ended", 2)]);
    assert!(env
        .json(&["review", "list", "--json"])
        .as_array()
        .unwrap()
        .is_empty());
    stop(&env, child);
}
