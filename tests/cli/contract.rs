//! docs/cli.md's contract as a script reads it: each exit status row, a closed pipe, and errors
//! in one line of the user's words; the real binary, a real instance.

use super::local_review::{serving, stop, until_reviews};
use super::Env;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Output, Stdio};

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One line, `redline: …`, naming no internal layer.
fn one_line_error(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("redline: "), "{err}");
    assert!(!err.contains("control channel"), "{err}");
    assert!(!err.contains("bad editor message"), "{err}");
    err
}

#[test]
fn with_nothing_running_the_exit_status_is_3_and_usage_is_2() {
    let env = Env::new();
    for args in [&["status"][..], &["review", "list"], &["quit"]] {
        let out = env.run(args);
        assert_eq!(code(&out), Some(3), "{args:?}: {}", stderr(&out));
        assert!(one_line_error(&out).contains("no running Redline"));
    }
    let file = env.ws().join("a.txt");
    let out = env
        .cmd(&["propose", file.to_str().unwrap(), "-"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(3), "{}", stderr(&out));
    // Usage: a missing argument, an unknown command.
    assert_eq!(code(&env.run(&["review", "accept"])), Some(2));
    assert_eq!(code(&env.run(&["frobnicate"])), Some(2));
    assert_eq!(code(&env.run(&["workspace", "list"])), Some(0));
}

/// `propose --wait --json` in the background; its exit status and JSON once `stop` ran.
fn undecided(env: &Env, stop: &[&str]) -> (Option<i32>, serde_json::Value) {
    let proposer = env
        .cmd(&[
            "propose",
            env.ws().join("a.txt").to_str().unwrap(),
            "-",
            "--wait",
            "--json",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    until_reviews(env, |l| l.len() == 1);
    env.ok(stop);
    let out = proposer.wait_with_output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_default();
    (code(&out), json)
}

#[test]
fn no_decision_is_2_not_a_rejection_and_a_rejection_is_1() {
    let env = Env::new();
    let child = serving(&env);
    let ws = env.ws();
    let (status, json) = undecided(&env, &["workspace", "disable", ws.to_str().unwrap()]);
    assert_eq!(status, Some(2), "{json}");
    assert_eq!(json["decision"], "dismissed");
    env.ok(&["workspace", "enable", ws.to_str().unwrap()]);

    // Rejected: 1, and `review reject` says what it did.
    let proposer = env
        .cmd(&["propose", ws.join("a.txt").to_str().unwrap(), "-", "--wait"])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = until_reviews(&env, |l| l.len() == 1)[0]["id"].to_string();
    assert_eq!(
        env.ok(&["review", "reject", &id]),
        format!("rejected review {id}\n")
    );
    assert_eq!(code(&proposer.wait_with_output().unwrap()), Some(1));

    // A timeout is no decision either.
    let out = env.run(&["review", "wait", "--timeout", "0"]);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    one_line_error(&out);

    let (status, json) = undecided(&env, &["quit"]);
    assert_eq!(status, Some(2), "{json}");
    assert_eq!(json["decision"], "dismissed");
    let mut child = child;
    child.wait().unwrap();

    // An instance that dies without a word: no decision either, said in the user's words.
    let mut child = env.serve();
    let proposer = env
        .cmd(&["propose", ws.join("a.txt").to_str().unwrap(), "-", "--wait"])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    until_reviews(&env, |l| l.len() == 1);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = proposer.wait_with_output().unwrap();
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(one_line_error(&out).contains("Redline stopped before it answered"));
}

#[test]
fn differences_that_are_not_text_answer_1_as_diff_does() {
    let env = Env::new();
    let d = env.root.join("tmp");
    std::fs::write(d.join("a.bin"), [0u8, 0xff, 1]).unwrap();
    std::fs::write(d.join("b.bin"), [0u8, 0xff, 2]).unwrap();
    std::fs::write(d.join("c.bin"), [0u8, 0xff, 1]).unwrap();
    std::fs::write(d.join("t.txt"), "text\n").unwrap();
    let diff = |l: &str, r: &str, wait: bool| {
        let mut c = env.cmd(&["diff"]);
        c.arg(d.join(l)).arg(d.join(r));
        if wait {
            c.arg("--wait");
        }
        c.output().unwrap()
    };
    // No instance is needed to know there is nothing to show.
    for (l, r) in [("a.bin", "b.bin"), ("t.txt", "a.bin")] {
        for wait in [false, true] {
            let out = diff(l, r, wait);
            assert_eq!(code(&out), Some(1), "{l} {r}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(!err.contains("no differences"), "{err}");
            assert!(err.contains("not as text"), "{err}");
        }
    }
    let out = diff("a.bin", "c.bin", false);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("no differences"));
}

/// `redline ARGS` with its standard output a pipe nobody reads (closed before it starts).
fn into_closed_pipe(env: &Env, args: &[&str]) -> Output {
    let mut fds = [0; 2];
    // SAFETY: a fresh pipe; each end is owned by exactly one OwnedFd below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(reader);
    let mut cmd: Command = env.cmd(args);
    cmd.stdout(Stdio::from(writer)).stderr(Stdio::piped());
    cmd.output().unwrap()
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let env = Env::new();
    let child = serving(&env);
    let ws = env.ws();
    let ws = ws.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["status"],
        &["status", "--json"],
        &["workspace", "list"],
        &["workspace", "list", "--json"],
        &["review", "list"],
        &["review", "list", "--json"],
        &["env", ws],
        &["doctor", ws],
        &["doctor", ws, "--json"],
        &["container", "args", ws],
    ];
    for args in commands {
        let out = into_closed_pipe(&env, args);
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        // doctor answers 1 when a CLI would not connect (none is installed here); containers
        // are off: the command's own status, not one of the pipe's.
        let expected: &[i32] = match args[0] {
            "doctor" => &[0, 1],
            "container" => &[2],
            _ => &[0],
        };
        assert!(
            expected.contains(&code(&out).unwrap_or(-1)),
            "{args:?}: {:?} {err}",
            out.status
        );
    }
    stop(&env, child);
}

#[test]
fn review_commands_say_what_they_did_and_refuse_what_propose_would() {
    let env = Env::new();
    let child = serving(&env);
    let file = env.ws().join("a.txt");
    std::fs::write(&file, "old\n").unwrap();
    let content = env.root.join("tmp/new");
    std::fs::write(&content, "new\n").unwrap();
    // Without --wait nobody hears the decision: accepting says nothing is written.
    let out = env
        .cmd(&["propose", file.to_str().unwrap(), "--content-file"])
        .arg(&content)
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let list = until_reviews(&env, |l| l.len() == 1);
    assert!(list[0]["readOnly"]
        .as_str()
        .unwrap()
        .contains("without --wait"));
    let id = list[0]["id"].to_string();
    let said = env.ok(&["review", "accept", &id]);
    assert!(
        said.starts_with(&format!("accepted review {id} (")),
        "{said}"
    );
    assert!(said.contains("nothing is written"), "{said}");

    // An accepted text is bounded as a proposal is, and the error names the file's size.
    let out = env
        .cmd(&["propose", file.to_str().unwrap(), "--content-file"])
        .arg(&content)
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(0));
    let id = until_reviews(&env, |l| l.len() == 1)[0]["id"].to_string();
    let big = env.root.join("tmp/big");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(20 * 1024 * 1024)
        .unwrap();
    let out = env
        .cmd(&["review", "accept", &id, "--content-file"])
        .arg(&big)
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(2));
    let err = one_line_error(&out);
    assert!(
        err.contains("is 20 MiB; Redline reviews files up to 16 MiB"),
        "{err}"
    );
    assert_eq!(until_reviews(&env, |l| l.len() == 1).len(), 1);

    // `review wait --file` takes a path relative to where it runs, as `propose` does.
    let out = env
        .cmd(&["review", "wait", "--file", "a.txt", "--timeout", "5"])
        .current_dir(env.ws())
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    stop(&env, child);
}

