//! `redline propose` and `redline diff` end to end: the real binary, a real instance, its real
//! control socket, decided with `redline review accept/reject` as a script would.

use super::Env;
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Runs `script` with `sh`, `redline` on its PATH and the env's directories, in `dir`.
fn sh(env: &Env, dir: &Path, script: &str) -> String {
    let bin_dir = Path::new(super::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // The same world as every `redline` the test runs.
    let redline = env.cmd(&[]);
    let mut cmd = std::process::Command::new("sh");
    cmd.args(["-eu", "-c", script]).env_clear();
    for (k, v) in redline.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    let out = cmd.env("PATH", path).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "script failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Waits, up to a deadline, until `redline review list --json` satisfies `done`.
pub(super) fn until_reviews(env: &Env, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let list = env.json(&["review", "list", "--json"]);
        let list = list.as_array().unwrap().clone();
        if done(&list) {
            return list;
        }
        assert!(
            Instant::now() < deadline,
            "reviews never became right: {list:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub(super) fn serving(env: &Env) -> Child {
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    env.serve()
}

pub(super) fn stop(env: &Env, mut child: Child) {
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn propose_round_trips_accept_with_edits_and_reject_from_a_shell_script() {
    let env = Env::new();
    let file = env.ws().join("notes.txt");
    std::fs::write(&file, "before\n").unwrap();
    let child = serving(&env);
    let script = r#"
        printf 'proposed\n' > proposal
        redline propose "$FILE" --content-file proposal --wait --json > accept.json &
        pid=$!
        id=$(redline review wait --file "$FILE" --timeout 20 | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
        printf 'proposed, then edited\n' > edited
        redline review accept "$id" --content-file edited
        status=0; wait $pid || status=$?
        echo "accept exit $status"
        printf 'again\n' | redline propose "$FILE" - --wait > reject.out 2> reject.err &
        pid=$!
        id=$(redline review wait --file "$FILE" --timeout 20 | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
        redline review reject "$id"
        status=0; wait $pid || status=$?
        echo "reject exit $status"
    "#;
    let dir = env.root.join("tmp");
    let script = format!("FILE='{}'\n{script}", file.display());
    let out = sh(&env, &dir, &script);
    assert_eq!(
        out,
        "accepted review 1\naccept exit 0\nrejected review 2\nreject exit 1\n"
    );
    let accepted: Value =
        serde_json::from_slice(&std::fs::read(dir.join("accept.json")).unwrap()).unwrap();
    assert_eq!(
        accepted,
        serde_json::json!({"decision": "accepted", "content": "proposed, then edited\n"})
    );
    assert_eq!(std::fs::read_to_string(dir.join("reject.out")).unwrap(), "");
    let err = std::fs::read_to_string(dir.join("reject.err")).unwrap();
    assert!(err.contains("rejected"), "{err}");
    // Redline never writes the file itself.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "before\n");
    stop(&env, child);
}

/// `redline review reject --reason` reaches a waiting `redline propose`, which prints it; a
/// proposal nobody waits on says the reason went nowhere.
#[test]
fn a_reason_given_to_review_reject_is_printed_by_the_waiting_propose() {
    let env = Env::new();
    let file = env.ws().join("notes.txt");
    std::fs::write(&file, "before\n").unwrap();
    let child = serving(&env);
    let script = r#"
        printf 'again\n' | redline propose "$FILE" - --wait > plain.out 2> plain.err &
        pid=$!
        id=$(redline review wait --file "$FILE" --timeout 20 | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
        redline review list --json > list.json
        redline review reject "$id" --reason "$(printf '  keep the old name;\nrename in a later change ')"
        status=0; wait $pid || status=$?
        echo "plain exit $status"
        printf 'again\n' | redline propose "$FILE" - --wait --json > json.out &
        pid=$!
        id=$(redline review wait --file "$FILE" --timeout 20 | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
        redline review reject "$id" --reason 'use tabs'
        status=0; wait $pid || status=$?
        echo "json exit $status"
        printf 'shown\n' | redline propose "$FILE" - > /dev/null
        id=$(redline review wait --file "$FILE" --timeout 20 | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
        status=0
        redline review reject "$id" --reason "$(head -c 2400 /dev/zero | tr '\0' x)" 2> long.err || status=$?
        echo "too long exit $status"
        redline review reject "$id" --reason 'nobody hears this'
    "#;
    let dir = env.root.join("tmp");
    let script = format!("FILE='{}'\n{script}", file.display());
    let out = sh(&env, &dir, &script);
    assert_eq!(
        out,
        "rejected review 1\nplain exit 1\nrejected review 2\njson exit 1\ntoo long exit 2\n\
         rejected review 3 (nobody is waiting for its decision: the reason was not sent; \
         `redline propose --wait` hears one)\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("long.err")).unwrap(),
        "redline: the reason is 2400 characters long; at most 2000 are passed on: shorten it\n"
    );
    let list: Value =
        serde_json::from_slice(&std::fs::read(dir.join("list.json")).unwrap()).unwrap();
    assert_eq!(list[0]["reasonHeard"], true, "{list}");
    assert_eq!(std::fs::read_to_string(dir.join("plain.out")).unwrap(), "");
    assert_eq!(
        std::fs::read_to_string(dir.join("plain.err")).unwrap(),
        "redline: rejected: keep the old name;\nrename in a later change\n"
    );
    let json: Value =
        serde_json::from_slice(&std::fs::read(dir.join("json.out")).unwrap()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"decision": "rejected", "content": null, "reason": "use tabs"})
    );
    stop(&env, child);
}

#[test]
fn propose_prints_the_final_text_and_names_who_asked() {
    let env = Env::new();
    let file = env.ws().join("new.rs");
    let child = serving(&env);
    let content = env.root.join("tmp/content");
    std::fs::write(&content, "fn main() {}\n").unwrap();
    let proposer = env
        .cmd(&["propose", file.to_str().unwrap(), "--content-file"])
        .arg(&content)
        .arg("--wait")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let list = until_reviews(&env, |l| l.len() == 1);
    let review = &list[0];
    assert_eq!(review["newFile"], true);
    assert_eq!(review["client"]["name"], "redline propose");
    // The caller of `redline propose`: this test process.
    assert_eq!(review["client"]["process"]["pid"], std::process::id());
    env.ok(&["review", "accept", &review["id"].to_string()]);
    let out = proposer.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "fn main() {}\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("accepted"));
    assert!(!file.exists(), "never written by Redline");
    stop(&env, child);
}

#[test]
fn propose_outside_every_workspace_or_oversize_is_refused_and_opens_nothing() {
    let env = Env::new();
    let child = serving(&env);
    let outside = env.root.join("home/elsewhere.txt");
    let content = env.root.join("tmp/content");
    std::fs::write(&content, "x\n").unwrap();
    let out = env
        .cmd(&["propose", outside.to_str().unwrap(), "--content-file"])
        .arg(&content)
        .arg("--wait")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no enabled workspace contains"), "{err}");
    assert!(err.contains("elsewhere.txt"), "{err}");

    // One byte over what a CLI's message may carry (16 MiB).
    let big = env.root.join("tmp/big");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(16 * 1024 * 1024 + 1)
        .unwrap();
    let inside = env.ws().join("big.txt");
    let out = env
        .cmd(&["propose", inside.to_str().unwrap(), "--content-file"])
        .arg(&big)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("over 16 MiB"), "{err}");

    // A directory is no file to propose for.
    let out = env
        .cmd(&["propose", env.ws().to_str().unwrap(), "--content-file"])
        .arg(&content)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(env
        .json(&["review", "list", "--json"])
        .as_array()
        .unwrap()
        .is_empty());
    stop(&env, child);
}

#[test]
fn a_propose_whose_caller_dies_removes_its_review() {
    let env = Env::new();
    let child = serving(&env);
    let content = env.root.join("tmp/content");
    std::fs::write(&content, "x\n").unwrap();
    let mut proposer = env
        .cmd(&[
            "propose",
            env.ws().join("a.txt").to_str().unwrap(),
            "--content-file",
        ])
        .arg(&content)
        .arg("--wait")
        .spawn()
        .unwrap();
    until_reviews(&env, |l| l.len() == 1);
    proposer.kill().unwrap();
    proposer.wait().unwrap();
    until_reviews(&env, |l| l.is_empty());
    // Without --wait the review stays for the user after the command returns.
    let out = env
        .cmd(&[
            "propose",
            env.ws().join("b.txt").to_str().unwrap(),
            "--json",
            "--content-file",
        ])
        .arg(&content)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let opened: Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = until_reviews(&env, |l| l.len() == 1);
    assert_eq!(list[0]["id"], opened["id"]);
    stop(&env, child);
}

#[test]
fn diff_of_two_trees_opens_read_only_tabs_and_edit_writes_right_only_when_asked() {
    let env = Env::new();
    let child = serving(&env);
    let (left, right) = (env.root.join("tmp/left"), env.root.join("tmp/right"));
    for d in [&left, &right] {
        std::fs::create_dir_all(d.join("src")).unwrap();
    }
    std::fs::write(left.join("src/a.rs"), "a\n").unwrap();
    std::fs::write(right.join("src/a.rs"), "A\n").unwrap();
    std::fs::write(left.join("same"), "=\n").unwrap();
    std::fs::write(right.join("same"), "=\n").unwrap();
    std::fs::write(right.join("added"), "new\n").unwrap();
    let (l, r) = (left.to_str().unwrap(), right.to_str().unwrap());
    let differ = env
        .cmd(&["diff", l, r, "--wait"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let list = until_reviews(&env, |l| l.len() == 2);
    let paths: Vec<&str> = list
        .iter()
        .map(|r| r["filePath"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            right.join("added").to_str().unwrap(),
            right.join("src/a.rs").to_str().unwrap()
        ]
    );
    assert!(list
        .iter()
        .all(|r| r["readOnly"].as_str().unwrap().contains("--edit")));
    assert_eq!(list[0]["newFile"], true);
    let edited = env.root.join("tmp/edited");
    std::fs::write(&edited, "mine\n").unwrap();
    let refused = env.run(&[
        "review",
        "accept",
        &list[1]["id"].to_string(),
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("read-only"));
    env.ok(&["review", "accept", &list[0]["id"].to_string()]);
    env.ok(&["review", "reject", &list[1]["id"].to_string()]);
    let out = differ.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "one was rejected");
    assert_eq!(
        std::fs::read_to_string(right.join("src/a.rs")).unwrap(),
        "A\n"
    );

    // --edit on a RIGHT outside every workspace: refused before anything opens.
    let out = env.run(&["diff", l, r, "--edit", "--wait"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no enabled workspace contains"));
    assert_eq!(
        env.run(&["diff", l, r, "--edit"]).status.code(),
        Some(2),
        "--edit needs --wait"
    );

    // --edit inside a workspace: the accepted edits land in RIGHT.
    let mine = env.ws().join("mine.txt");
    std::fs::write(&mine, "right\n").unwrap();
    let differ = env
        .cmd(&[
            "diff",
            left.join("src/a.rs").to_str().unwrap(),
            mine.to_str().unwrap(),
            "--edit",
            "--wait",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let list = until_reviews(&env, |l| l.len() == 1);
    assert!(list[0].get("readOnly").is_none(), "editable: {list:?}");
    env.ok(&[
        "review",
        "accept",
        &list[0]["id"].to_string(),
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    let out = differ.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "mine\n");
    assert!(String::from_utf8_lossy(&out.stdout).contains("wrote"));
    stop(&env, child);
}
