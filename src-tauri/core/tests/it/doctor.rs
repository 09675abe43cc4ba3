//! `doctor` fed fixture directories: a real companion on real sockets in temp dirs, fake CLI
//! installs on a fixture PATH, other IDEs' files, owners, PIDs (an injected process table) and
//! environments; one test per verdict.

#![cfg(unix)]

use redline_core::clients;
use redline_core::doctor::{self, Facts, Place, Report, Verdict};
use redline_core::platform::process::ProcessTable;
use redline_core::workspace::config::Config;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Alive(HashSet<u32>);
impl ProcessTable for Alive {
    fn is_alive(&self, pid: u32) -> bool {
        self.0.contains(&pid)
    }
}

/// A fake npm install of a CLI: `bin/<cmd>` linked to the package's script.
pub(crate) fn install(root: &Path, cmd: &str, package: &str, version: &str) {
    let pkg = root.join("lib/node_modules").join(package);
    std::fs::create_dir_all(pkg.join("dist")).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        json!({"name": package, "version": version}).to_string(),
    )
    .unwrap();
    let script = pkg.join("dist/index.js");
    std::fs::write(&script, "#!/usr/bin/env node\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    let link = root.join("bin").join(cmd);
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&script, link).unwrap();
}

fn install_all(root: &Path) {
    install(root, "gemini", "@google/gemini-cli", "0.61.0");
    install(root, "qwen", "@qwen-code/qwen-code", "0.24.4");
    install(root, "claude", "@anthropic-ai/claude-code", "2.1.330");
    install(root, "copilot", "@github/copilot", "1.0.102");
    install(root, "amp", "@sourcegraph/amp", "0.0.1790142911-g7618fb");
}

pub(crate) fn enable_ide_mode(root: &Path) {
    let home = root.join("home");
    for dir in [".gemini", ".qwen"] {
        std::fs::create_dir_all(home.join(dir)).unwrap();
        std::fs::write(
            home.join(dir).join("settings.json"),
            r#"{"ide": {"enabled": true}}"#,
        )
        .unwrap();
    }
}

fn root_of(fx: &crate::common::Fixture) -> PathBuf {
    dunce::canonicalize(fx.tmp.path()).unwrap()
}

async fn facts(fx: &crate::common::Fixture) -> Facts {
    let root = root_of(fx);
    let env: HashMap<String, String> = [
        ("PATH", root.join("bin")),
        ("HOME", root.join("home")),
        ("TMPDIR", root.join("tmp")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_string_lossy().into_owned()))
    .collect();
    std::fs::create_dir_all(root.join("fsroot")).unwrap();
    Facts {
        dir: fx.ws.clone(),
        env,
        dirs: fx.dirs.clone(),
        uid: Some(unsafe_uid()),
        procs: Arc::new(Alive([std::process::id()].into_iter().collect())),
        ancestors: vec![],
        root: root.join("fsroot"),
        redline: Some(fx.instance.status().await),
        config: Config::default(),
        case_insensitive: false,
        clis: clients::served().collect(),
    }
}

fn unsafe_uid() -> u32 {
    // SAFETY: getuid cannot fail and touches no memory.
    unsafe { libc::getuid() }
}

fn cli<'a>(report: &'a Report, id: &str) -> &'a doctor::CliReport {
    report.clis.iter().find(|c| c.id == id).unwrap()
}

fn fix(report: &Report, id: &str) -> String {
    cli(report, id).fix.as_ref().unwrap().command.clone()
}

fn gemini_file(fx: &crate::common::Fixture) -> PathBuf {
    fx.dirs.discovery(&clients::GEMINI).join(format!(
        "gemini-ide-server-{}-{}.json",
        std::process::id(),
        fx.port
    ))
}

fn qwen_file(fx: &crate::common::Fixture) -> PathBuf {
    fx.dirs
        .discovery(&clients::QWEN)
        .join(format!("{}.lock", fx.port))
}

fn edit(path: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, v.to_string()).unwrap();
}

