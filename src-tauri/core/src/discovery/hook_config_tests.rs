//! Redline's hook merged into, found in and taken out of a real config file.

use super::*;
use crate::clients::CODEX;

fn others() -> Value {
    json!({
        "hooks": {
            "PreToolUse": [
                { "matcher": "shell", "hooks": [{ "type": "command", "command": "audit.sh" }] },
            ],
            "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }],
        },
        "someone": "else's key",
    })
}

#[test]
fn install_merges_beside_other_hooks_and_a_second_install_changes_no_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    std::fs::write(&file, others().to_string()).unwrap();
    let cmd = command(&CODEX, Path::new("/usr/bin/redline"));
    assert_eq!(cmd, "/usr/bin/redline hook codex --deny-after 3540");
    assert_eq!(install(&CODEX, &file, &cmd).unwrap(), HookInstalled::Added);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let pre = doc["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre[0], others()["hooks"]["PreToolUse"][0]);
    assert_eq!(
        pre[1],
        json!({ "matcher": "apply_patch", "hooks": [{ "type": "command", "command": cmd, "timeout": 3600 }] })
    );
    assert_eq!(doc["hooks"]["Stop"], others()["hooks"]["Stop"]);
    assert_eq!(doc["someone"], "else's key");

    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(
        install(&CODEX, &file, &cmd).unwrap(),
        HookInstalled::Already
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    assert_eq!(
        find(&CODEX, &file).unwrap(),
        Some(Found {
            command: cmd,
            timeout: Some(3600)
        })
    );
}

#[test]
fn a_moved_binary_replaces_its_entry_and_uninstall_leaves_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("codex/hooks.json");
    let old = command(&CODEX, Path::new("/opt/old/redline"));
    install(&CODEX, &file, &old).unwrap();
    std::fs::write(&file, {
        let mut doc: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        doc["hooks"]["Stop"] = others()["hooks"]["Stop"].clone();
        doc.to_string()
    })
    .unwrap();
    let moved = command(&CODEX, Path::new("/home/me/my apps/redline"));
    // Quoted for the shell the CLI runs its hooks with: `$SHELL -lc`, or `cmd.exe /C` on Windows.
    let quoted = match cfg!(windows) {
        true => "\"/home/me/my apps/redline\"",
        false => "'/home/me/my apps/redline'",
    };
    assert_eq!(moved, format!("{quoted} hook codex --deny-after 3540"));
    assert_eq!(
        install(&CODEX, &file, &moved).unwrap(),
        HookInstalled::Replaced
    );
    let found = find(&CODEX, &file).unwrap().unwrap();
    assert_eq!(found.command, moved);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);

    assert!(uninstall(&CODEX, &file).unwrap());
    assert!(!uninstall(&CODEX, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        doc,
        json!({ "hooks": { "Stop": others()["hooks"]["Stop"] } })
    );
    assert_eq!(find(&CODEX, &file).unwrap(), None);
}

#[test]
fn a_config_that_is_not_what_it_should_be_is_refused_and_left_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    let cmd = command(&CODEX, Path::new("/usr/bin/redline"));
    for text in [
        "{ not json",
        "[1, 2]",
        r#"{"hooks": []}"#,
        r#"{"hooks": {"PreToolUse": 3}}"#,
    ] {
        std::fs::write(&file, text).unwrap();
        let err = install(&CODEX, &file, &cmd).unwrap_err();
        assert_eq!(err.code(), "hook_config", "{text}: {err}");
        assert!(err.to_string().ends_with("nothing was changed"), "{err}");
        assert!(uninstall(&CODEX, &file).is_err(), "{text}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    }
}

#[test]
fn only_redline_running_this_clis_hook_counts_as_redlines() {
    let site = &CODEX;
    let is = |c: &str| ours(&json!({ "type": "command", "command": c }), site);
    assert!(is("/usr/bin/redline hook codex --deny-after 3540"));
    assert!(is("'/a b/redline' hook codex"));
    assert!(is(r#""C:\Program Files\Redline\redline.exe" hook codex"#));
    assert!(!is("/usr/bin/redline hook claude"));
    assert!(!is("my-redline-wrapper hook codex"));
    assert!(!is("echo redline hook codex-ish"));
}

#[test]
fn a_settings_file_keeps_its_keys_in_their_order() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let text = r#"{"theme": "dark", "model": "x", "hooks": {"Stop": []}, "autoUpdates": false}"#;
    std::fs::write(&file, text).unwrap();
    let site = &crate::clients::CLAUDE_HOOK;
    install(site, &file, &command(site, Path::new("/usr/bin/redline"))).unwrap();
    let written = std::fs::read_to_string(&file).unwrap();
    let at = |k: &str| written.find(&format!("\"{k}\"")).unwrap();
    assert!(
        at("theme") < at("model") && at("model") < at("hooks") && at("hooks") < at("autoUpdates"),
        "{written}"
    );
    assert!(at("Stop") < at("PreToolUse"), "{written}");
}

#[test]
fn the_end_of_turn_hook_goes_in_and_out_beside_anothers_and_an_empty_event_of_theirs_stays() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let theirs = json!({ "hooks": {
        "Stop": [{ "hooks": [{ "type": "command", "command": "notify.sh" }] }],
        "SessionStart": [],
    } });
    std::fs::write(&file, theirs.to_string()).unwrap();
    let site = &crate::clients::CLAUDE_HOOK;
    let program = Path::new("/usr/bin/redline");
    let turn = turn_command(site, program);
    let done = install_all(site, &file, &command_recording(site, program), Some(&turn)).unwrap();
    assert_eq!(done, HookInstalled::Added);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["hooks"]["Stop"][0], theirs["hooks"]["Stop"][0]);
    assert_eq!(
        doc["hooks"]["Stop"][1]["hooks"][0]["command"],
        turn.as_str()
    );
    let status = status(site, &file, program).unwrap();
    assert!(status.current && status.turn_review);

    // Installed again without it: only Redline's Stop entry goes.
    let done = install_all(site, &file, &command(site, program), None).unwrap();
    assert_eq!(done, HookInstalled::Replaced);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["hooks"]["Stop"], theirs["hooks"]["Stop"]);
    assert_eq!(doc["hooks"]["SessionStart"], json!([]));
    assert!(uninstall(site, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc, theirs);
}
