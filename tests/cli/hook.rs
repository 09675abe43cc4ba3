//! `redline hook codex` end to end: the real binary fed Codex's hook input, a real instance, its
//! reviews decided with `redline review` as the user would, and the answer Codex reads.

use super::local_review::{serving, stop, until_reviews};
use super::Env;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Output, Stdio};

/// Codex's `PreToolUse` input for an `apply_patch` of `patch`, run in `cwd`.
fn input(cwd: &Path, patch: &str) -> String {
    json!({
        "session_id": "019a-session", "turn_id": "turn-1", "transcript_path": null,
        "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gpt-5.5",
        "permission_mode": "default", "tool_name": "apply_patch", "tool_use_id": "call_1",
        "tool_input": { "command": patch },
    })
    .to_string()
}

/// Starts `redline hook ARGS` (the CLI first) with `stdin` written and closed, as a CLI runs it.
fn hook(env: &Env, args: &[&str], stdin: &str) -> Child {
    let mut all = vec!["hook"];
    all.extend_from_slice(args);
    let mut child = env
        .cmd(&all)
        .current_dir(env.ws())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child
}

/// What Codex reads: the hook's `hookSpecificOutput`, from a run that exited 0.
fn specific(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    v["hookSpecificOutput"].clone()
}

fn id_of(list: &[Value], name: &str) -> u64 {
    list.iter()
        .find(|r| r["filePath"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("no review of {name}: {list:?}"))["id"]
        .as_u64()
        .unwrap()
}

#[test]
fn a_multi_file_patch_is_one_review_per_file_and_the_users_edit_comes_back_as_a_patch() {
    let env = Env::new();
    let ws = env.ws();
    std::fs::write(ws.join("a.txt"), "one\ntwo\nthree\n").unwrap();
    std::fs::write(ws.join("gone.txt"), "bye\n").unwrap();
    let child = serving(&env);
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** Add File: sub/new.txt\n+fresh\n*** Delete File: gone.txt\n*** End Patch\n";
    let running = hook(&env, &["codex"], &input(&ws, patch));
    let list = until_reviews(&env, |l| l.len() == 3);
    // What the review shows is the patch applied to the file on disk.
    let a = id_of(&list, "a.txt");
    let shown = env.ok(&["review", "show", &a.to_string()]);
    assert!(shown.contains("-two") && shown.contains("+TWO"), "{shown}");
    let gone = list
        .iter()
        .find(|r| r["filePath"].as_str().unwrap().ends_with("gone.txt"));
    assert!(gone.unwrap()["readOnly"]
        .as_str()
        .unwrap()
        .contains("deletes this file"));
    let edited = env.root.join("edited");
    std::fs::write(&edited, "one\nTWO, as the user wants it\nthree\n").unwrap();
    env.ok(&[
        "review",
        "accept",
        &a.to_string(),
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    env.ok(&["review", "accept", &id_of(&list, "new.txt").to_string()]);
    env.ok(&["review", "accept", &id_of(&list, "gone.txt").to_string()]);
    let out = running.wait_with_output().unwrap();
    let answer = specific(&out);
    assert_eq!(answer["permissionDecision"], "allow", "{answer}");
    let context = answer["additionalContext"].as_str().unwrap();
    assert!(
        context.contains("a.txt") && !context.contains("new.txt"),
        "{context}"
    );
    let patch = answer["updatedInput"]["command"].as_str().unwrap();
    assert!(patch.contains("+TWO, as the user wants it\n"), "{patch}");
    assert!(
        patch.contains("*** Add File: sub/new.txt\n+fresh\n"),
        "{patch}"
    );
    assert!(patch.contains("*** Delete File: gone.txt\n"), "{patch}");
    // Codex writes: Redline wrote nothing.
    assert_eq!(
        std::fs::read_to_string(ws.join("a.txt")).unwrap(),
        "one\ntwo\nthree\n"
    );
    assert!(!ws.join("sub/new.txt").exists() && ws.join("gone.txt").exists());
    stop(&env, child);
}

#[test]
fn accepted_as_proposed_answers_redlines_own_patch_and_a_rejection_withdraws_the_other_files() {
    let env = Env::new();
    let ws = env.ws();
    std::fs::write(ws.join("a.txt"), "x\n").unwrap();
    let child = serving(&env);
    let one = "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch\n";
    let running = hook(&env, &["codex"], &input(&ws, one));
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "accept", &id_of(&list, "a.txt").to_string()]);
    // Codex is never left to apply the model's patch: the answer is Redline's own, every old
    // line of the file checked, and no note (nothing was edited).
    let answer = specific(&running.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "allow", "{answer}");
    assert_eq!(answer.get("additionalContext"), None, "{answer}");
    assert_eq!(
        answer["updatedInput"]["command"],
        "*** Begin Patch\n*** Update File: a.txt\n@@\n+y\n-x\n*** End of File\n*** End Patch\n"
    );

    let two = "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** Add File: b.txt\n+b\n*** End Patch\n";
    let running = hook(&env, &["codex"], &input(&ws, two));
    let list = until_reviews(&env, |l| l.len() == 2);
    env.ok(&["review", "reject", &id_of(&list, "b.txt").to_string()]);
    let answer = specific(&running.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "deny");
    let reason = answer["permissionDecisionReason"].as_str().unwrap();
    assert!(
        reason.contains("b.txt") && reason.contains("rejected"),
        "{reason}"
    );
    until_reviews(&env, |l| l.is_empty());
    stop(&env, child);
}

#[test]
fn a_patch_that_does_not_apply_or_leaves_the_workspace_is_denied_with_why_and_opens_nothing() {
    let env = Env::new();
    let ws = env.ws();
    std::fs::write(ws.join("a.txt"), "x\n").unwrap();
    let child = serving(&env);
    let cases = [
        (
            "*** Begin Patch\n*** Update File: a.txt\n@@\n-not there\n+y\n*** End Patch",
            "not there",
        ),
        (
            "*** Begin Patch\n*** Add File: ../escape.txt\n+y\n*** End Patch",
            "escape.txt",
        ),
        (
            "*** Begin Patch\n*** Add File: a.txt\n+y\n*** End Patch",
            "exists already",
        ),
        ("*** Begin Patch\n*** Bogus: a.txt\n*** End Patch", "line 2"),
    ];
    for (patch, says) in cases {
        let out = hook(&env, &["codex"], &input(&ws, patch))
            .wait_with_output()
            .unwrap();
        let answer = specific(&out);
        assert_eq!(answer["permissionDecision"], "deny", "{patch}");
        let reason = answer["permissionDecisionReason"].as_str().unwrap();
        assert!(reason.contains(says), "{patch}: {reason}");
    }
    assert!(env
        .json(&["review", "list", "--json"])
        .as_array()
        .unwrap()
        .is_empty());
    assert!(!env.root.join("escape.txt").exists());
    stop(&env, child);
}

#[test]
fn with_no_redline_or_no_workspace_codex_is_left_to_its_own_approval_in_one_line() {
    let env = Env::new();
    let ws = env.ws();
    let patch = "*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch";
    let out = hook(&env, &["codex"], &input(&ws, patch))
        .wait_with_output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0), "{err}");
    assert!(
        err.contains("not running") && err.lines().count() == 1,
        "{err}"
    );

    let child = serving(&env);
    let elsewhere = env.root.join("tmp");
    let out = hook(&env, &["codex"], &input(&elsewhere, patch))
        .wait_with_output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0), "{err}");
    assert!(
        err.contains("no workspace") && err.lines().count() == 1,
        "{err}"
    );
    stop(&env, child);
}

