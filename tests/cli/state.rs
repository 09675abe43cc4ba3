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
    // A sibling or a folder inside one is fine; `--force` adds what was refused.
    env.ok(&["workspace", "add", env.root.join("tmp").to_str().unwrap()]);
    env.ok(&["workspace", "add", "--force", home.to_str().unwrap()]);
    assert!(paths(&env).contains(&home.to_str().unwrap().to_owned()));
    env.ok(&["quit"]);
    child.wait().unwrap();
}