#[tokio::test]
async fn every_installed_cli_connects_and_the_token_is_checked_end_to_end() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "gemini", "@google/gemini-cli", "0.61.0");
    install(&root, "qwen", "@qwen-code/qwen-code", "0.24.4");
    enable_ide_mode(&root);
    let report = doctor::diagnose(&facts(&fx).await).await;
    for id in ["gemini", "qwen"] {
        let c = cli(&report, id);
        assert_eq!(c.verdict, Verdict::Connects, "{id}: {}", c.reason);
        assert_eq!(c.port, Some(fx.port));
        assert!(
            matches!(&c.probe, Some(doctor::probe::Probe::Answered { server, .. }) if server == "redline")
        );
        assert_eq!(
            c.installed.as_ref().unwrap().version.as_deref(),
            Some(if id == "gemini" { "0.61.0" } else { "0.24.4" })
        );
    }
    assert_eq!(cli(&report, "gemini").file, Some(gemini_file(&fx)));
    assert_eq!(cli(&report, "claude").verdict, Verdict::NotInstalled);
    assert!(report.ok, "{}", doctor::render(&report));
    // The probe ended its session (DELETE): no CLI is left listed as connected. The session
    // ends on rmcp's task after the DELETE is answered, so poll for it.
    tokio::time::timeout(crate::common::WAIT, async {
        while !fx.instance.status().await.workspaces[0].clients.is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the probe's session ends");
    let text = doctor::render(&report);
    assert!(
        text.contains("[ok] Gemini CLI 0.61.0: Gemini CLI will connect"),
        "{text}"
    );
    assert!(text.contains("[-] Claude Code"), "{text}");
}

#[tokio::test]
async fn nothing_installed_is_no_success_and_says_how_to_install_one() {
    let fx = crate::common::start().await;
    let report = doctor::diagnose(&facts(&fx).await).await;
    assert!(report
        .clis
        .iter()
        .all(|c| c.verdict == Verdict::NotInstalled));
    assert!(!report.ok);
    assert_eq!(
        cli(&report, "gemini")
            .fix
            .as_ref()
            .map(|f| f.command.as_str()),
        Some("npm install -g @google/gemini-cli")
    );
    let text = doctor::render(&report);
    assert!(
        text.contains("None of the CLIs that connect to Redline"),
        "{text}"
    );
    // Named from the one list: a CLI added there is named here too.
    for cli in redline_core::clients::ALL {
        assert!(text.contains(cli.name), "no {}: {text}", cli.name);
    }
    assert!(!text.contains("will connect."), "{text}");
}

#[tokio::test]
async fn ide_mode_off_is_fixed_inside_the_cli_and_claude_is_told_how_to_connect() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    let report = doctor::diagnose(&facts(&fx).await).await;
    let g = cli(&report, "gemini");
    assert_eq!(g.verdict, Verdict::IdeDisabled);
    assert_eq!(g.fix.as_ref().unwrap().place, Place::Cli);
    assert_eq!(fix(&report, "gemini"), "/ide enable");
    assert!(g.reason.contains(".gemini/settings.json"), "{}", g.reason);
    assert_eq!(cli(&report, "qwen").verdict, Verdict::IdeDisabled);
    // Claude Code has no setting to turn on: it connects on `--ide`, `/ide` or autoConnectIde.
    let c = cli(&report, "claude");
    assert_eq!(c.verdict, Verdict::Connects, "{}", c.reason);
    assert!(
        c.notes.iter().any(|n| n.contains("claude --ide")),
        "{:?}",
        c.notes
    );
    assert!(!report.ok);
}

#[tokio::test]
async fn not_running_says_how_to_start_and_mentions_the_missing_workspace() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    let mut f = facts(&fx).await;
    f.redline = None;
    let report = doctor::diagnose(&f).await;
    for c in &report.clis {
        assert_eq!(c.verdict, Verdict::NotRunning);
    }
    assert_eq!(fix(&report, "gemini"), "redline serve --headless");
    assert!(cli(&report, "gemini").notes[0].contains("redline workspace add"));
    f.env.insert("DISPLAY".into(), ":0".into());
    let report = doctor::diagnose(&f).await;
    assert_eq!(fix(&report, "qwen"), "redline");
    assert!(!report.ok);
}