#[test]
fn a_hook_that_dies_or_runs_out_of_time_withdraws_its_reviews() {
    let env = Env::new();
    let ws = env.ws();
    let child = serving(&env);
    let patch = "*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch";
    let mut running = hook(&env, &["codex"], &input(&ws, patch));
    until_reviews(&env, |l| l.len() == 1);
    running.kill().unwrap();
    running.wait().unwrap();
    until_reviews(&env, |l| l.is_empty());

    let running = hook(&env, &["codex", "--deny-after", "1"], &input(&ws, patch));
    let answer = specific(&running.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "deny");
    let reason = answer["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("within 1 seconds"), "{reason}");
    until_reviews(&env, |l| l.is_empty());
    stop(&env, child);
}

#[test]
fn hooks_install_merges_into_codexs_config_once_and_uninstall_takes_only_its_own() {
    let env = Env::new();
    let file = env.root.join("home/.codex/hooks.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let theirs = json!({ "hooks": { "PreToolUse": [
        { "matcher": "shell", "hooks": [{ "type": "command", "command": "audit.sh" }] }
    ] } });
    std::fs::write(&file, theirs.to_string()).unwrap();
    let said = env.ok(&["hooks", "status"]);
    assert!(said.contains("Codex CLI: no hook"), "{said}");

    let said = env.ok(&["hooks", "install", "codex"]);
    assert!(
        said.contains("added to") && said.contains("/hooks"),
        "{said}"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let groups = doc["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups[0], theirs["hooks"]["PreToolUse"][0]);
    let ours = &groups[1]["hooks"][0];
    let want = format!("{} hook codex --deny-after 3540", super::BIN);
    assert_eq!(
        (groups[1]["matcher"].as_str(), ours["command"].as_str()),
        (Some("apply_patch"), Some(want.as_str()))
    );
    assert_eq!(ours["timeout"], 3600);

    let bytes = std::fs::read(&file).unwrap();
    let said = env.ok(&["hooks", "install", "codex"]);
    assert!(
        said.contains("already in") && !said.contains("still to do"),
        "{said}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    let status = env.json(&["hooks", "status", "--json"]);
    assert_eq!(status[0]["cli"], "codex");
    assert_eq!(status[0]["current"], true);

    // CODEX_HOME moves it, as it moves Codex's own config.
    let elsewhere = env.root.join("codex-home");
    let out = env
        .cmd(&["hooks", "install", "codex"])
        .env("CODEX_HOME", &elsewhere)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(elsewhere.join("hooks.json").exists());

    env.ok(&["hooks", "uninstall", "codex"]);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc, theirs);
    let said = env.ok(&["hooks", "uninstall", "codex"]);
    assert!(said.contains("nothing to remove"), "{said}");

    std::fs::write(&file, "{ broken").unwrap();
    let out = env.run(&["hooks", "install", "codex"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was changed"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ broken");
}

#[test]
fn doctor_says_whether_codex_has_redlines_hook_and_the_command_that_adds_it() {
    let env = Env::new();
    let bin = super::fake_cli(&env, "codex", "@openai/codex", "0.171.0", ".codex");
    let (_, report) = super::doctor(&env, &bin, &env.ws());
    let codex = &report["hooks"][0];
    assert_eq!(codex["id"], "codex");
    assert_eq!(codex["installed"]["version"], "0.171.0");
    assert_eq!(codex["hook"], Value::Null);
    assert_eq!(codex["fix"]["command"], "redline hooks install codex");

    env.ok(&["hooks", "install", "codex"]);
    let (_, report) = super::doctor(&env, &bin, &env.ws());
    let codex = &report["hooks"][0];
    assert!(codex["hook"]
        .as_str()
        .unwrap()
        .ends_with("hook codex --deny-after 3540"));
    assert!(
        codex["reason"].as_str().unwrap().contains("/hooks"),
        "{codex}"
    );
    assert_eq!(codex["fix"], Value::Null);
}

/// Claude Code's, Gemini CLI's or Qwen Code's hook input for `tool` on `path` in `cwd`.
fn tool_input(cwd: &Path, tool: &str, args: Value) -> String {
    json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": args,
    })
    .to_string()
}

