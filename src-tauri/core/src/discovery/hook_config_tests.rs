//! Redline's hook merged into, found in and taken out of a real config file.

use super::*;
use crate::clients::HookCli;

const CODEX: HookCli = HookCli::of_cli(&crate::clients::CODEX);
use crate::discovery::hook_entry::ours;

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
    assert_eq!(
        install(&CODEX, &file, Path::new("/usr/bin/redline")).unwrap(),
        HookInstalled::Added
    );
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
        install(&CODEX, &file, Path::new("/usr/bin/redline")).unwrap(),
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
    install(&CODEX, &file, Path::new("/opt/old/redline")).unwrap();
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
        install(&CODEX, &file, Path::new("/home/me/my apps/redline")).unwrap(),
        HookInstalled::Replaced
    );
    let found = find(&CODEX, &file).unwrap().unwrap();
    assert_eq!(found.command, moved);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);

    assert!(uninstall(&CODEX, &file).unwrap());
    assert!(!uninstall(&CODEX, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // The file was rewritten compact by hand since: the event list Redline made is not told
    // from one of the user's, so it stays, empty.
    assert_eq!(
        doc,
        json!({ "hooks": { "PreToolUse": [], "Stop": others()["hooks"]["Stop"] } })
    );
    assert_eq!(find(&CODEX, &file).unwrap(), None);
}

#[test]
fn a_config_that_is_not_what_it_should_be_is_refused_and_left_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    for text in [
        "{ not json",
        "[1, 2]",
        r#"{"hooks": []}"#,
        r#"{"hooks": {"PreToolUse": 3}}"#,
    ] {
        std::fs::write(&file, text).unwrap();
        let err = install(&CODEX, &file, Path::new("/usr/bin/redline")).unwrap_err();
        assert_eq!(
            err.code(),
            crate::error::FaultCode::HookConfig,
            "{text}: {err}"
        );
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
    let site = &HookCli::of_cli(&crate::clients::CLAUDE);
    install(site, &file, Path::new("/usr/bin/redline")).unwrap();
    let written = std::fs::read_to_string(&file).unwrap();
    let at = |k: &str| written.find(&format!("\"{k}\"")).unwrap();
    assert!(
        at("theme") < at("model") && at("model") < at("hooks") && at("hooks") < at("autoUpdates"),
        "{written}"
    );
    assert!(at("Stop") < at("PreToolUse"), "{written}");
}

#[test]
fn cursors_hooks_json_gets_a_flat_entry_beside_the_users_and_loses_only_it() {
    let site = &HookCli::of_cli(&crate::clients::CURSOR);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join(".cursor/hooks.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let theirs = json!({
        "version": 1,
        "hooks": {
            "preToolUse": [{ "command": "./hooks/audit.sh", "matcher": "Shell" }],
            "afterFileEdit": [{ "command": "./hooks/format.sh" }],
        },
    });
    std::fs::write(&file, theirs.to_string()).unwrap();
    let cmd = command(site, Path::new("/usr/bin/redline"));
    assert_eq!(cmd, "/usr/bin/redline hook cursor --deny-after 3540");
    assert_eq!(
        install(site, &file, Path::new("/usr/bin/redline")).unwrap(),
        HookInstalled::Added
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["version"], 1);
    let pre = doc["hooks"]["preToolUse"].as_array().unwrap();
    assert_eq!(pre[0], theirs["hooks"]["preToolUse"][0]);
    assert_eq!(
        pre[1],
        json!({ "command": cmd, "matcher": "Write|Edit|StrReplace", "timeout": 3600 })
    );
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(
        install(site, &file, Path::new("/usr/bin/redline")).unwrap(),
        HookInstalled::Already
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    assert_eq!(find(site, &file).unwrap().unwrap().timeout, Some(3600));
    // Another CLI's hook line is not Cursor's.
    assert_eq!(find(&CODEX, &file).unwrap(), None);

    assert!(uninstall(site, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc, theirs);
    assert!(!uninstall(site, &file).unwrap());

    // A new file says the schema version Cursor requires.
    let fresh = tmp.path().join("new/hooks.json");
    install(site, &fresh, Path::new("/usr/bin/redline")).unwrap();
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&fresh).unwrap()).unwrap();
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["hooks"]["preToolUse"].as_array().unwrap().len(), 1);
    assert!(uninstall(site, &fresh).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&fresh).unwrap()).unwrap();
    assert_eq!(doc, json!({ "version": 1 }));
}

