//! What a new user meets in the first hour (issue 41): every refusal says what to run next, and
//! what it says to run works; empty input proposes nothing; quiet successes say one line.

use super::local_review::{serving, stop, until_reviews};
use super::Env;
use std::path::Path;
use std::process::Stdio;

/// The command a message offers between backticks after `with `, split into words.
fn offered(err: &str) -> Vec<String> {
    let start = err.rfind("with `").expect("a command is offered") + "with `".len();
    let end = start + err[start..].find('`').expect("closing backtick");
    let words: Vec<String> = err[start..end].split(' ').map(str::to_owned).collect();
    assert_eq!(words[0], "redline", "{err}");
    words[1..].to_vec()
}

/// `redline propose FILE --content-file CONTENT` (no --wait), as a script runs it.
fn propose(env: &Env, file: &Path, content: &Path) -> std::process::Output {
    env.cmd(&["propose", file.to_str().unwrap(), "--content-file"])
        .arg(content)
        .output()
        .unwrap()
}

#[test]
fn propose_outside_or_into_a_turned_off_workspace_offers_the_command_that_lets_it_in() {
    let env = Env::new();
    let server = serving(&env);
    let content = env.root.join("tmp/content");
    std::fs::write(&content, "x\n").unwrap();

    // Outside every workspace: add its folder, as printed, and the same propose opens.
    std::fs::create_dir_all(env.root.join("other")).unwrap();
    let outside = env.root.join("other/new.txt");
    let out = propose(&env, &outside, &content);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("no enabled workspace contains"), "{err}");
    let fix = offered(&err);
    assert_eq!(fix[..2], ["workspace", "add"], "{err}");
    env.ok(&fix.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(propose(&env, &outside, &content).status.code(), Some(0));

    // In a workspace that is off: turn it on, as printed.
    env.ok(&["workspace", "disable", env.ws().to_str().unwrap()]);
    let inside = env.ws().join("sub/a.txt");
    let out = propose(&env, &inside, &content);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    let fix = offered(&err);
    assert_eq!(fix[..2], ["workspace", "enable"], "{err}");
    env.ok(&fix.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(propose(&env, &inside, &content).status.code(), Some(0));

    // Directly in the home folder, which a plain `workspace add` refuses: only --force is offered.
    let out = propose(&env, &env.root.join("home/todo.txt"), &content);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("your home folder"), "{err}");
    assert_eq!(offered(&err)[..3], ["workspace", "add", "--force"], "{err}");
    stop(&env, server);
}

#[test]
fn empty_input_for_a_file_with_text_is_refused_unless_allowed() {
    let env = Env::new();
    let server = serving(&env);
    let file = env.ws().join("main.rs");
    std::fs::write(&file, "fn main() {}\n").unwrap();
    let from_null = |extra: &[&str]| {
        let mut args = vec!["propose", file.to_str().unwrap(), "-"];
        args.extend_from_slice(extra);
        env.cmd(&args).stdin(Stdio::null()).output().unwrap()
    };
    let out = from_null(&[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("standard input is empty"), "{err}");
    assert!(err.contains("--allow-empty"), "{err}");
    assert!(env
        .json(&["review", "list", "--json"])
        .as_array()
        .unwrap()
        .is_empty());

    // An empty file as the content, the same; asked for, it opens the deletion's review.
    let empty = env.root.join("tmp/empty");
    std::fs::write(&empty, "").unwrap();
    let out = propose(&env, &file, &empty);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is empty"));
    assert_eq!(from_null(&["--allow-empty"]).status.code(), Some(0));
    let list = until_reviews(&env, |l| l.len() == 1);
    assert_eq!(list[0]["added"], 0);
    // A new file may start empty: nothing is deleted.
    let new = env.ws().join("new.rs");
    assert_eq!(propose(&env, &new, &empty).status.code(), Some(0));
    stop(&env, server);
}

#[test]
fn a_file_that_is_not_there_is_named_with_what_happened() {
    let env = Env::new();
    let content = env.root.join("tmp/nope.rs");
    let out = propose(&env, &env.ws().join("a.rs"), &content);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("nope.rs: there is no such file or folder"),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");

    let left = env.root.join("tmp/a.txt");
    std::fs::write(&left, "a\n").unwrap();
    let out = env
        .cmd(&["diff", left.to_str().unwrap(), "nope.txt"])
        .current_dir(env.root.join("tmp"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("nope.txt: there is no such file or folder"),
        "{err}"
    );
    assert!(err.contains("/dev/null"), "{err}");
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn a_second_serve_names_the_running_one_and_quit_says_it_worked() {
    let env = Env::new();
    let mut server = serving(&env);
    let out = env.run(&["serve", "--headless"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("(pid {})", server.id())), "{err}");
    assert!(err.contains("`redline quit`"), "{err}");
    assert_eq!(env.ok(&["quit"]), "Redline is quitting\n");
    server.wait().unwrap();
}

#[test]
fn workspace_list_calls_a_deleted_folder_missing_as_status_does() {
    let env = Env::new();
    let gone = env.root.join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    env.ok(&["workspace", "add", gone.to_str().unwrap()]);
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    std::fs::remove_dir(&gone).unwrap();
    let list = env.ok(&["workspace", "list"]);
    assert!(
        list.contains(&format!("MISSING  {}", gone.display())),
        "{list}"
    );
    assert!(
        list.contains(&format!("on   {}", env.ws().display())),
        "{list}"
    );
}

#[test]
fn who_asked_for_a_propose_is_the_command_and_what_ran_it() {
    let env = Env::new();
    let server = serving(&env);
    let content = env.root.join("tmp/content");
    std::fs::write(&content, "x\n").unwrap();
    assert_eq!(
        propose(&env, &env.ws().join("a.txt"), &content)
            .status
            .code(),
        Some(0)
    );
    let list = env.ok(&["review", "list"]);
    assert!(list.contains("[redline propose (run by "), "{list}");
    stop(&env, server);
}

#[test]
fn a_reason_given_to_a_diff_is_said_to_reach_nobody_without_blaming_a_protocol() {
    let env = Env::new();
    let server = serving(&env);
    let (left, right) = (env.root.join("tmp/l.txt"), env.root.join("tmp/r.txt"));
    std::fs::write(&left, "a\n").unwrap();
    std::fs::write(&right, "b\n").unwrap();
    env.ok(&["diff", left.to_str().unwrap(), right.to_str().unwrap()]);
    let list = until_reviews(&env, |l| l.len() == 1);
    let id = list[0]["id"].to_string();
    let said = env.ok(&["review", "reject", &id, "--reason", "why"]);
    assert_eq!(
        said,
        format!("rejected review {id} (`redline diff` hears no reason: the reason was not sent)\n")
    );
    stop(&env, server);
}
