//! A hook for a CLI whose IDE connection already reviews every edit: `hooks status` says none is
//! needed, `hooks install` warns that each edit is asked twice, doctor flags both as a warning,
//! and `hooks uninstall` removes the settings file install created.

use super::Env;
use redline_core::clients::{CLAUDE, CODEX, CURSOR};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;

/// The line of `hooks status` for the CLI named `name`.
fn status_line(env: &Env, name: &str) -> String {
    let said = env.ok(&["hooks", "status"]);
    said.lines()
        .find(|l| l.starts_with(&format!("{name}:")))
        .unwrap_or_else(|| panic!("no line for {name}: {said}"))
        .to_owned()
}

#[test]
fn hooks_status_needs_no_hook_where_the_ide_connection_reviews_and_install_warns() {
    let env = Env::new();
    let claude = status_line(&env, CLAUDE.name);
    assert!(
        claude.contains("none needed") && claude.contains("asked twice"),
        "{claude}"
    );
    assert!(!claude.contains("adds it"), "{claude}");
    let codex = status_line(&env, CODEX.name);
    assert!(codex.contains("adds it"), "{codex}");
    let json = env.json(&["hooks", "status", "--json"]);
    let reviews = |id: &str| {
        json.as_array()
            .unwrap()
            .iter()
            .find(|s| s["cli"] == id)
            .map(|s| s["ideReviews"].clone())
    };
    assert_eq!(reviews(CLAUDE.id), Some(Value::Bool(true)));
    assert_eq!(reviews(CODEX.id), Some(Value::Bool(false)));

    let out = env.run(&["hooks", "install", CLAUDE.id]);
    assert!(out.status.success());
    let warned = String::from_utf8_lossy(&out.stderr);
    assert!(
        warned.contains("asked twice")
            && warned.contains(&format!("redline hooks uninstall {}", CLAUDE.id)),
        "{warned}"
    );
    let out = env.run(&["hooks", "install", CODEX.id]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn uninstall_removes_the_settings_file_install_created_and_only_that() {
    let env = Env::new();
    for (cli, args) in [
        (CLAUDE.id, &[][..]),
        (CLAUDE.id, &["--turn-review"][..]),
        (CODEX.id, &[][..]),
        (CURSOR.id, &[][..]),
    ] {
        let mut install = vec!["hooks", "install", cli];
        install.extend_from_slice(args);
        env.ok(&install);
        let file = hook_file(&env, cli);
        assert!(file.exists(), "{}", file.display());
        env.ok(&["hooks", "uninstall", cli]);
        assert!(!file.exists(), "{cli} {args:?}: {} left", file.display());
    }
    // A file the user had stays, byte for byte, whatever it holds.
    let file = hook_file(&env, CLAUDE.id);
    for theirs in ["{\"model\": \"opus\"}\n", "{}"] {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, theirs).unwrap();
        env.ok(&["hooks", "install", CLAUDE.id]);
        env.ok(&["hooks", "uninstall", CLAUDE.id]);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
    }
}

/// The hook config `hooks status --json` names for a CLI.
fn hook_file(env: &Env, cli: &str) -> std::path::PathBuf {
    let json = env.json(&["hooks", "status", "--json"]);
    let file = json
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["cli"] == cli)
        .and_then(|s| s["file"].as_str())
        .unwrap();
    file.into()
}

#[test]
fn doctor_marks_a_cli_asked_twice_as_a_warning_not_ok() {
    let env = Env::new();
    let bin = env.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join(CLAUDE.binary);
    std::fs::write(&fake, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let _server = super::doctor_fixes::Serving(super::local_review::serving(&env));
    env.ok(&["hooks", "install", CLAUDE.id]);
    let out = env
        .cmd(&["doctor"])
        .env("PATH", &path)
        .env("REDLINE_CONTAINER", "0")
        .current_dir(env.ws())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let twice = said
        .lines()
        .find(|l| l.contains("asked twice"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        twice.starts_with(&format!("[warn] {}", CLAUDE.name)),
        "{twice}"
    );
}
