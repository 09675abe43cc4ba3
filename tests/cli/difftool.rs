//! `git difftool -d` with the real git: its temp trees are named as the repository the user knows,
//! not as git's `right` folder.

use super::local_review::{serving, stop, until_reviews};
use super::{Env, BIN};
use std::process::Command;

fn git(env: &Env, repo: &std::path::Path, args: &[&str]) {
    let mut c = Command::new("git");
    c.args(args).current_dir(repo).env_clear();
    for (k, v) in env.cmd(&[]).get_envs() {
        if let Some(v) = v {
            c.env(k, v);
        }
    }
    c.env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_dir_diff_is_named_as_the_repository_not_as_gits_temp_tree() {
    let env = Env::new();
    let server = serving(&env);
    let repo = env.ws().join("shop");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    git(&env, &repo, &["init", "-q"]);
    std::fs::write(repo.join("src/x.rs"), "fn x() {}\n").unwrap();
    git(&env, &repo, &["add", "."]);
    git(
        &env,
        &repo,
        &[
            "-c",
            "user.name=u",
            "-c",
            "user.email=u@u",
            "commit",
            "-qm",
            "x",
        ],
    );
    std::fs::write(repo.join("src/x.rs"), "fn x() { 1 }\n").unwrap();
    let tool = format!("'{BIN}' diff \"$LOCAL\" \"$REMOTE\"");
    git(
        &env,
        &repo,
        &[
            "-c",
            &format!("difftool.redline.cmd={tool}"),
            "difftool",
            "-d",
            "-t",
            "redline",
        ],
    );
    let list = until_reviews(&env, |l| l.len() == 1);
    // Before: the workspace was git's temp tree, `/tmp/git-difftool.XXXXXX/right`.
    assert_eq!(list[0]["workspace"], repo.to_str().unwrap(), "{list:?}");
    assert!(
        list[0]["filePath"].as_str().unwrap().ends_with("/src/x.rs"),
        "{list:?}"
    );
    stop(&env, server);
}
