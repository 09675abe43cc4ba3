//! `redline remote` over the real OpenSSH: a desktop instance whose remote is `ssh … redline
//! bridge --start` to a private sshd on loopback, the far CLI's review shown and accepted here,
//! through an ssh process killed mid-review; ssh's own failures shown as the remote's state.

use super::bridge::claude_write;
use super::bridge_ssh::{remote_bridge, Sshd};
use super::control_owner::{system_user, User};
use super::remote::{accept_and_hear, action, add, add_failing, next_review, remote_when, Serving};
use super::Env;
use std::process::Command;

fn argv(c: &Command) -> Vec<String> {
    std::iter::once(c.get_program())
        .chain(c.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_far_review_survives_a_killed_ssh_and_its_accept_on_the_desktop_reaches_the_cli_once() {
    let dir = tempfile::tempdir().unwrap();
    let sshd = Sshd::start(dir.path());
    let far = Env::new();
    far.ok(&["workspace", "add", far.ws().to_str().unwrap()]);
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    // `--start`: no Redline runs on the far side yet; the first link starts one.
    add(
        &desk,
        "devbox",
        &argv(&sshd.ssh(true, &remote_bridge(&far))),
    );
    remote_when(&desk, "devbox", |r| r["state"] == "connected");

    let file = far.ws().join("a.txt");
    let hook = claude_write(&far, &file, "proposed\n");
    let review = next_review(&desk);
    assert_eq!(review["remote"], "devbox", "{review}");
    let id = review["id"].as_u64().unwrap();

    // The ssh process dies mid-review: the desktop makes the link again and shows the same
    // review under the same id.
    let pattern = format!("^ssh -F /dev/null .*{}", dir.path().display());
    let killed = Command::new("pkill")
        .args(["-f", &pattern])
        .status()
        .unwrap();
    assert!(killed.success(), "the desktop's ssh was running");
    remote_when(&desk, "devbox", |r| r["state"] == "reconnecting");
    remote_when(&desk, "devbox", |r| r["state"] == "connected");
    let listed = desk.json(&["review", "list", "--json"]);
    assert_eq!(listed[0]["id"], id, "{listed}");
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");

    // Open in editor: VS Code's own remote form, on the host ssh reaches.
    let fake = desk.root.join("bin");
    std::fs::create_dir_all(&fake).unwrap();
    let (code, said) = (fake.join("code"), desk.root.join("code-args"));
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}.tmp'; mv '{0}.tmp' '{0}'\n",
        said.display()
    );
    std::fs::write(&code, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&code, std::fs::Permissions::from_mode(0o755)).unwrap();
    let editor = serde_json::json!({"cmd": "settingsSet", "settings": {"editor": code}});
    assert!(action(&desk, editor)["error"].is_null());
    let open = action(
        &desk,
        serde_json::json!({"cmd": "reviewOpenInEditor", "id": id, "line": 1}),
    );
    assert!(open["error"].is_null(), "{open}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !said.exists() {
        assert!(std::time::Instant::now() < deadline, "the editor never ran");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let args = std::fs::read_to_string(&said).unwrap();
    let at = format!("{}:1", file.display());
    assert_eq!(
        args.lines().collect::<Vec<_>>(),
        ["--remote", "ssh-remote+127.0.0.1", "-g", at.as_str()]
    );

    let bytes = "accepted\r\nover ssh ✓\n";
    let id = id.to_string();
    let answer = accept_and_hear(&desk, &id, bytes, hook);
    assert_eq!(answer["updatedInput"]["content"], bytes, "{answer}");
    // Once: the review is gone on both sides.
    assert_eq!(desk.run(&["review", "accept", &id]).status.code(), Some(2));
    assert_eq!(
        far.json(&["review", "list", "--json"]),
        serde_json::json!([])
    );

    // sshd stops (its open session goes with the link): the remote is failed with ssh's
    // words, and the desktop serves on.
    drop(sshd);
    Command::new("pkill")
        .args(["-f", &pattern])
        .status()
        .unwrap();
    let r = remote_when(&desk, "devbox", |r| r["state"] == "failed");
    assert!(r["reason"].as_str().unwrap().contains("onnect"), "{r}");
    desk.ok(&["remote", "remove", "devbox"]);
    desk_server.quit(&desk);
    far.ok(&["quit"]);
}

#[test]
fn no_key_is_a_failed_remote_with_ssh_s_reason_never_a_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let sshd = Sshd::start(dir.path());
    let far = Env::new();
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    let said = add_failing(
        &desk,
        "nokey",
        &argv(&sshd.ssh(false, &remote_bridge(&far))),
    );
    assert!(said.contains("Permission denied"), "{said}");
    // Nothing ran on the far side.
    assert_eq!(far.run(&["status"]).status.code(), Some(3));
    desk_server.quit(&desk);
}

#[test]
fn the_far_side_as_another_user_over_ssh_its_cli_gets_the_desktop_s_accepted_bytes() {
    // A login user for the far side (`/bin/sh`: sshd runs the command with it).
    let Some(User { uid, gid }) = system_user("redline-test-far", "/bin/sh") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sshd = Sshd::start(dir.path());
    sshd.for_another_user();
    use std::os::unix::fs::PermissionsExt;
    // The far user's own home, config, runtime dir and workspace, none of them root's.
    let far = Env::new();
    std::fs::set_permissions(&far.root, std::fs::Permissions::from_mode(0o755)).unwrap();
    for d in ["home", "tmp", "config", "run", "ws", "ws/sub"] {
        std::os::unix::fs::chown(far.root.join(d), Some(uid), Some(gid)).unwrap();
    }
    let as_far = |args: &[&str]| {
        use std::os::unix::process::CommandExt;
        let mut c = far.cmd(args);
        c.uid(uid).gid(gid).env_remove("DBUS_SESSION_BUS_ADDRESS");
        c
    };
    let added = as_far(&["workspace", "add", far.ws().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    let desk = Env::new();
    let desk_server = Serving(desk.serve());
    let mut ssh = argv(&sshd.ssh(true, &remote_bridge(&far)));
    let host = ssh.len() - 2;
    ssh[host] = "redline-test-far@127.0.0.1".into();
    add(&desk, "far", &ssh);
    remote_when(&desk, "far", |r| r["state"] == "connected");

    // Claude Code's pre-edit hook, run by the far user against its own instance.
    let file = far.ws().join("a.txt");
    let input = serde_json::json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": far.ws(),
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": file, "content": "proposed\n"},
    });
    let mut hook = as_far(&["hook", "claude"])
        .current_dir(far.ws())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let mut stdin = hook.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).unwrap();
    drop(stdin);
    let review = next_review(&desk);
    assert_eq!(review["remote"], "far", "{review}");
    let bytes = "accepted by root's desktop\r\nfor the far user ✓\n";
    let answer = accept_and_hear(&desk, &review["id"].to_string(), bytes, hook);
    assert_eq!(answer["updatedInput"]["content"], bytes, "{answer}");
    // The far instance runs as the far user, in its own runtime dir.
    let sock = far.root.join("run/redline/control.sock");
    use std::os::unix::fs::MetadataExt;
    assert_eq!(std::fs::metadata(&sock).unwrap().uid(), uid);
    desk_server.quit(&desk);
    let quit = as_far(&["quit"]).output().unwrap();
    assert!(quit.status.success(), "{quit:?}");
}