#[test]
fn kiros_hook_is_a_file_of_redlines_own_in_the_kiro_v3_shape_gone_on_uninstall() {
    let site = &HookCli::of_cli(&crate::clients::KIRO);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".kiro/hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let theirs = r#"{"version":"v1","hooks":[{"name":"lint","trigger":"PostFileSave","action":{"type":"command","command":"npm run lint"}}]}"#;
    std::fs::write(dir.join("lint.json"), theirs).unwrap();
    let file = dir.join("redline.json");
    assert_eq!(
        install(site, &file, Path::new("/usr/bin/redline")).unwrap(),
        HookInstalled::Added
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        doc,
        json!({ "version": "v1", "hooks": [{
            "name": "redline-review", "trigger": "PreToolUse", "matcher": "fs_write|write|str_replace",
            "action": { "type": "command", "command": "/usr/bin/redline hook kiro --deny-after 3540" },
            "timeout": 3600, "enabled": true,
        }] })
    );
    assert_eq!(
        install(site, &file, Path::new("/usr/bin/redline")).unwrap(),
        HookInstalled::Already
    );
    let moved = command(site, Path::new("/opt/redline"));
    assert_eq!(
        install(site, &file, Path::new("/opt/redline")).unwrap(),
        HookInstalled::Replaced
    );
    assert_eq!(find(site, &file).unwrap().unwrap().command, moved);
    assert!(uninstall(site, &file).unwrap());
    assert!(!file.exists(), "Redline's own file, left empty, goes");
    assert_eq!(
        std::fs::read_to_string(dir.join("lint.json")).unwrap(),
        theirs
    );
    assert!(!uninstall(site, &file).unwrap());

    // A hook the user added to Redline's file keeps the file.
    install(site, &file, Path::new("/usr/bin/redline")).unwrap();
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    doc["hooks"].as_array_mut().unwrap().push(
        json!({ "name": "mine", "trigger": "Stop", "action": { "type": "agent", "prompt": "p" } }),
    );
    std::fs::write(&file, doc.to_string()).unwrap();
    assert!(uninstall(site, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(doc["hooks"][0]["name"], "mine");

    // A key of the user's beside an emptied list keeps the file, and the key.
    std::fs::write(&file, r#"{"version":"v1","hooks":[],"note":"mine"}"#).unwrap();
    install(site, &file, Path::new("/usr/bin/redline")).unwrap();
    assert!(uninstall(site, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc, json!({ "version": "v1", "hooks": [], "note": "mine" }));
}

#[test]
fn copilots_hook_is_a_file_of_its_own_written_once_and_removed_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let site = &HookCli::of_cli(&crate::clients::COPILOT);
    // The home directory as each OS names it.
    let home = tmp.path().to_string_lossy().into_owned();
    let dirs = crate::platform::dirs::Dirs::resolve(
        &[
            ("HOME".to_owned(), home.clone()),
            ("USERPROFILE".to_owned(), home),
        ]
        .into_iter()
        .collect(),
    );
    let file = dirs.locate(&site.config);
    assert_eq!(
        file,
        tmp.path()
            .join(".copilot")
            .join("hooks")
            .join("redline.json")
    );
    // The user's own hook file beside it is never touched.
    let theirs = tmp.path().join(".copilot/hooks/audit.json");
    std::fs::create_dir_all(theirs.parent().unwrap()).unwrap();
    std::fs::write(
        &theirs,
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"audit.sh"}]}}"#,
    )
    .unwrap();
    let cmd = command(site, Path::new("/usr/bin/redline"));
    assert_eq!(cmd, "/usr/bin/redline hook copilot --deny-after 3540");

    assert_eq!(
        install(site, &file, Path::new("/usr/bin/redline")).unwrap(),
        HookInstalled::Added
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let shell = if cfg!(windows) { "powershell" } else { "bash" };
    let mut entry = json!({ "type": "command", "matcher": "^(edit|create)$", "timeoutSec": 3600 });
    entry[shell] = json!(cmd);
    assert_eq!(
        doc,
        json!({ "version": 1, "hooks": { "preToolUse": [entry] } })
    );
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(
        install(site, &file, Path::new("/usr/bin/redline")).unwrap(),
        HookInstalled::Already
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    assert_eq!(
        find(site, &file).unwrap(),
        Some(Found {
            command: cmd,
            timeout: Some(3600)
        })
    );

    let moved = command(site, Path::new("/opt/new/redline"));
    assert_eq!(
        install(site, &file, Path::new("/opt/new/redline")).unwrap(),
        HookInstalled::Replaced
    );
    assert_eq!(find(site, &file).unwrap().unwrap().command, moved);

    assert!(uninstall(site, &file).unwrap());
    assert!(!file.exists());
    assert!(!uninstall(site, &file).unwrap());
    assert_eq!(find(site, &file).unwrap(), None);
    assert!(theirs.exists());
}

#[test]
fn a_file_named_like_copilots_hook_that_is_not_redlines_is_refused_and_left() {
    let tmp = tempfile::tempdir().unwrap();
    let site = &HookCli::of_cli(&crate::clients::COPILOT);
    let file = tmp.path().join("hooks/redline.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    for text in [
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"my-lint.sh"}]}}"#,
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/usr/bin/redline hook claude"}]}}"#,
        "{ not json",
        "",
        // Redline's entry with the user's own added beside it: theirs is never dropped.
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/usr/bin/redline hook copilot"},{"type":"command","bash":"my-lint.sh"}]}}"#,
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/usr/bin/redline hook copilot"}],"sessionEnd":[{"type":"command","bash":"notify.sh"}]}}"#,
    ] {
        std::fs::write(&file, text).unwrap();
        let err = install(site, &file, Path::new("/usr/bin/redline")).unwrap_err();
        assert_eq!(
            err.code(),
            crate::error::FaultCode::HookConfig,
            "{text}: {err}"
        );
        assert!(err.to_string().ends_with("nothing was changed"), "{err}");
        let err = uninstall(site, &file).unwrap_err();
        assert_eq!(
            err.code(),
            crate::error::FaultCode::HookConfig,
            "{text}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    }
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
    let site = &HookCli::of_cli(&crate::clients::CLAUDE);
    let program = Path::new("/usr/bin/redline");
    let turn = turn_command(site, program);
    let done = install_for(site, &file, program, true).unwrap();
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
    let done = install_for(site, &file, program, false).unwrap();
    assert_eq!(done, HookInstalled::Replaced);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["hooks"]["Stop"], theirs["hooks"]["Stop"]);
    assert_eq!(doc["hooks"]["SessionStart"], json!([]));
    assert!(uninstall(site, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc, theirs);
}

#[test]
fn an_end_of_turn_hook_without_its_prompt_hook_is_an_install_to_run_again() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let site = &HookCli::of_cli(&crate::clients::CLAUDE);
    let program = Path::new("/usr/bin/redline");
    install_for(site, &file, program, true).unwrap();
    assert!(status(site, &file, program).unwrap().current);
    // As an install from before there was a prompt hook: the end-of-turn hook alone.
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    doc["hooks"]
        .as_object_mut()
        .unwrap()
        .remove("UserPromptSubmit");
    std::fs::write(&file, doc.to_string()).unwrap();
    let stale = status(site, &file, program).unwrap();
    assert!(
        !stale.current,
        "an end-of-turn hook without its prompt hook is stale"
    );
    assert_eq!(stale.review, Some(ReviewMode::Both));
    install_for(site, &file, program, true).unwrap();
    assert!(status(site, &file, program).unwrap().current);
}