#[tokio::test]
async fn in_a_container_without_redline_points_at_redline_container() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    let mut f = facts(&fx).await;
    f.redline = None;
    std::fs::write(f.root.join(".dockerenv"), "").unwrap();
    let report = doctor::diagnose(&f).await;
    assert!(report.container);
    assert_eq!(cli(&report, "gemini").verdict, Verdict::Container);
    // Nothing run in here would help: the fix says what to run on the host, naming the
    // workspace (the bare command is a usage error, and the directory may be no workspace).
    let found = cli(&report, "gemini").fix.clone().unwrap();
    assert_eq!(found.place, doctor::Place::Advice);
    assert!(
        found.command.starts_with("on the host, ")
            && found.command.contains("`redline container enable "),
        "{}",
        found.command
    );
}

#[tokio::test]
async fn gemini_in_a_container_needs_remote_containers_to_reach_a_local_redline() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "gemini", "@google/gemini-cli", "0.61.0");
    enable_ide_mode(&root);
    let mut f = facts(&fx).await;
    std::fs::create_dir_all(f.root.join("run")).unwrap();
    std::fs::write(f.root.join("run/.containerenv"), "").unwrap();
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "gemini").verdict, Verdict::ContainerHost);
    assert_eq!(fix(&report, "gemini"), "export REMOTE_CONTAINERS=1");
    f.env.insert("REMOTE_CONTAINERS".into(), "1".into());
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "gemini").verdict, Verdict::Connects);
}

#[tokio::test]
async fn a_directory_outside_every_workspace_offers_workspace_add() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    let mut f = facts(&fx).await;
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    f.dir = elsewhere.clone();
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "qwen").verdict, Verdict::NoWorkspace);
    assert_eq!(
        fix(&report, "qwen"),
        format!("redline workspace add {}", elsewhere.display())
    );
}

#[tokio::test]
async fn a_workspace_that_is_off_offers_workspace_enable() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    fx.instance
        .workspaces()
        .set_enabled(&fx.ws, false)
        .await
        .unwrap();
    let mut f = facts(&fx).await;
    let sub = fx.ws.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    f.dir = sub;
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "gemini").verdict, Verdict::WorkspaceOff);
    assert_eq!(
        fix(&report, "gemini"),
        format!("redline workspace enable {}", fx.ws.display())
    );
}

#[tokio::test]
async fn a_missing_file_or_one_written_for_another_environment_is_explained() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    enable_ide_mode(&root);
    std::fs::remove_file(gemini_file(&fx)).unwrap();
    let report = doctor::diagnose(&facts(&fx).await).await;
    let g = cli(&report, "gemini");
    assert_eq!(g.verdict, Verdict::FileMissing, "{}", g.reason);
    assert!(fix(&report, "gemini").contains("redline workspace disable"));
    assert_eq!(cli(&report, "qwen").verdict, Verdict::Connects);

    // This shell's TMPDIR and HOME differ from Redline's: the CLIs would look elsewhere.
    let mut f = facts(&fx).await;
    let other = root.join("other");
    f.dirs.tmp = other.join("tmp");
    f.dirs.home = other.join("home");
    let report = doctor::diagnose(&f).await;
    let q = cli(&report, "qwen");
    assert_eq!(q.verdict, Verdict::FileElsewhere, "{}", q.reason);
    assert!(q.reason.contains(&qwen_file(&fx).display().to_string()));
    assert!(fix(&report, "qwen").starts_with("redline quit && "));
}