#[test]
fn claude_gemini_and_qwen_edits_are_reviewed_and_answered_in_each_clis_words() {
    let env = Env::new();
    let ws = env.ws();
    let file = ws.join("a.py");
    std::fs::write(&file, "x = 1\ny = 2\n").unwrap();
    let child = serving(&env);
    let edited = env.root.join("edited");
    std::fs::write(&edited, "x = 10  # the user's\ny = 2\n").unwrap();

    // Claude Code's Edit, accepted with the user's text: the same tool, the whole file replaced.
    let args = json!({ "file_path": file, "old_string": "x = 1", "new_string": "x = 3", "replace_all": false });
    let running = hook(&env, &["claude"], &tool_input(&ws, "Edit", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    let id = id_of(&list, "a.py").to_string();
    assert!(env.ok(&["review", "show", &id]).contains("+x = 3"));
    env.ok(&[
        "review",
        "accept",
        &id,
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    let answer = specific(&running.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "allow");
    let input = &answer["updatedInput"];
    assert_eq!(input["old_string"], "x = 1\ny = 2\n");
    assert_eq!(input["new_string"], "x = 10  # the user's\ny = 2\n");
    assert_eq!(
        (input["file_path"].as_str(), &input["replace_all"]),
        (file.to_str(), &json!(false))
    );

    // Gemini CLI's write_file, rejected: its own deny shape.
    let args = json!({ "file_path": file, "content": "all new\n" });
    let running = hook(&env, &["gemini"], &tool_input(&ws, "write_file", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "reject", &id_of(&list, "a.py").to_string()]);
    let out = running.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["decision"], "deny");
    assert!(v["reason"].as_str().unwrap().contains("a.py"), "{v}");

    // Qwen Code's edit: read-only (it takes no changed input), accepted: nothing to say.
    let args = json!({ "file_path": file, "old_string": "y = 2", "new_string": "y = 3" });
    let running = hook(&env, &["qwen"], &tool_input(&ws, "edit", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    assert!(
        list[0]["readOnly"].as_str().unwrap().contains("Qwen Code"),
        "{list:?}"
    );
    let id = id_of(&list, "a.py").to_string();
    let refused = env.run(&[
        "review",
        "accept",
        &id,
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    env.ok(&["review", "accept", &id]);
    let out = running.wait_with_output().unwrap();
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));

    // A replace whose text is not in the file is the CLI's own error, said before anyone is asked.
    let args = json!({ "file_path": file, "old_string": "nowhere", "new_string": "z" });
    let out = hook(&env, &["claude"], &tool_input(&ws, "Edit", args))
        .wait_with_output()
        .unwrap();
    let answer = specific(&out);
    assert_eq!(answer["permissionDecision"], "deny");
    assert!(answer["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .contains("not in it"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\ny = 2\n");
    stop(&env, child);
}

#[test]
fn a_hook_whose_cli_died_outright_withdraws_its_review() {
    let env = Env::new();
    let ws = env.ws();
    let child = serving(&env);
    let patch = "*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch";
    std::fs::write(env.root.join("input.json"), input(&ws, patch)).unwrap();
    // A stand-in for the CLI: starts the hook, and ends (without killing it) when its stdin closes.
    let mut cli =
        env.cmd(&[])
            .get_envs()
            .fold(std::process::Command::new("sh"), |mut c, (k, v)| {
                if let Some(v) = v {
                    c.env(k, v);
                }
                c
            });
    let script = format!(
        "'{}' hook codex < input.json > /dev/null 2>&1 & read _",
        super::BIN
    );
    let mut cli = cli
        .args(["-c", &script])
        .current_dir(&env.root)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    until_reviews(&env, |l| l.len() == 1);
    drop(cli.stdin.take());
    cli.wait().unwrap();
    until_reviews(&env, |l| l.is_empty());
    stop(&env, child);
}

#[test]
fn doctor_flags_a_cli_reviewed_both_by_its_ide_connection_and_by_redlines_hook() {
    let env = Env::new();
    let bin = super::fake_cli(&env, "qwen", "@qwen-code/qwen-code", "0.24.4", ".qwen");
    let child = serving(&env);
    let (_, report) = super::doctor(&env, &bin, &env.ws());
    let qwen = |r: &Value| {
        r["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == "qwen")
            .unwrap()
            .clone()
    };
    assert_eq!(
        super::verdicts(&report)[1],
        ("qwen".into(), "connects".into())
    );
    // Its IDE connection reviews its edits: no hook is no problem, and no fix is offered.
    let before = qwen(&report);
    assert_eq!(
        (before["fix"].clone(), before["ideProtocol"].clone()),
        (Value::Null, json!(true))
    );
    assert!(
        before["reason"]
            .as_str()
            .unwrap()
            .contains("IDE connection"),
        "{before}"
    );

    env.ok(&["hooks", "install", "qwen"]);
    // The IDE setting stays as the user had it, byte for byte, beside the hook.
    let settings = std::fs::read_to_string(env.root.join("home/.qwen/settings.json")).unwrap();
    assert!(
        settings.starts_with("{\"ide\":{\"enabled\":true},")
            && settings.contains("write_file|edit"),
        "{settings}"
    );
    let (_, report) = super::doctor(&env, &bin, &env.ws());
    let hook = qwen(&report);
    assert!(
        hook["reason"].as_str().unwrap().contains("asked twice"),
        "{hook}"
    );
    assert_eq!(hook["fix"]["command"], "redline hooks uninstall qwen");
    stop(&env, child);
}

#[test]
fn a_patch_on_a_fifo_a_link_to_dev_zero_or_an_odd_name_never_blocks_or_reads_outside() {
    let env = Env::new();
    let ws = env.ws();
    let fifo = ws.join("pipe");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink("/dev/zero", ws.join("zero")).unwrap();
    let odd = "a; $(touch pwned) 'q'.txt";
    std::fs::write(ws.join(odd), "x\r\ny\r\n").unwrap();
    let child = serving(&env);
    for name in ["pipe", "zero"] {
        let patch = format!("*** Begin Patch\n*** Update File: {name}\n@@\n-x\n+y\n*** End Patch");
        let out = hook(&env, &["codex"], &input(&ws, &patch))
            .wait_with_output()
            .unwrap();
        let answer = specific(&out);
        assert_eq!(answer["permissionDecision"], "deny", "{name}: {answer}");
    }
    // An odd name is a name: reviewed as the CRLF file it is, nothing run.
    let patch = format!("*** Begin Patch\n*** Update File: {odd}\n@@\n-x\n+z\n*** End Patch");
    let running = hook(&env, &["codex"], &input(&ws, &patch));
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "reject", &id_of(&list, "'q'.txt").to_string()]);
    assert_eq!(
        specific(&running.wait_with_output().unwrap())["permissionDecision"],
        "deny"
    );
    assert!(!ws.join("pwned").exists() && !env.root.join("pwned").exists());
    stop(&env, child);
}

/// Kiro CLI's `preToolUse` input for fs_write with `args`, run in `cwd` (from Kiro's docs).
fn kiro_input(cwd: &Path, args: Value) -> String {
    json!({ "hook_event_name": "preToolUse", "cwd": cwd, "tool_name": "fs_write", "tool_input": args })
        .to_string()
}

#[test]
fn kiro_edits_are_reviewed_read_only_and_a_rejection_is_exit_2_with_the_reason_on_stderr() {
    let env = Env::new();
    let ws = env.ws();
    let file = ws.join("a.py");
    std::fs::write(&file, "x = 1\ny = 2\n").unwrap();
    let child = serving(&env);

    // An insert, shown as the file it leaves; rejected with a reason: exit 2, stderr the reason.
    let args = json!({ "command": "insert", "path": file, "insert_line": 1, "new_str": "z = 0\n" });
    let running = hook(&env, &["kiro"], &kiro_input(&ws, args));
    let list = until_reviews(&env, |l| l.len() == 1);
    assert!(
        list[0]["readOnly"].as_str().unwrap().contains("Kiro CLI"),
        "{list:?}"
    );
    let id = id_of(&list, "a.py").to_string();
    assert!(env.ok(&["review", "show", &id]).contains("+z = 0"));
    env.ok(&["review", "reject", &id, "--reason", "too risky"]);
    let out = running.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout.len(), 0);
    assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), "too risky");

    // A create, accepted: exit 0 and nothing said; Kiro writes it itself.
    let args = json!({ "command": "create", "path": ws.join("new.py"), "file_text": "n = 1\n" });
    let running = hook(&env, &["kiro"], &kiro_input(&ws, args));
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "accept", &id_of(&list, "new.py").to_string()]);
    let out = running.wait_with_output().unwrap();
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    assert!(
        !ws.join("new.py").exists(),
        "Redline never writes Kiro's file"
    );

    // A str_replace whose text is not there: denied before anyone is asked.
    let args =
        json!({ "command": "str_replace", "path": file, "old_str": "nowhere", "new_str": "q" });
    let out = hook(&env, &["kiro"], &kiro_input(&ws, args))
        .wait_with_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in it"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\ny = 2\n");
    stop(&env, child);
}

