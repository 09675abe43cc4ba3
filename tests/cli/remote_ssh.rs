//! `redline remote` over the real OpenSSH: a desktop instance whose remote is `ssh … redline
//! bridge --start` to a private sshd on loopback, the far CLI's review shown and accepted here,
//! through an ssh process killed mid-review; ssh's own failures shown as the remote's state.

use super::bridge::claude_write;
use super::bridge_ssh::{remote_bridge, Sshd};
use super::remote::{add, next_review, remote_when, Serving};
use super::Env;
use serde_json::Value;
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

    let bytes = "accepted\r\nover ssh ✓\n";
    let edited = desk.root.join("edited");
    std::fs::write(&edited, bytes).unwrap();
    let id = id.to_string();
    desk.ok(&[
        "review",
        "accept",
        &id,
        "--content-file",
        edited.to_str().unwrap(),
    ]);
    let out = hook.wait_with_output().unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["updatedInput"]["content"], bytes,
        "{answer}"
    );
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
    add(
        &desk,
        "nokey",
        &argv(&sshd.ssh(false, &remote_bridge(&far))),
    );
    let r = remote_when(&desk, "nokey", |r| r["state"] == "failed");
    assert!(
        r["reason"].as_str().unwrap().contains("Permission denied"),
        "{r}"
    );
    // Nothing ran on the far side.
    assert_eq!(far.run(&["status"]).status.code(), Some(3));
    desk_server.quit(&desk);
}
