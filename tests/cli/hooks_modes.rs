//! `redline hooks install CLI --review edit|turn|both` (issue 39's modes): the hooks each mode
//! needs, written into the CLI's settings as exact bytes beside the user's own, the mode read
//! back from the file by `hooks status` (and `--json`'s `review`) and doctor, and uninstall
//! giving the file back as it was.

use super::{Env, BIN};
use serde_json::{json, Value};

/// The user's Claude Code settings: a setting and a Stop hook of their own.
const THEIRS: &str = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify.sh\"}]}]\n  }\n}\n";

/// Redline's group of one entry running `command`, as the settings file lays it out at `indent`.
fn group(indent: &str, command: &str, matcher: Option<&str>) -> String {
    let matcher = matcher
        .map(|m| format!(",\n{indent}  \"matcher\": \"{m}\""))
        .unwrap_or_default();
    format!(
        "{indent}{{\n{indent}  \"hooks\": [\n{indent}    {{\n{indent}      \"type\": \"command\",\n\
         {indent}      \"command\": \"{BIN} hook claude {command}\",\n{indent}      \"timeout\": 3600\n\
         {indent}    }}\n{indent}  ]{matcher}\n{indent}}}"
    )
}

/// `hooks status --json`'s entry for `cli`.
fn status_of(env: &Env, cli: &str) -> Value {
    let all = env.json(&["hooks", "status", "--json"]);
    all.as_array()
        .unwrap()
        .iter()
        .find(|s| s["cli"] == cli)
        .cloned()
        .unwrap()
}

#[test]
fn each_mode_writes_exactly_its_hooks_and_uninstall_gives_the_file_back() {
    let env = Env::new();
    let file = env.root.join("home/.claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, THEIRS).unwrap();
    assert_eq!(status_of(&env, "claude")["review"], Value::Null);

    let said = env.ok(&["hooks", "install", "claude", "--review", "turn"]);
    assert!(said.contains("asks Redline nothing"), "{said}");
    assert!(
        said.contains("never changes Claude Code's permission settings"),
        "{said}"
    );
    let stop = group("    ", "--turn-review", None);
    let pre = group("      ", "--record-only", Some("Write|Edit"));
    let start = group("      ", "--turn-start", None);
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        written,
        format!(
            "{{\n  \"model\": \"opus\",\n  \"hooks\": {{\n    \"Stop\": [{{\"hooks\": [{{\"type\": \
             \"command\", \"command\": \"notify.sh\"}}]}}, {}],\n    \"PreToolUse\": [\n{pre}\n    \
             ],\n    \"UserPromptSubmit\": [\n{start}\n    ]\n  }}\n}}\n",
            stop.trim_start()
        )
    );
    let st = status_of(&env, "claude");
    assert_eq!(
        (&st["review"], &st["current"]),
        (&json!("turn"), &json!(true))
    );
    assert!(st["ownQuestions"]
        .as_str()
        .unwrap()
        .contains("Redline answers no edit"));
    let line = env.ok(&["hooks", "status"]);
    assert!(
        line.contains("reviewing each turn (--review turn)"),
        "{line}"
    );
    // Again: not a byte changes.
    assert!(env
        .ok(&["hooks", "install", "claude", "--review", "turn"])
        .contains("already in"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written);

    // Both: the pre-edit hook reviews and records; the turn's hooks stay.
    env.ok(&["hooks", "install", "claude", "--review", "both"]);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        format!("{BIN} hook claude --deny-after 3540 --record-turn")
    );
    assert_eq!(
        doc["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"],
        format!("{BIN} hook claude --turn-start")
    );
    assert_eq!(status_of(&env, "claude")["review"], "both");
    // --turn-review is --review both: nothing to change.
    assert!(env
        .ok(&["hooks", "install", "claude", "--turn-review"])
        .contains("already in"));

    // Edit: the turn's hooks go, the user's Stop hook stays.
    env.ok(&["hooks", "install", "claude", "--review", "edit"]);
    let edit = std::fs::read_to_string(&file).unwrap();
    let pre = group("      ", "--deny-after 3540", Some("Write|Edit"));
    assert_eq!(
        edit,
        format!(
            "{{\n  \"model\": \"opus\",\n  \"hooks\": {{\n    \"Stop\": [{{\"hooks\": [{{\"type\": \
             \"command\", \"command\": \"notify.sh\"}}]}}],\n    \"PreToolUse\": [\n{pre}\n    ]\n  }}\n}}\n"
        )
    );
    assert_eq!(status_of(&env, "claude")["review"], "edit");
    env.ok(&["hooks", "uninstall", "claude"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), THEIRS);

    // Round trips from each mode straight to uninstall.
    for mode in ["turn", "both", "edit"] {
        env.ok(&["hooks", "install", "claude", "--review", mode]);
        env.ok(&["hooks", "uninstall", "claude"]);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), THEIRS, "{mode}");
    }
}