/// Cursor's `preToolUse` input for `tool` with `args` (from Cursor's docs).
fn cursor_input(root: &Path, tool: &str, args: Value) -> String {
    json!({
        "hook_event_name": "preToolUse", "conversation_id": "c1", "generation_id": "g1",
        "workspace_roots": [root], "tool_name": tool, "tool_input": args, "tool_use_id": "t1",
    })
    .to_string()
}

#[test]
fn cursor_edits_are_reviewed_read_only_and_answered_with_permission_and_messages() {
    let env = Env::new();
    let ws = env.ws();
    let file = ws.join("a.ts");
    std::fs::write(&file, "let a = 1;\n").unwrap();
    let child = serving(&env);

    let args = json!({ "file_path": file, "old_string": "a = 1", "new_string": "a = 2" });
    let running = hook(&env, &["cursor"], &cursor_input(&ws, "StrReplace", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    assert!(
        list[0]["readOnly"].as_str().unwrap().contains("Cursor CLI"),
        "{list:?}"
    );
    env.ok(&[
        "review",
        "reject",
        &id_of(&list, "a.ts").to_string(),
        "--reason",
        "too risky",
    ]);
    let out = running.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v,
        json!({ "permission": "deny", "agent_message": "too risky", "user_message": "Redline: too risky" })
    );

    let args = json!({ "file_path": file, "contents": "let a = 3;\n" });
    let running = hook(&env, &["cursor"], &cursor_input(&ws, "Write", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "accept", &id_of(&list, "a.ts").to_string()]);
    let out = running.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v, json!({ "permission": "allow" }));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "let a = 1;\n");
    stop(&env, child);
}

#[test]
fn hooks_install_puts_kiro_and_cursor_hooks_where_their_docs_say_and_status_sees_them() {
    let env = Env::new();
    let cursor = env.root.join("home/.cursor/hooks.json");
    std::fs::create_dir_all(cursor.parent().unwrap()).unwrap();
    let theirs = json!({ "version": 1, "hooks": { "stop": [{ "command": "./done.sh" }] } });
    std::fs::write(&cursor, theirs.to_string()).unwrap();

    let said = env.ok(&["hooks", "install", "kiro"]);
    assert!(said.contains("added to") && said.contains("--v3"), "{said}");
    let kiro = env.root.join("home/.kiro/hooks/redline.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&kiro).unwrap()).unwrap();
    let want = format!("{} hook kiro --deny-after 3540", super::BIN);
    assert_eq!(doc["hooks"][0]["action"]["command"], want.as_str());
    assert_eq!(doc["hooks"][0]["trigger"], "PreToolUse");

    env.ok(&["hooks", "install", "cursor"]);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&cursor).unwrap()).unwrap();
    assert_eq!(doc["hooks"]["stop"], theirs["hooks"]["stop"]);
    let want = format!("{} hook cursor --deny-after 3540", super::BIN);
    assert_eq!(doc["hooks"]["preToolUse"][0]["command"], want.as_str());

    let status = env.json(&["hooks", "status", "--json"]);
    let of = |id: &str| {
        status
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["cli"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(
        (
            of("kiro")["current"].clone(),
            of("cursor")["current"].clone()
        ),
        (json!(true), json!(true))
    );

    env.ok(&["hooks", "uninstall", "kiro"]);
    assert!(!kiro.exists());
    env.ok(&["hooks", "uninstall", "cursor"]);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&cursor).unwrap()).unwrap();
    assert_eq!(doc, theirs);
}

