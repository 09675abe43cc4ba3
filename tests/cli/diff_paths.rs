//! The paths `redline diff` shows and prints: the files as named, without `dir/..` detours,
//! and never collapsed across a symlink (where `link/..` is not the folder holding the link).

use super::local_review::{serving, stop, until_reviews};
use super::Env;
use std::process::Stdio;

/// `redline diff LEFT RIGHT --wait` from `cwd`; accepts the one review and returns its path as
/// the list showed it and the lines the command printed.
fn diff_once(env: &Env, cwd: &std::path::Path, left: &str, right: &str) -> (String, String) {
    let differ = env
        .cmd(&["diff", left, right, "--wait"])
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let list = until_reviews(env, |l| l.len() == 1);
    let shown = list[0]["filePath"].as_str().unwrap().to_owned();
    env.ok(&["review", "accept", &list[0]["id"].to_string()]);
    let out = differ.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (shown, String::from_utf8(out.stdout).unwrap())
}

#[test]
fn diff_names_files_without_dot_dot_detours_but_keeps_a_symlink_s() {
    let env = Env::new();
    let child = serving(&env);
    let tmp = env.root.join("tmp");
    std::fs::write(tmp.join("old.rs"), "a\n").unwrap();
    std::fs::write(tmp.join("new.rs"), "b\n").unwrap();

    // From ws/sub, `../../tmp/new.rs` is ROOT/tmp/new.rs.
    let (shown, printed) = diff_once(
        &env,
        &env.ws().join("sub"),
        "../../tmp/old.rs",
        "../../tmp/new.rs",
    );
    let plain = tmp.join("new.rs");
    assert_eq!(shown, plain.to_str().unwrap());
    assert_eq!(printed, format!("accepted  {}\n", plain.display()));

    // ws/link -> tmp/deep/inner: ws/link/../new.rs is tmp/deep/new.rs, not ws/new.rs.
    let deep = tmp.join("deep");
    std::fs::create_dir_all(deep.join("inner")).unwrap();
    std::fs::write(deep.join("new.rs"), "c\n").unwrap();
    std::os::unix::fs::symlink(deep.join("inner"), env.ws().join("link")).unwrap();
    let (shown, printed) = diff_once(&env, &env.ws(), "../tmp/old.rs", "./link/../new.rs");
    assert!(!shown.contains("/./"), "{shown}");
    assert_ne!(shown, env.ws().join("new.rs").to_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(&shown).unwrap(),
        "c\n",
        "{shown} is the file diffed"
    );
    assert_eq!(printed, format!("accepted  {shown}\n"));
    stop(&env, child);
}