#[test]
fn mention_refuses_what_it_cannot_point_at_in_the_users_words() {
    let env = Env::new();
    let child = serving(&env);
    std::fs::write(env.ws().join("main.rs"), "fn main() {\n}\n").unwrap();
    let mention = |target: &str| {
        env.cmd(&["mention", target])
            .current_dir(env.ws())
            .output()
            .unwrap()
    };
    for (target, says) in [
        ("nofile.rs:1", "nofile.rs: no such file"),
        (
            "main.rs:1-999",
            "main.rs has 2 lines: 1-999 goes past its end",
        ),
        (".:1", "is a directory"),
        ("main.rs:1-2:3", "no such file"),
        ("main.rs", "give FILE:LINE or FILE:FIRST-LAST"),
    ] {
        let out = mention(target);
        assert_eq!(code(&out), Some(2), "{target}: {}", stderr(&out));
        let err = one_line_error(&out);
        assert!(err.contains(says), "{target}: {err}");
    }

    // A link inside the workspace that leads out of it: said so, not "no workspace contains".
    let outside = env.root.join("home/outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("x.rs"), "x\n").unwrap();
    std::os::unix::fs::symlink(&outside, env.ws().join("out")).unwrap();
    let out = mention("out/x.rs:1");
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(
        one_line_error(&out).contains("leads outside"),
        "{}",
        stderr(&out)
    );
    // Some text: empty input for a file with text is refused before anything is sent.
    let content = env.root.join("tmp/content");
    std::fs::write(&content, "y\n").unwrap();
    let out = env
        .cmd(&["propose", "out/x.rs", "--content-file"])
        .arg(&content)
        .current_dir(env.ws())
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(2));
    assert!(
        one_line_error(&out).contains("leads outside"),
        "{}",
        stderr(&out)
    );
    stop(&env, child);
}

