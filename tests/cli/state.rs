//! What `redline` says about its own state, end to end: folders too broad to serve, workspaces
//! whose folder is gone, editor channels, and the hints it gives.

use super::Env;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Polls `cond` until it holds or `within` passes.
fn until(within: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    cond()
}

fn paths(env: &Env) -> Vec<String> {
    let list = env.json(&["workspace", "list", "--json"]);
    list.as_array()
        .unwrap()
        .iter()
        .map(|w| w["path"].as_str().unwrap().to_owned())
        .collect()
}

/// `workspace add` of `dir` without `--force`: exit 2, a reason and the way to force it.
fn refused(env: &Env, dir: &Path, why: &str) {
    let out = env.run(&["workspace", "add", dir.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{dir:?}: {err}");
    assert!(err.contains(why), "{dir:?}: {err}");
    assert!(err.contains("--force"), "{dir:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn root_home_and_a_folder_around_workspaces_need_force() {
    let env = Env::new();
    let home = env.root.join("home");
    let check = |env: &Env| {
        refused(env, Path::new("/"), "root of the filesystem");
        refused(env, &home, "home folder");
        refused(env, &env.root, "around other workspaces");
    };
    // Without an instance (the config is edited) and with one (nothing is served).
    env.ok(&["workspace", "add", env.ws().join("sub").to_str().unwrap()]);
    check(&env);
    assert_eq!(paths(&env).len(), 1);
    let mut child = env.serve();
    check(&env);
    let status = env.json(&["status", "--json"]);
    assert_eq!(
        status["workspaces"].as_array().unwrap().len(),
        1,
        "{status}"
    );
    // Codex's IDE socket is the instance's: Redline holds it, and says where.
    assert_eq!(status["codexIde"]["role"], "router", "{status}");
    let text = String::from_utf8(env.run(&["status"]).stdout).unwrap();
    let socket = status["codexIde"]["path"].as_str().unwrap();
    assert!(
        text.contains(&format!("Codex IDE socket {socket} (Redline answers")),
        "{text}"
    );
    // A sibling or a folder inside one is fine; `--force` adds what was refused.
    env.ok(&["workspace", "add", env.root.join("tmp").to_str().unwrap()]);
    env.ok(&["workspace", "add", "--force", home.to_str().unwrap()]);
    assert!(paths(&env).contains(&home.to_str().unwrap().to_owned()));
    env.ok(&["quit"]);
    child.wait().unwrap();
}

/// The discovery files of every CLI on disk now.
fn announced(env: &Env) -> Vec<std::path::PathBuf> {
    [env.gemini_dir(), env.qwen_dir(), env.claude_dir()]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|rd| rd.map(|e| e.unwrap().path()))
        .collect()
}

#[test]
fn a_workspace_whose_folder_is_gone_is_marked_missing_and_not_served() {
    let env = Env::new();
    let gone = env.root.join("gone");
    std::fs::create_dir(&gone).unwrap();
    let gone_s = gone.to_str().unwrap().to_owned();
    env.ok(&["workspace", "add", &gone_s]);
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let served = announced(&env).len();
    assert!(
        served >= 6,
        "both workspaces announced: {:?}",
        announced(&env)
    );

    // Deleted while it runs: its files go without anyone asking for the status.
    std::fs::remove_dir(&gone).unwrap();
    assert!(
        until(Duration::from_secs(10), || announced(&env).len()
            == served / 2),
        "the gone folder's files stay: {:?}",
        announced(&env)
    );
    let status = env.json(&["status", "--json"]);
    let ws: Vec<&Value> = status["workspaces"].as_array().unwrap().iter().collect();
    let missing = ws.iter().find(|w| w["path"] == gone_s.as_str()).unwrap();
    assert_eq!(missing["missing"], true, "{status}");
    assert_eq!(missing["port"], Value::Null, "{status}");
    assert_eq!(missing["discoveryFiles"], serde_json::json!([]), "{status}");
    let other = ws.iter().find(|w| w["path"] != gone_s.as_str()).unwrap();
    assert_eq!(other["missing"], false, "{status}");
    let text = env.ok(&["status"]);
    assert!(text.contains("MISSING"), "{text}");
    assert!(
        text.contains(&format!("redline workspace remove {gone_s}")),
        "{text}"
    );

    // At the next start it is not served, and the log says how to remove it.
    env.ok(&["quit"]);
    child.wait().unwrap();
    let mut cmd = env.cmd(&["serve", "--headless"]);
    cmd.stderr(std::process::Stdio::piped());
    let child = Env::until_ready(cmd);
    assert_eq!(announced(&env).len(), served / 2, "{:?}", announced(&env));
    let status = env.json(&["status", "--json"]);
    assert!(status["workspaces"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["missing"] == true));
    // Back: served again.
    std::fs::create_dir(&gone).unwrap();
    assert!(
        until(Duration::from_secs(10), || announced(&env).len() == served),
        "not served again: {:?}",
        announced(&env)
    );
    env.ok(&["quit"]);
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains(&format!("redline workspace remove {gone_s}")),
        "{log}"
    );
    assert_eq!(announced(&env), Vec::<std::path::PathBuf>::new());

    // `doctor` and `workspace add` of a folder that is not there say so in words.
    std::fs::remove_dir(&gone).unwrap();
    let out = env.run(&["doctor", &gone_s]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!("the folder {gone_s} does not exist")),
        "{err}"
    );
    let out = env.run(&[
        "workspace",
        "add",
        &env.root.join("never").to_string_lossy(),
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
}

#[test]
fn status_shows_each_editor_channel_by_its_editor() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    // An editor named `nvim` that runs `redline editor --stdio` as a child, as the plugin does.
    let nvim = env.root.join("nvim");
    std::fs::copy("/bin/sh", &nvim).unwrap();
    let bin = super::BIN;
    let redline = env.cmd(&[]);
    let mut ed = std::process::Command::new(&nvim)
        .args(["-c", &format!("{bin} editor --stdio; true")])
        .env_clear()
        .envs(
            redline
                .get_envs()
                .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(ed.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    assert!(line.contains("ready"), "{line}");
    let file = env.ws().join("a.txt");
    std::fs::write(&file, "a\n").unwrap();
    let msg = serde_json::json!({"type": "context", "id": 1, "files": [
        {"path": file, "active": true, "cursor": {"line": 1, "col": 1}}]});
    let mut stdin = ed.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, format!("{msg}\n").as_bytes()).unwrap();
    line.clear();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    assert!(line.contains("\"ok\""), "{line}");
    assert!(until(Duration::from_secs(10), || {
        env.json(&["status", "--json"])["editors"][0]["editor"]["program"] == "nvim"
    }));
    let status = env.json(&["status", "--json"]);
    assert_eq!(
        status["editors"][0]["workspaces"][0],
        env.ws().to_str().unwrap()
    );
    let text = env.ok(&["status"]);
    assert!(text.contains("editor  nvim"), "{text}");
    assert!(
        text.contains(&format!("files in {}", env.ws().display())),
        "{text}"
    );
    drop(stdin);
    ed.wait().unwrap();
    assert!(until(Duration::from_secs(10), || {
        env.json(&["status", "--json"])["editors"] == serde_json::json!([])
    }));
    env.ok(&["quit"]);
    child.wait().unwrap();
}

#[test]
fn token_rotate_defaults_to_the_workspace_holding_the_current_directory() {
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let mut child = env.serve();
    let before = super::token_in(&env.json(&["status", "--json"]));
    let out = env
        .cmd(&["token", "rotate"])
        .current_dir(env.ws().join("sub"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let after = super::token_in(&env.json(&["status", "--json"]));
    assert_ne!(before, after, "the token changed");
    env.ok(&["quit"]);
    child.wait().unwrap();
}