#[tokio::test]
async fn files_the_cli_skips_say_why() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    enable_ide_mode(&root);
    // Gemini CLI skips files another uid owns.
    let mut f = facts(&fx).await;
    f.uid = Some(unsafe_uid() + 4242);
    let report = doctor::diagnose(&f).await;
    let g = cli(&report, "gemini");
    assert_eq!(g.verdict, Verdict::FileSkipped);
    assert!(g.reason.contains("owned by another user"), "{}", g.reason);
    assert!(fix(&report, "gemini").starts_with("sudo rm "));
    assert_eq!(cli(&report, "qwen").verdict, Verdict::Connects);

    // Qwen Code deletes a lock whose ppid is dead.
    edit(&qwen_file(&fx), |v| v["ppid"] = json!(999_999));
    let report = doctor::diagnose(&facts(&fx).await).await;
    let q = cli(&report, "qwen");
    assert_eq!(q.verdict, Verdict::FileSkipped);
    assert!(
        q.reason.contains("process 999999 is not running"),
        "{}",
        q.reason
    );

    // A file that cannot be read (here: a directory where the file should be).
    std::fs::remove_file(qwen_file(&fx)).unwrap();
    std::fs::create_dir(qwen_file(&fx)).unwrap();
    let report = doctor::diagnose(&facts(&fx).await).await;
    let q = cli(&report, "qwen");
    assert_eq!(q.verdict, Verdict::FileSkipped);
    assert!(q.reason.contains("cannot be read"), "{}", q.reason);
}

fn other_ide_file(dir: &Path, name: &str, ws: &Path, port: u16, pid: u32) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    std::fs::write(
        &p,
        json!({"port": port, "workspacePath": ws, "ppid": pid, "authToken": "x",
               "ideInfo": {"name": "vscode", "displayName": "VS Code"}})
        .to_string(),
    )
    .unwrap();
    p
}

#[tokio::test]
async fn another_ides_file_picked_first_is_a_shadow_and_the_port_variable_decides() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    enable_ide_mode(&root);
    let terminal_pid = 777_001;
    // Gemini CLI tries the IDE in its own process tree first (a VS Code terminal).
    other_ide_file(
        &fx.dirs.discovery(&clients::GEMINI),
        &format!("gemini-ide-server-{terminal_pid}-1.json"),
        &fx.ws,
        1,
        terminal_pid,
    );
    // Qwen Code tries the newest lock first; this one is written after Redline's.
    other_ide_file(
        &fx.dirs.discovery(&clients::QWEN),
        "2.lock",
        &fx.ws,
        2,
        std::process::id(),
    );
    let mut f = facts(&fx).await;
    f.ancestors = vec![terminal_pid];
    let report = doctor::diagnose(&f).await;
    for id in ["gemini", "qwen"] {
        let c = cli(&report, id);
        assert_eq!(c.verdict, Verdict::Shadowed, "{id}: {}", c.reason);
        assert!(c.reason.contains("VS Code"), "{}", c.reason);
        assert_eq!(fix(&report, id), "eval \"$(redline env)\"");
    }
    // What `redline env` exports makes Redline's file win.
    f.env
        .insert("GEMINI_CLI_IDE_SERVER_PORT".into(), fx.port.to_string());
    f.env
        .insert("QWEN_CODE_IDE_SERVER_PORT".into(), fx.port.to_string());
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "gemini").verdict, Verdict::Connects);
    assert_eq!(cli(&report, "qwen").verdict, Verdict::Connects);

    // Outside a VS Code terminal Redline's file would win, but the variable points elsewhere.
    f.ancestors.clear();
    f.env
        .insert("GEMINI_CLI_IDE_SERVER_PORT".into(), "1".into());
    let report = doctor::diagnose(&f).await;
    let g = cli(&report, "gemini");
    assert_eq!(g.verdict, Verdict::Shadowed);
    assert!(
        g.reason
            .contains("GEMINI_CLI_IDE_SERVER_PORT=1 in this shell picks it"),
        "{}",
        g.reason
    );
    f.env.remove("GEMINI_CLI_IDE_SERVER_PORT");
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "gemini").verdict, Verdict::Connects);
}