#[test]
fn a_name_that_is_not_utf8_is_refused_in_words_for_the_command_used() {
    use std::os::unix::ffi::OsStrExt;
    let env = Env::new();
    let odd = env.root.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir(&odd).unwrap();
    for sub in ["add", "remove"] {
        let out = env.cmd(&["workspace", sub]).arg(&odd).output().unwrap();
        assert_eq!(code(&out), Some(2), "{}", stderr(&out));
        assert!(
            one_line_error(&out).contains("not valid UTF-8"),
            "{}",
            stderr(&out)
        );
    }
}

/// `v` is exactly `T`'s JSON: read into the type the command printed from and written back, it is
/// unchanged (no key the type lacks, none it has missing), and its keys are the documented ones.
fn shaped<T: serde::de::DeserializeOwned + serde::Serialize>(v: &serde_json::Value, keys: &[&str]) {
    let typed: T = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(&serde_json::to_value(typed).unwrap(), v);
    let mut got: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = keys.to_vec();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want, "docs/cli.md's keys");
}

#[test]
fn each_json_output_has_the_documented_shape() {
    use redline_core::api::status::Status;
    use redline_core::review::Summary;
    use redline_core::workspace::config::WorkspaceEntry;
    use redline_core::workspace::container::RunArgs;
    let env = Env::new();
    let child = serving(&env);
    let ws = env.ws();
    let ws = ws.to_str().unwrap();

    let status = env.json(&["status", "--json"]);
    shaped::<Status>(
        &status,
        &["pid", "keyring", "workspaces", "editors", "codexIde"],
    );
    let w = &status["workspaces"][0];
    for key in [
        "path",
        "enabled",
        "port",
        "wsPort",
        "ampPort",
        "tokenStore",
        "discoveryFiles",
        "discoveryFailures",
        "clients",
        "pendingReviews",
        "containers",
    ] {
        assert!(w.get(key).is_some(), "status: no {key} in {w}");
    }

    let list = env.json(&["workspace", "list", "--json"]);
    shaped::<WorkspaceEntry>(&list[0], &["path", "enabled"]);

    let proposer = env
        .cmd(&["propose", &format!("{ws}/a.txt"), "-", "--json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let opened: serde_json::Value = serde_json::from_slice(&proposer.stdout).unwrap();
    assert!(opened["id"].is_u64(), "{opened}");
    assert_eq!(opened.as_object().unwrap().len(), 1, "{opened}");
    let reviews = env.json(&["review", "list", "--json"]);
    shaped::<Summary>(
        &reviews[0],
        &[
            "id",
            "workspace",
            "filePath",
            "path",
            "container",
            "client",
            "added",
            "removed",
            "newFile",
            "createdAt",
            "canMention",
            "reasonHeard",
            "readOnly",
            "kind",
        ],
    );
    for key in ["name", "version", "process"] {
        assert!(reviews[0]["client"].get(key).is_some(), "no client.{key}");
    }

    let doctor = env.cmd(&["doctor", ws, "--json"]).output().unwrap();
    let doctor: serde_json::Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let mut keys: Vec<&str> = doctor
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "clis",
            "container",
            "context",
            "dir",
            "hooks",
            "ok",
            "redlinePid",
            "workspace"
        ]
    );
    for key in [
        "id",
        "name",
        "installed",
        "verdict",
        "ok",
        "reason",
        "fix",
        "notes",
    ] {
        assert!(doctor["clis"][0].get(key).is_some(), "doctor: no {key}");
    }

    env.ok(&["container", "enable", ws, "--address", "127.0.0.1"]);
    let args = env.json(&["container", "args", ws, "--json"]);
    shaped::<RunArgs>(&args, &["addHost", "mounts", "env", "workdir", "args"]);
    stop(&env, child);
}