#[test]
fn codex_and_gemini_get_their_own_prompt_events_and_a_cli_without_turns_is_refused() {
    let env = Env::new();
    env.ok(&["hooks", "install", "codex", "--review", "turn"]);
    let codex = env.root.join("home/.codex/hooks.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&codex).unwrap()).unwrap();
    assert_eq!(
        doc["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"],
        format!("{BIN} hook codex --turn-start")
    );
    assert_eq!(
        doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        format!("{BIN} hook codex --record-only")
    );
    env.ok(&["hooks", "install", "gemini", "--review", "both"]);
    let gemini = env.root.join("home/.gemini/settings.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&gemini).unwrap()).unwrap();
    assert_eq!(
        doc["hooks"]["BeforeAgent"][0]["hooks"][0]["command"],
        format!("{BIN} hook gemini --turn-start")
    );
    assert_eq!(status_of(&env, "codex")["review"], "turn");
    assert_eq!(status_of(&env, "gemini")["review"], "both");
    assert!(status_of(&env, "gemini")["ownQuestions"]
        .as_str()
        .unwrap()
        .contains("approval mode"));
    // Files install created, with nothing else in them: uninstall removes them.
    env.ok(&["hooks", "uninstall", "codex"]);
    env.ok(&["hooks", "uninstall", "gemini"]);
    assert!(!codex.exists() && !gemini.exists());

    let out = env.run(&["hooks", "install", "kiro", "--review", "turn"]);
    assert_eq!(out.status.code(), Some(2));
    let out = env.run(&["hooks", "install", "codex", "--review", "sometimes"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_turn_modes_pre_edit_hook_says_nothing_and_leaves_the_edit_to_the_cli() {
    let env = Env::new();
    // No Redline running: the edit goes on, silently (no review, no words on every edit).
    let input = json!({ "session_id": "s", "cwd": env.ws(), "tool_name": "Write",
        "hook_event_name": "PreToolUse",
        "tool_input": { "file_path": env.ws().join("a.txt"), "content": "x\n" } });
    let out = env
        .cmd(&["hook", "claude", "--record-only"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(input.to_string().as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        (out.stdout.as_slice(), out.stderr.as_slice()),
        (&b""[..], &b""[..])
    );
}

#[test]
fn doctor_says_which_mode_a_hooked_cli_is_in() {
    let env = Env::new();
    env.ok(&["hooks", "install", "codex", "--review", "turn"]);
    let out = env
        .cmd(&["doctor"])
        .env("REDLINE_CONTAINER", "0")
        .current_dir(env.ws())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.lines()
            .any(|l| l.contains("Codex")
                && l.contains("Redline's hook is installed (review each turn)")),
        "{said}"
    );
}

#[test]
fn a_turn_install_from_before_the_prompt_hook_is_named_with_the_install_that_keeps_its_mode() {
    let env = Env::new();
    let file = env.root.join("home/.claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, THEIRS).unwrap();
    env.ok(&["hooks", "install", "claude", "--review", "both"]);
    // As `--turn-review` installed before there was a prompt hook: no UserPromptSubmit group.
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    doc["hooks"]
        .as_object_mut()
        .unwrap()
        .remove("UserPromptSubmit");
    std::fs::write(&file, doc.to_string()).unwrap();
    let said = env.ok(&["hooks", "status"]);
    assert!(
        said.contains("`redline hooks install claude --review both` updates it"),
        "{said}"
    );
    // That install gives it back its prompt hook, and the mode stays.
    env.ok(&["hooks", "install", "claude", "--review", "both"]);
    let now = status_of(&env, "claude");
    assert_eq!(now["review"], json!("both"), "{now}");
    let said = env.ok(&["hooks", "status"]);
    assert!(!said.contains("updates it"), "{said}");
}

/// The user's Qwen Code settings as Qwen Code reads them: a byte-order mark, a comment, CRLF line
/// endings, and a Stop hook of their own.
const QWEN_THEIRS: &str = "\u{feff}{\r\n  // mine\r\n  \"model\": {\"name\": \"qwen3\"},\r\n  \"hooks\": {\r\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify.sh\"}]}]\r\n  }\r\n}\r\n";

#[test]
fn qwen_gets_its_prompt_and_stop_hooks_and_uninstall_gives_its_file_back() {
    let env = Env::new();
    let file = env.root.join("home/.qwen/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, QWEN_THEIRS).unwrap();
    let said = env.ok(&["hooks", "install", "qwen", "--review", "turn"]);
    assert!(said.contains("(UserPromptSubmit: "), "{said}");
    assert!(said.contains("(Stop: "), "{said}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.starts_with("\u{feff}{\r\n  // mine\r\n"),
        "{written:?}"
    );
    let doc: Value = serde_json::from_str(
        written
            .trim_start_matches('\u{feff}')
            .replace("// mine", "")
            .as_str(),
    )
    .unwrap();
    let command = |event: &str, at: usize| doc["hooks"][event][at]["hooks"][0]["command"].clone();
    assert_eq!(command("Stop", 0), json!("notify.sh"));
    assert_eq!(
        command("Stop", 1),
        json!(format!("{BIN} hook qwen --turn-review"))
    );
    assert_eq!(
        command("UserPromptSubmit", 0),
        json!(format!("{BIN} hook qwen --turn-start"))
    );
    assert_eq!(
        command("PreToolUse", 0),
        json!(format!("{BIN} hook qwen --record-only"))
    );
    // Qwen Code reads a timeout of 1000 or more in milliseconds.
    assert_eq!(doc["hooks"]["Stop"][1]["hooks"][0]["timeout"], 3_600_000);
    let st = status_of(&env, "qwen");
    assert_eq!(
        (&st["review"], &st["current"], &st["turnReview"]),
        (&json!("turn"), &json!(true), &json!(true))
    );
    assert!(st["ownQuestions"]
        .as_str()
        .unwrap()
        .contains("its approval mode"));
    assert!(env
        .ok(&["hooks", "install", "qwen", "--review", "turn"])
        .contains("already in"));
    env.ok(&["hooks", "install", "qwen", "--review", "both"]);
    let st = status_of(&env, "qwen");
    assert_eq!(
        (&st["review"], &st["current"]),
        (&json!("both"), &json!(true))
    );
    env.ok(&["hooks", "uninstall", "qwen"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), QWEN_THEIRS);
    for mode in ["turn", "both", "edit"] {
        env.ok(&["hooks", "install", "qwen", "--review", mode]);
        env.ok(&["hooks", "uninstall", "qwen"]);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            QWEN_THEIRS,
            "{mode}"
        );
    }
}

#[test]
fn copilot_gets_its_prompt_and_agent_stop_hooks_in_its_own_file() {
    let env = Env::new();
    let file = env.root.join("home/.copilot/hooks/redline.json");
    let said = env.ok(&["hooks", "install", "copilot", "--review", "turn"]);
    assert!(said.contains("(userPromptSubmitted: "), "{said}");
    assert!(said.contains("(agentStop: "), "{said}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let entry = |event: &str| doc["hooks"][event][0].clone();
    assert_eq!(
        entry("preToolUse"),
        json!({"type": "command", "bash": format!("{BIN} hook copilot --record-only"),
            "matcher": "^(edit|create)$", "timeoutSec": 3600})
    );
    assert_eq!(
        entry("userPromptSubmitted"),
        json!({"type": "command", "bash": format!("{BIN} hook copilot --turn-start"),
            "timeoutSec": 3600})
    );
    assert_eq!(
        entry("agentStop"),
        json!({"type": "command", "bash": format!("{BIN} hook copilot --turn-review"),
            "timeoutSec": 3600})
    );
    let st = status_of(&env, "copilot");
    assert_eq!(
        (&st["review"], &st["current"], &st["turnReview"]),
        (&json!("turn"), &json!(true), &json!(true))
    );
    let bytes = std::fs::read(&file).unwrap();
    assert!(env
        .ok(&["hooks", "install", "copilot", "--review", "turn"])
        .contains("already in"));
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    env.ok(&["hooks", "install", "copilot", "--review", "both"]);
    let st = status_of(&env, "copilot");
    assert_eq!(
        (&st["review"], &st["current"]),
        (&json!("both"), &json!(true))
    );
    // The edit mode: the pre-edit hook alone again.
    env.ok(&["hooks", "install", "copilot", "--review", "edit"]);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        doc["hooks"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["preToolUse"]
    );
    assert_eq!(status_of(&env, "copilot")["review"], "edit");
    env.ok(&["hooks", "uninstall", "copilot"]);
    assert!(!file.exists());
}