#[tokio::test]
async fn a_wrong_token_or_a_dead_port_fails_the_end_to_end_check() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "gemini", "@google/gemini-cli", "0.61.0");
    install(&root, "qwen", "@qwen-code/qwen-code", "0.24.4");
    enable_ide_mode(&root);
    edit(&gemini_file(&fx), |v| {
        v["authToken"] = json!("0".repeat(64))
    });
    let report = doctor::diagnose(&facts(&fx).await).await;
    let g = cli(&report, "gemini");
    assert_eq!(g.verdict, Verdict::TokenRefused, "{}", g.reason);
    assert_eq!(
        fix(&report, "gemini"),
        format!("redline token rotate {}", fx.ws.display())
    );
    assert_eq!(cli(&report, "qwen").verdict, Verdict::Connects);
    assert!(!report.ok);
}

#[tokio::test]
async fn a_known_bad_version_asks_for_an_update() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "gemini", "@google/gemini-cli", "0.1.0");
    let mut f = facts(&fx).await;
    let mut gemini = clients::GEMINI.served().unwrap();
    gemini.ide.doctor.known_bad = &[clients::KnownBad {
        below: "0.2.0",
        why: "no ideInfo support",
    }];
    f.clis = vec![gemini];
    let report = doctor::diagnose(&f).await;
    let g = cli(&report, "gemini");
    assert_eq!(g.verdict, Verdict::VersionKnownBad);
    assert!(g.reason.contains("0.1.0"));
    assert_eq!(
        fix(&report, "gemini"),
        "npm install -g @google/gemini-cli@latest"
    );
}

fn claude_lock(dir: &Path, port: u16, ws: &Path, token: &str, ide: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(format!("{port}.lock"));
    std::fs::write(
        &p,
        json!({"pid": std::process::id(), "workspaceFolders": [ws], "ideName": ide,
               "transport": "ws", "runningInWindows": false, "authToken": token})
        .to_string(),
    )
    .unwrap();
    p
}

#[tokio::test]
async fn claude_code_is_checked_over_a_websocket_handshake_and_initialize() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "claude", "@anthropic-ai/claude-code", "2.1.330");
    // Redline's own lock and WebSocket server, probed for real.
    let ws_port = fx.ws_port;
    let lock = fx
        .dirs
        .discovery(&clients::CLAUDE)
        .join(format!("{ws_port}.lock"));
    assert!(lock.exists(), "Redline wrote its Claude Code lock");
    let mut f = facts(&fx).await;
    f.clis = vec![clients::CLAUDE.served().unwrap()];
    let report = doctor::diagnose(&f).await;
    let c = cli(&report, "claude");
    assert_eq!(c.verdict, Verdict::Connects, "{}", c.reason);
    assert!(
        matches!(&c.probe, Some(doctor::probe::Probe::Answered { server, .. }) if server == "redline")
    );
    assert!(
        c.notes.iter().any(|n| n.contains("claude --ide")),
        "{:?}",
        c.notes
    );

    // autoConnectIde: it connects at start.
    std::fs::write(
        root.join("home/.claude.json"),
        r#"{"autoConnectIde": true}"#,
    )
    .unwrap();
    let report = doctor::diagnose(&f).await;
    assert!(cli(&report, "claude")
        .notes
        .iter()
        .any(|n| n.contains("autoConnectIde")));

    // A wrong token is refused at the upgrade.
    edit(&lock, |v| v["authToken"] = json!("wrong"));
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "claude").verdict, Verdict::TokenRefused);

    // A lock whose pid is dead is deleted by Claude Code.
    edit(&lock, |v| {
        v["authToken"] = json!(fx.token);
        v["pid"] = json!(999_999);
    });
    let report = doctor::diagnose(&f).await;
    assert_eq!(cli(&report, "claude").verdict, Verdict::FileSkipped);

    // CLAUDE_CODE_SSE_PORT set to another IDE's lock makes that one win.
    edit(&lock, |v| v["pid"] = json!(std::process::id()));
    claude_lock(
        &fx.dirs.discovery(&clients::CLAUDE),
        3,
        &root.join("elsewhere"),
        "t",
        "Cursor",
    );
    f.env.insert("CLAUDE_CODE_SSE_PORT".into(), "3".into());
    let report = doctor::diagnose(&f).await;
    let c = cli(&report, "claude");
    assert_eq!(c.verdict, Verdict::Shadowed, "{}", c.reason);
    assert_eq!(
        fix(&report, "claude"),
        format!("export CLAUDE_CODE_SSE_PORT={ws_port}")
    );
}