// Issue 37, finding 5: each reproduction as it was filed.

#[test]
fn a_users_group_holding_redlines_entry_keeps_its_matcher_and_its_bash_guard() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let site = &HookCli::of_cli(&crate::clients::CLAUDE);
    let program = Path::new("/usr/bin/redline");
    let theirs = json!({ "matcher": "Bash|Write|Edit", "hooks": [
        { "type": "command", "command": "~/.claude/hooks/block-rm-rf.sh" },
        { "type": "command", "command": command(site, program), "timeout": 3600 },
    ] });
    std::fs::write(
        &file,
        json!({ "hooks": { "PreToolUse": [theirs] } }).to_string(),
    )
    .unwrap();
    install(site, &file, program).unwrap();
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let groups = doc["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups[0]["matcher"], "Bash|Write|Edit", "{doc}");
    assert_eq!(
        groups[0]["hooks"][0]["command"],
        "~/.claude/hooks/block-rm-rf.sh"
    );
    // Redline's entry runs from a group of its own, on its own matcher.
    assert_eq!(groups.len(), 2, "{doc}");
    assert_eq!(groups[1]["matcher"], "Write|Edit");
    assert_eq!(groups[1]["hooks"].as_array().unwrap().len(), 1);
    assert!(uninstall(site, &file).unwrap());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let groups = doc["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{doc}");
    assert_eq!(groups[0]["matcher"], "Bash|Write|Edit");
    assert_eq!(
        groups[0]["hooks"][0]["command"],
        "~/.claude/hooks/block-rm-rf.sh"
    );
}