#[test]
fn doctor_has_a_line_for_kiro_and_cursor_and_the_command_that_adds_each_hook() {
    let env = Env::new();
    let bin = env.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in ["kiro-cli", "cursor-agent"] {
        let exe = bin.join(name);
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&exe, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    let (_, report) = super::doctor(&env, &bin, &env.ws());
    let line = |report: &Value, id: &str| {
        report["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == id)
            .unwrap_or_else(|| panic!("no doctor line for {id}: {report}"))
            .clone()
    };
    for id in ["kiro", "cursor"] {
        let l = line(&report, id);
        assert!(l["installed"]["path"].as_str().is_some(), "{l}");
        assert_eq!(l["hook"], Value::Null);
        assert_eq!(
            l["fix"]["command"],
            format!("redline hooks install {id}").as_str()
        );
    }
    env.ok(&["hooks", "install", "kiro"]);
    let (_, report) = super::doctor(&env, &bin, &env.ws());
    let kiro = line(&report, "kiro");
    assert!(kiro["hook"]
        .as_str()
        .unwrap()
        .ends_with("hook kiro --deny-after 3540"));
    assert!(kiro["reason"].as_str().unwrap().contains("--v3"), "{kiro}");
    assert_eq!(kiro["fix"], Value::Null);
}

/// Copilot CLI 1.0.102's `preToolUse` input for `tool` with `args` (an object, as it sends them).
fn copilot_input(cwd: &Path, tool: &str, args: Value) -> String {
    json!({
        "sessionId": "e8dc0e03", "timestamp": 1795790654980u64, "cwd": cwd,
        "toolName": tool, "toolArgs": args,
    })
    .to_string()
}

/// What Copilot CLI reads: the hook's whole JSON answer, from a run that exited 0.
fn copilot_answer(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn copilot_edits_are_reviewed_and_answered_with_its_decision_and_modified_args() {
    let env = Env::new();
    let ws = env.ws();
    let file = ws.join("a.py");
    std::fs::write(&file, "x = 1\ny = 2\n").unwrap();
    let out = hook(
        &env,
        &["copilot"],
        &copilot_input(
            &ws,
            "edit",
            json!({ "path": file, "old_str": "x = 1", "new_str": "x = 3" }),
        ),
    )
    .wait_with_output()
    .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0), "{err}");
    assert!(
        err.contains("Copilot CLI's own approval runs") && err.lines().count() == 1,
        "{err}"
    );

    let child = serving(&env);
    let edited = env.root.join("edited");
    std::fs::write(&edited, "x = 10  # the user's\ny = 2\n").unwrap();
    // An edit accepted with the user's text: the whole file for the whole file, and a note.
    let args = json!({ "path": file, "old_str": "x = 1", "new_str": "x = 3" });
    let running = hook(&env, &["copilot"], &copilot_input(&ws, "edit", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    assert_eq!(list[0]["readOnly"], Value::Null, "{list:?}");
    let id = id_of(&list, "a.py").to_string();
    assert!(env.ok(&["review", "show", &id]).contains("+x = 3"));
    env.ok(&[
        "review",
        "accept",
        &id,
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    let answer = copilot_answer(&running.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "allow");
    assert_eq!(
        answer["modifiedArgs"],
        json!({ "path": file, "old_str": "x = 1\ny = 2\n", "new_str": "x = 10  # the user's\ny = 2\n" })
    );
    assert!(answer["additionalContext"]
        .as_str()
        .unwrap()
        .contains("a.py"));

    // A create (its args as JSON text, as Copilot's SDK documents them), accepted as proposed.
    let args = json!(json!({ "path": "b.txt", "file_text": "new\n" }).to_string());
    let running = hook(&env, &["copilot"], &copilot_input(&ws, "create", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "accept", &id_of(&list, "b.txt").to_string()]);
    let answer = copilot_answer(&running.wait_with_output().unwrap());
    // Accepted as proposed still carries the reviewed text: Copilot writes Redline's arguments.
    assert_eq!(
        answer,
        json!({ "permissionDecision": "allow", "permissionDecisionReason": "Accepted in Redline",
            "modifiedArgs": { "path": "b.txt", "file_text": "new\n" } })
    );

    // Rejected with a reason: Copilot's deny, the reason word for word.
    let args = json!({ "path": file, "old_str": "y = 2", "new_str": "y = 3" });
    let running = hook(&env, &["copilot"], &copilot_input(&ws, "edit", args));
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&[
        "review",
        "reject",
        &id_of(&list, "a.py").to_string(),
        "--reason",
        "keep y",
    ]);
    let answer = copilot_answer(&running.wait_with_output().unwrap());
    assert_eq!(
        answer,
        json!({ "permissionDecision": "deny", "permissionDecisionReason": "keep y" })
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\ny = 2\n");
    assert!(
        !ws.join("b.txt").exists(),
        "the hook never writes: Copilot does"
    );

    // A create of a file that is there: Copilot's create would fail, so it is denied unasked.
    let args = json!({ "path": file, "file_text": "over\n" });
    let running = hook(
        &env,
        &["copilot", "--deny-after", "2"],
        &copilot_input(&ws, "create", args),
    );
    let answer = copilot_answer(&running.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "deny");
    let reason = answer["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("already exists"), "{reason}");

    // Out of time: denied before Copilot's own timeout would let the edit through.
    let args = json!({ "path": file, "old_str": "y = 2", "new_str": "y = 4" });
    let running = hook(
        &env,
        &["copilot", "--deny-after", "1"],
        &copilot_input(&ws, "edit", args),
    );
    let answer = copilot_answer(&running.wait_with_output().unwrap());
    assert_eq!(answer["permissionDecision"], "deny");
    assert!(answer["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .contains("within 1 seconds"));
    until_reviews(&env, |l| l.is_empty());
    stop(&env, child);
}

#[test]
fn copilots_hook_file_is_installed_once_refused_if_foreign_and_doctor_flags_two_prompts() {
    let env = Env::new();
    let bin = super::fake_cli(&env, "copilot", "@github/copilot", "1.0.102", ".copilot");
    let file = env.root.join("home/.copilot/hooks/redline.json");
    let said = env.ok(&["hooks", "install", "copilot"]);
    assert!(
        said.contains("added to") && said.contains("hooks/redline.json"),
        "{said}"
    );
    assert!(
        said.contains("goes on with an edit whose hook runs out of time")
            && said.contains("denies it after 59 minutes"),
        "{said}"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let want = format!("{} hook copilot --deny-after 3540", super::BIN);
    assert_eq!(
        doc,
        json!({ "version": 1, "hooks": { "preToolUse": [
            { "type": "command", "bash": want, "matcher": "^(edit|create)$", "timeoutSec": 3600 }
        ] } })
    );
    let bytes = std::fs::read(&file).unwrap();
    assert!(env
        .ok(&["hooks", "install", "copilot"])
        .contains("already in"));
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    let status = env.json(&["hooks", "status", "--json"]);
    let copilot = status
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["cli"] == "copilot")
        .unwrap();
    assert_eq!(copilot["current"], true, "{copilot}");

    // Served over its IDE connection too: two prompts per edit, and the fix is the hook's removal.
    let child = serving(&env);
    let (_, report) = super::doctor(&env, &bin, &env.ws());
    let verdicts = super::verdicts(&report);
    assert!(
        verdicts.contains(&("copilot".into(), "connects".into())),
        "{verdicts:?}"
    );
    let hook = report["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "copilot")
        .unwrap()
        .clone();
    assert!(
        hook["reason"].as_str().unwrap().contains("asked twice"),
        "{hook}"
    );
    assert_eq!(hook["fix"]["command"], "redline hooks uninstall copilot");
    stop(&env, child);

    assert!(env
        .ok(&["hooks", "uninstall", "copilot"])
        .contains("removed"));
    assert!(!file.exists());
    // A file of that name that is not Redline's: refused, left as it was.
    let theirs = r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"lint.sh"}]}}"#;
    std::fs::write(&file, theirs).unwrap();
    for verb in ["install", "uninstall"] {
        let out = env.run(&["hooks", verb, "copilot"]);
        assert_eq!(out.status.code(), Some(2), "{verb}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("not Redline's") && err.contains("nothing was changed"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
    }
}

#[test]
fn hooks_install_opencode_writes_redlines_own_plugin_once_and_never_touches_anothers() {
    let env = Env::new();
    // opencode's global config folder: $XDG_CONFIG_HOME/opencode.
    let file = env.root.join("config/opencode/plugin/redline.js");
    let said = env.ok(&["hooks", "install", "opencode"]);
    assert!(said.contains("added to"), "{said}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("// Redline's review of opencode's edits."));
    let program = serde_json::to_string(super::BIN).unwrap();
    assert!(
        text.contains(&format!("const REDLINE = {program};")),
        "the plugin runs this redline: {text}"
    );
    assert!(text.contains(r#"spawn(REDLINE, ["hook", "opencode"]"#));

    let bytes = std::fs::read(&file).unwrap();
    let said = env.ok(&["hooks", "install", "opencode"]);
    assert!(said.contains("already in"), "{said}");
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    let status = env.json(&["hooks", "status", "--json"]);
    let opencode = status
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["cli"] == "opencode")
        .unwrap();
    assert_eq!(opencode["current"], true, "{opencode}");
    assert_eq!(opencode["file"], file.to_string_lossy().as_ref());

    let said = env.ok(&["hooks", "uninstall", "opencode"]);
    assert!(said.contains("removed"), "{said}");
    assert!(!file.exists());
    let said = env.ok(&["hooks", "uninstall", "opencode"]);
    assert!(said.contains("nothing to remove"), "{said}");

    // A plugin of that name that is someone else's: refused, left as it is.
    let theirs = "export default { id: \"mine\", server: async () => ({}) };\n";
    std::fs::write(&file, theirs).unwrap();
    for verb in ["install", "uninstall"] {
        let out = env.run(&["hooks", verb, "opencode"]);
        assert_eq!(out.status.code(), Some(2), "{verb}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not Redline's"), "{verb}: {err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
    }
}

/// An end-of-turn hook's input: Claude Code's `Stop` (Codex's adds `turn_id`; Gemini CLI's
/// `AfterAgent` `prompt` and `prompt_response`).
fn stop_input(cwd: &Path, session: &str, again: bool) -> String {
    json!({
        "session_id": session, "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "Stop", "stop_hook_active": again,
    })
    .to_string()
}

/// Runs one pre-edit hook and accepts its one review; the CLI then writes `after`, as it would.
fn edit_accepted(env: &Env, args: &[&str], input: &str, file: &Path, after: &str) {
    let running = hook(env, args, input);
    let list = until_reviews(env, |l| l.len() == 1);
    let name = file.file_name().unwrap().to_str().unwrap();
    env.ok(&["review", "accept", &id_of(&list, name).to_string()]);
    let out = running.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    std::fs::write(file, after).unwrap();
}

#[test]
fn a_turns_files_are_shown_start_against_now_and_continue_blocks_with_the_users_words() {
    let env = Env::new();
    let ws = env.ws();
    let (a, b) = (ws.join("a.py"), ws.join("b.py"));
    std::fs::write(&a, "x = 1\n").unwrap();
    let child = serving(&env);
    let claude = ["claude", "--record-turn"];

    // Two edits of a.py in one turn: its start is the text before the first; b.py is new.
    let edit = json!({ "file_path": a, "old_string": "x = 1", "new_string": "x = 2" });
    edit_accepted(&env, &claude, &tool_input(&ws, "Edit", edit), &a, "x = 2\n");
    let edit = json!({ "file_path": a, "old_string": "x = 2", "new_string": "x = 3" });
    edit_accepted(&env, &claude, &tool_input(&ws, "Edit", edit), &a, "x = 3\n");
    let write = json!({ "file_path": b, "content": "b = 1\n" });
    edit_accepted(
        &env,
        &claude,
        &tool_input(&ws, "Write", write),
        &b,
        "b = 1\n",
    );

    let running = hook(
        &env,
        &["claude", "--turn-review"],
        &stop_input(&ws, "s", false),
    );
    let list = until_reviews(&env, |l| l.len() == 2);
    assert!(list
        .iter()
        .all(|r| r["kind"] == "turn" && r["readOnly"].is_string()));
    let shown = env.ok(&["review", "show", &id_of(&list, "a.py").to_string()]);
    assert!(
        shown.contains("-x = 1") && shown.contains("+x = 3") && !shown.contains("x = 2"),
        "{shown}"
    );
    assert!(list
        .iter()
        .any(|r| r["newFile"] == true && r["filePath"].as_str().unwrap().ends_with("b.py")));
    env.ok(&[
        "review",
        "reject",
        &id_of(&list, "b.py").to_string(),
        "--reason",
        "Also add a test for b",
    ]);
    let out = running.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v,
        json!({ "decision": "block", "reason": "Also add a test for b" })
    );
    until_reviews(&env, |l| l.is_empty());
    // Nothing was written by Redline.
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "x = 3\n");

    // The model goes on (stop_hook_active): the record started over, so only what it changes
    // since is shown, and Done ends the turn with nothing said.
    let write = json!({ "file_path": ws.join("b_test.py"), "content": "assert b\n" });
    edit_accepted(
        &env,
        &claude,
        &tool_input(&ws, "Write", write),
        &ws.join("b_test.py"),
        "assert b\n",
    );
    let running = hook(
        &env,
        &["claude", "--turn-review"],
        &stop_input(&ws, "s", true),
    );
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&["review", "accept", &id_of(&list, "b_test.py").to_string()]);
    let out = running.wait_with_output().unwrap();
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    stop(&env, child);
}

#[test]
fn nothing_changed_or_nothing_recorded_ends_the_turn_at_once_and_no_redline_passes() {
    let env = Env::new();
    let ws = env.ws();
    let a = ws.join("a.py");
    std::fs::write(&a, "x = 1\n").unwrap();
    let stop_now = |args: &[&str], session: &str| {
        let out = hook(&env, args, &stop_input(&ws, session, false))
            .wait_with_output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (said, err) = stop_now(&["claude", "--turn-review"], "s");
    assert!(
        said.is_empty() && err.contains("not running") && err.lines().count() == 1,
        "{err}"
    );

    let child = serving(&env);
    // Edited, then put back as it was: nothing to show.
    let edit = json!({ "file_path": a, "old_string": "x = 1", "new_string": "x = 2" });
    edit_accepted(
        &env,
        &["claude", "--record-turn"],
        &tool_input(&ws, "Edit", edit.clone()),
        &a,
        "x = 2\n",
    );
    std::fs::write(&a, "x = 1\n").unwrap();
    assert_eq!(stop_now(&["claude", "--turn-review"], "s").0, "");
    // Without --record-turn nothing is kept: the turn's end shows nothing.
    edit_accepted(
        &env,
        &["claude"],
        &tool_input(&ws, "Edit", edit),
        &a,
        "x = 2\n",
    );
    assert_eq!(stop_now(&["claude", "--turn-review"], "s").0, "");
    assert!(env
        .json(&["review", "list", "--json"])
        .as_array()
        .unwrap()
        .is_empty());
    stop(&env, child);
}

#[test]
fn codex_turns_are_kept_by_turn_id_and_its_stop_is_answered_with_a_block() {
    let env = Env::new();
    let ws = env.ws();
    std::fs::write(ws.join("a.txt"), "x\n").unwrap();
    let child = serving(&env);
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch\n";
    edit_accepted(
        &env,
        &["codex", "--record-turn"],
        &input(&ws, patch),
        &ws.join("a.txt"),
        "y\n",
    );
    // A Stop of another turn of the session: the record is of an earlier one, shown nowhere.
    let stop = |turn: &str| {
        let v = json!({ "session_id": "019a-session", "turn_id": turn, "cwd": ws,
            "hook_event_name": "Stop", "model": "gpt-5.5", "permission_mode": "default",
            "stop_hook_active": false, "transcript_path": null, "last_assistant_message": "done" });
        hook(&env, &["codex", "--turn-review"], &v.to_string())
    };
    let out = stop("turn-2").wait_with_output().unwrap();
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));

    edit_accepted(
        &env,
        &["codex", "--record-turn"],
        &input(
            &ws,
            "*** Begin Patch\n*** Update File: a.txt\n@@\n-y\n+z\n*** End Patch\n",
        ),
        &ws.join("a.txt"),
        "z\n",
    );
    let running = stop("turn-1");
    let list = until_reviews(&env, |l| l.len() == 1);
    env.ok(&[
        "review",
        "reject",
        &id_of(&list, "a.txt").to_string(),
        "--reason",
        "rename it",
    ]);
    let v: Value = serde_json::from_slice(&running.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(v, json!({ "decision": "block", "reason": "rename it" }));
    super::local_review::stop(&env, child);
}

#[test]
fn hooks_install_turn_review_adds_the_end_of_turn_hook_and_without_it_takes_it_out() {
    let env = Env::new();
    let file = env.root.join("home/.codex/hooks.json");
    let said = env.ok(&["hooks", "install", "codex", "--turn-review"]);
    assert!(said.contains("end of each turn"), "{said}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let pre = &doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"];
    assert_eq!(
        pre.as_str(),
        Some(format!("{} hook codex --deny-after 3540 --record-turn", super::BIN).as_str())
    );
    let stop = &doc["hooks"]["Stop"][0];
    assert_eq!(stop.get("matcher"), None);
    assert_eq!(
        stop["hooks"][0]["command"].as_str(),
        Some(format!("{} hook codex --turn-review", super::BIN).as_str())
    );
    let status = env.json(&["hooks", "status", "--json"]);
    assert_eq!(
        (&status[0]["current"], &status[0]["turnReview"]),
        (&json!(true), &json!(true))
    );
    assert!(env
        .ok(&["hooks", "status"])
        .contains("with the end-of-turn review"));
    let bytes = std::fs::read(&file).unwrap();
    assert!(env
        .ok(&["hooks", "install", "codex", "--turn-review"])
        .contains("already in"));
    assert_eq!(std::fs::read(&file).unwrap(), bytes);

    // Without --turn-review: the Stop entry goes, and the pre-edit hook records nothing.
    assert!(env
        .ok(&["hooks", "install", "codex"])
        .contains("updated in"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["hooks"].get("Stop"), None);
    assert!(!doc.to_string().contains("record-turn"));

    env.ok(&["hooks", "install", "gemini", "--turn-review"]);
    let gemini = env.root.join("home/.gemini/settings.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&gemini).unwrap()).unwrap();
    assert_eq!(
        doc["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"],
        3_600_000
    );
    env.ok(&["hooks", "uninstall", "gemini"]);
    // `hooks` was Redline's alone, and so was the file install created for it: both go.
    assert!(!gemini.exists());

    let out = env.run(&["hooks", "install", "kiro", "--turn-review"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not review Kiro CLI's turns"));
}

/// Claude Code's Write of `a.txt` in the workspace, as its hook's input.
fn claude_write(env: &Env) -> String {
    tool_input(
        &env.ws(),
        "Write",
        json!({ "file_path": env.ws().join("a.txt"), "content": "new\n" }),
    )
}

/// What Claude Code reads from a hook that denied: its reason.
fn claude_denied(out: &Output) -> String {
    let answer = specific(out);
    assert_eq!(answer["permissionDecision"], "deny", "{answer}");
    answer["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn a_control_channel_that_drops_mid_review_is_a_deny_and_the_terminal_says_why() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    // A real socket where Redline's is, served by this user, that reads the hook's request and
    // closes without answering: Redline stopping, or crashing, mid-review.
    let runtime = env.root.join("run/redline");
    std::fs::create_dir(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(runtime.join("control.sock"))
        .expect("the control socket's place");
    let running = hook(&env, &["claude"], &claude_write(&env));
    let (stream, _) = listener.accept().unwrap();
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line).unwrap();
    assert!(line.contains("\"claude\""), "{line}");
    drop(stream);
    let out = running.wait_with_output().unwrap();
    let reason = claude_denied(&out);
    assert!(
        reason.contains("did not let this edit through")
            && reason.contains("stopped before it answered"),
        "{reason}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the edit is denied"), "{err}");

    // An answer the hook cannot read is a no too.
    let running = hook(&env, &["claude"], &claude_write(&env));
    let (mut stream, _) = listener.accept().unwrap();
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line).unwrap();
    stream
        .write_all(b"{\"ok\":{\"verdict\":\"maybe\"}}\n")
        .unwrap();
    let reason = claude_denied(&running.wait_with_output().unwrap());
    assert!(reason.contains("cannot read"), "{reason}");
}

#[test]
fn hook_input_that_is_not_json_is_a_deny_in_every_clis_words() {
    let env = Env::new();
    let out = hook(&env, &["claude"], "{ not json")
        .wait_with_output()
        .unwrap();
    let reason = claude_denied(&out);
    assert!(reason.contains("not JSON"), "{reason}");
    // Kiro blocks with exit 2 and the reason on stderr.
    let out = hook(&env, &["kiro"], "").wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not JSON"));
    // opencode's plugin throws the reason as the tool's error.
    let out = hook(&env, &["opencode"], "[").wait_with_output().unwrap();
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["verdict"], "deny", "{said}");
}

#[test]
fn hooks_install_and_uninstall_give_back_a_commented_gemini_settings_file_byte_for_byte() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let file = env.root.join("home/.gemini/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let theirs = "// Gemini strips comments\r\n{\r\n  \"ui\": {\"theme\": \"GitHub\"}, /* mine */\r\n  \"n\": 99999999999999999999,\r\n  \"hooks\": {\r\n    \"BeforeTool\": [\r\n      {\"matcher\": \"run_shell_command|write_file\", \"hooks\": [\r\n        {\"type\": \"command\", \"command\": \"echo redline hook gemini\"}\r\n      ]}\r\n    ]\r\n  }\r\n}\r\n";
    std::fs::write(&file, theirs).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let said = env.ok(&["hooks", "install", "gemini", "--turn-review"]);
    assert!(said.contains("added to"), "{said}");
    let installed = std::fs::read_to_string(&file).unwrap();
    assert!(
        installed.starts_with("// Gemini strips comments\r\n{\r\n  \"ui\""),
        "{installed}"
    );
    assert!(installed.contains("\"matcher\": \"run_shell_command|write_file\""));
    let mode = || std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(), 0o640);
    let status = env.json(&["hooks", "status", "--json"]);
    let gemini = status
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["cli"] == "gemini")
        .unwrap();
    assert_eq!(
        (&gemini["current"], &gemini["turnReview"]),
        (&json!(true), &json!(true))
    );
    env.ok(&["hooks", "uninstall", "gemini"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
    assert_eq!(mode(), 0o640);
}

#[test]
fn hooks_install_refuses_a_claude_settings_file_claude_would_not_read_and_leaves_it() {
    let env = Env::new();
    let file = env.root.join("home/.claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    for text in [
        "{\"a\": 1, // no comments in Claude's JSON\n}",
        "\u{feff}{}",
        "{\"hooks\": []}",
    ] {
        std::fs::write(&file, text).unwrap();
        let out = env.run(&["hooks", "install", "claude"]);
        assert_eq!(out.status.code(), Some(2), "{text:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("nothing was changed"), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    }
}