/// Copilot CLI's lock of the fixture's workspace (the one without a folder tag).
fn copilot_lock(fx: &crate::common::Fixture) -> PathBuf {
    fx.dirs.discovery(&clients::COPILOT).join(format!(
        "redline-{}-{}.lock",
        std::process::id(),
        fx.port
    ))
}

fn copilot_settings(root: &Path, ide: Value) {
    let dir = root.join("home/.copilot");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("settings.json"), json!({ "ide": ide }).to_string()).unwrap();
}

#[tokio::test]
async fn copilot_connects_over_its_socket_and_a_forged_secret_is_refused() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "copilot", "@github/copilot", "1.0.102");
    let report = doctor::diagnose(&facts(&fx).await).await;
    let c = cli(&report, "copilot");
    assert_eq!(c.verdict, Verdict::Connects, "{}", c.reason);
    assert_eq!(c.file, Some(copilot_lock(&fx)));
    assert!(c.reason.contains(".sock"), "{}", c.reason);
    assert!(
        matches!(&c.probe, Some(doctor::probe::Probe::Answered { server, .. }) if server == "redline"),
        "{:?}",
        c.probe
    );
    assert_eq!(
        c.installed.as_ref().unwrap().version.as_deref(),
        Some("1.0.102")
    );
    edit(&copilot_lock(&fx), |v| {
        v["headers"]["Authorization"] = json!("Bearer forged")
    });
    let report = doctor::diagnose(&facts(&fx).await).await;
    assert_eq!(cli(&report, "copilot").verdict, Verdict::TokenRefused);
}

#[tokio::test]
async fn copilot_in_a_subfolder_is_told_redline_writes_its_lock_and_settings_that_stop_it() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "copilot", "@github/copilot", "1.0.102");
    let sub = fx.ws.join("server");
    std::fs::create_dir_all(&sub).unwrap();
    let mut f = facts(&fx).await;
    f.dir = sub.clone();
    let report = doctor::diagnose(&f).await;
    let c = cli(&report, "copilot");
    assert_eq!(c.verdict, Verdict::Connects, "{}", c.reason);
    assert!(
        c.notes
            .iter()
            .any(|n| n.contains("lists exactly") && n.contains("/ide")),
        "{:?}",
        c.notes
    );
    copilot_settings(&root, json!({"autoConnect": false}));
    let report = doctor::diagnose(&facts(&fx).await).await;
    let c = cli(&report, "copilot");
    assert_eq!(c.verdict, Verdict::IdeDisabled);
    assert!(c.reason.contains("ide.autoConnect"), "{}", c.reason);
    assert_eq!(fix(&report, "copilot"), "/ide");
    assert_eq!(c.fix.as_ref().unwrap().place, Place::Cli);
    copilot_settings(&root, json!({"openDiffOnEdit": false}));
    let report = doctor::diagnose(&facts(&fx).await).await;
    let c = cli(&report, "copilot");
    assert_eq!(c.verdict, Verdict::IdeDisabled);
    assert!(c.reason.contains("ide.openDiffOnEdit"), "{}", c.reason);
}