#[test]
fn a_users_command_that_mentions_redline_hook_claude_is_the_users() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let site = &HookCli::of_cli(&crate::clients::CLAUDE);
    let program = Path::new("/usr/bin/redline");
    for mine in [
        "/usr/bin/redline hook claude && ./after.sh",
        "echo redline hook claude >> ~/hooks.log",
        "redline hook claude --verbose",
    ] {
        let text = json!({ "hooks": { "PreToolUse": [
            { "matcher": "Write|Edit", "hooks": [{ "type": "command", "command": mine }] },
        ] } })
        .to_string();
        std::fs::write(&file, &text).unwrap();
        assert_eq!(find(site, &file).unwrap(), None, "{mine}");
        assert!(!uninstall(site, &file).unwrap(), "{mine}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
        install(site, &file, program).unwrap();
        assert!(std::fs::read_to_string(&file).unwrap().contains(mine));
        assert!(uninstall(site, &file).unwrap());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "{mine}");
    }
}

#[cfg(unix)]
#[test]
fn numbers_a_duplicate_key_and_the_files_mode_survive_install_and_uninstall() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let site = &HookCli::of_cli(&crate::clients::CLAUDE);
    let text = "{\n  \"big\": 99999999999999999999,\n  \"hundred\": 1e2,\n  \"env\": \"a\",\n  \"env\": \"b\"\n}\n";
    std::fs::write(&file, text).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    install(site, &file, Path::new("/usr/bin/redline")).unwrap();
    let installed = std::fs::read_to_string(&file).unwrap();
    for kept in [
        "99999999999999999999",
        "\"hundred\": 1e2",
        "\"env\": \"a\"",
        "\"env\": \"b\"",
    ] {
        assert!(installed.contains(kept), "{kept} in {installed}");
    }
    let mode = |f: &Path| std::fs::metadata(f).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o644);
    assert!(uninstall(site, &file).unwrap());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(mode(&file), 0o644);
}
