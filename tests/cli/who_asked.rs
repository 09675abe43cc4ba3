//! Who asked for a review opened by `redline propose`, run by a real shell: the shell the user
//! typed the command into, never the terminal, sshd or tmux above it; a shell that only runs a
//! program's command string stays skipped (git's difftool helper names git).

use super::local_review::{serving, stop, until_reviews};
use super::{Env, BIN};
use serde_json::Value;
use std::process::{Child, Command, Stdio};

/// `bash -c` running `redline propose … --wait` and one more command (so bash stays, rather
/// than exec'ing redline), with the env's world; `new_session` starts it as a terminal,
/// sshd or `tmux new-window` does: a session of its own.
fn shell_proposing(env: &Env, file: &str, new_session: bool) -> Child {
    shell_running(
        env,
        file,
        new_session,
        r#""$0" propose "$1" --content-file "$2" --wait >/dev/null 2>&1; true"#,
    )
}

fn shell_running(env: &Env, file: &str, new_session: bool, script: &str) -> Child {
    let content = env.root.join("tmp/content");
    std::fs::write(&content, "typed\n").unwrap();
    let mut cmd = if new_session {
        let mut c = Command::new("setsid");
        c.arg("bash");
        c
    } else {
        Command::new("bash")
    };
    cmd.args(["-c", script, BIN, file])
        .arg(&content)
        .env_clear()
        .stdin(Stdio::null());
    for (k, v) in env.cmd(&[]).get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.env("PATH", std::env::var("PATH").unwrap_or_default());
    cmd.spawn().unwrap()
}

fn asked_by(env: &Env) -> Value {
    let list = until_reviews(env, |l| l.len() == 1);
    let review = list[0].clone();
    env.ok(&["review", "reject", &review["id"].to_string()]);
    until_reviews(env, |l| l.is_empty());
    review["client"]["process"].clone()
}

#[test]
fn the_shell_a_command_line_was_typed_into_is_named_not_what_started_it() {
    let env = Env::new();
    let file = env.ws().join("typed.txt");
    let file = file.to_str().unwrap();
    let server = serving(&env);

    // The shell at the head of its own session (a terminal's, sshd's, a tmux pane's): it is
    // where the user typed, and what started it (here this test) is not named.
    let mut shell = shell_proposing(&env, file, true);
    let process = asked_by(&env);
    assert_eq!(process["program"], "bash", "{process}");
    assert_eq!(process["pid"], shell.id(), "{process}");
    assert!(shell.wait().unwrap().success());

    // The same shell inside another program's session only runs that program's command: the
    // program (this test) asked.
    let mut shell = shell_proposing(&env, file, false);
    let process = asked_by(&env);
    assert_eq!(process["pid"], std::process::id(), "{process}");
    assert!(shell.wait().unwrap().success());

    // A lone command: the shell execs it and is gone, so the command itself heads the session
    // (`ssh host redline propose …`): it is named, never what started it.
    let mut shell = shell_running(
        &env,
        file,
        true,
        r#"exec "$0" propose "$1" --content-file "$2" --wait >/dev/null 2>&1"#,
    );
    let process = asked_by(&env);
    assert_eq!(process["pid"], shell.id(), "{process}");
    assert_ne!(process["program"], "bash", "{process}");
    shell.wait().unwrap();
    stop(&env, server);
}