#[tokio::test]
async fn codex_says_whether_its_ide_on_finds_redline_from_this_folder() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install_all(&root);
    install(&root, "codex", "@openai/codex", "0.171.0");
    let codex = |r: &Report| r.context.iter().find(|c| c.id == "codex").unwrap().clone();

    let report = doctor::diagnose(&facts(&fx).await).await;
    let c = codex(&report);
    let socket = redline_core::protocols::codex_ipc::socket::path(&fx.dirs.tmp, unsafe_uid());
    assert!(c.ok, "{c:?}");
    assert_eq!(c.installed.unwrap().version.as_deref(), Some("0.171.0"));
    assert!(
        c.reason
            .contains(&format!("Redline answers on {}", socket.display())),
        "{}",
        c.reason
    );
    assert!(c.reason.contains("no editor has spoken"), "{}", c.reason);
    assert!(doctor::render(&report).contains("Ask Redline for your editor's context:"));
    // opencode reads Claude Code's lock of the workspace holding the folder.
    let opencode = |r: &Report| {
        r.context
            .iter()
            .find(|c| c.id == "opencode")
            .unwrap()
            .clone()
    };
    assert_eq!(opencode(&report).installed, None);
    install(&root, "opencode", "opencode-ai", "1.18.33");
    let o = opencode(&doctor::diagnose(&facts(&fx).await).await);
    assert!(o.ok, "{o:?}");
    assert!(
        o.reason
            .contains(&format!("~/.claude/ide/{}.lock", fx.ws_port)),
        "{}",
        o.reason
    );

    // An editor has spoken for the workspace: each line says so, once and in its own words.
    let mut spoken = facts(&fx).await;
    spoken
        .redline
        .as_mut()
        .unwrap()
        .editors
        .push(redline_core::api::status::EditorChannel {
            id: 1,
            editor: None,
            since: 0,
            workspaces: vec![fx.ws.clone()],
        });
    let report = doctor::diagnose(&spoken).await;
    let (c, o) = (codex(&report), opencode(&report));
    assert!(
        c.reason.contains("your editor's file and selection"),
        "{}",
        c.reason
    );
    assert_eq!(c.reason.matches("/ide on").count(), 1, "{}", c.reason);
    assert!(
        o.reason.contains("your editor's file and selection"),
        "{}",
        o.reason
    );
    assert!(!o.reason.contains("/ide on"), "{}", o.reason);
    // From a folder no workspace holds, opencode's line speaks of opencode.
    let mut outside = facts(&fx).await;
    outside.dir = std::env::temp_dir();
    let o = opencode(&doctor::diagnose(&outside).await);
    assert!(
        o.reason.contains("no workspace holds this folder"),
        "{}",
        o.reason
    );
    assert!(!o.reason.contains("Codex"), "{}", o.reason);

    let mut off = facts(&fx).await;
    off.redline = None;
    let c = codex(&doctor::diagnose(&off).await);
    assert!(!c.ok);
    assert!(c.reason.contains("Redline is not running"), "{}", c.reason);

    let mut refused = facts(&fx).await;
    refused.redline.as_mut().unwrap().codex_ide =
        Some(redline_core::api::status::CodexIde::not_served(
            socket.clone(),
            "its folder is writable by group or others (mode 777)".into(),
        ));
    let report = doctor::diagnose(&refused).await;
    let c = codex(&report);
    assert!(!c.ok);
    assert!(
        c.reason.contains("is not served: its folder is writable"),
        "{}",
        c.reason
    );
    assert!(doctor::render(&report).contains("[NO] Codex CLI 0.171.0: Codex's IDE socket"));
}

#[tokio::test]
async fn amp_is_checked_over_its_own_websocket_with_the_locks_token() {
    let fx = crate::common::start().await;
    let root = root_of(&fx);
    install(&root, "amp", "@sourcegraph/amp", "0.0.1790142911-g7618fb");
    let report = doctor::diagnose(&facts(&fx).await).await;
    let amp = cli(&report, "amp");
    assert_eq!(amp.verdict, Verdict::Connects, "{amp:?}");
    assert!(
        matches!(&amp.probe, Some(redline_core::doctor::probe::Probe::Answered { server, .. }) if server == "redline"),
        "{:?}",
        amp.probe
    );
    assert!(amp
        .file
        .as_ref()
        .unwrap()
        .ends_with(format!("amp/ide/{}.json", amp.port.unwrap())));

    // A lock whose token is wrong: Amp's server closes as it does for Amp.
    let lock = amp.file.clone().unwrap();
    edit(&lock, |v| v["authToken"] = json!("0".repeat(64)));
    let report = doctor::diagnose(&facts(&fx).await).await;
    assert_eq!(cli(&report, "amp").verdict, Verdict::TokenRefused);
}
