//! `redline remote add ssh://… --install` over the real OpenSSH: a far user with an empty home
//! and no Redline gets this build in ~/.local/share/redline/bin, checked there, and the link
//! then runs it; a second `--install` copies nothing.

use super::bridge_ssh::Sshd;
use super::control_owner::{system_user, User};
use super::remote::{remote_when, Serving};
use super::{Env, BIN};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

/// `ssh` first on the desktop's PATH, as the user's own config would make it: this test's key
/// and known hosts for 127.0.0.1 (the shorthand's command stays as it is).
fn ssh_config(dir: &Path) -> String {
    let config = dir.join("ssh_config");
    std::fs::write(
        &config,
        format!(
            "Host 127.0.0.1\n  IdentityFile {id}\n  IdentitiesOnly yes\n  \
             UserKnownHostsFile {known}\n  StrictHostKeyChecking yes\n",
            id = dir.join("id").display(),
            known = dir.join("known_hosts").display(),
        ),
    )
    .unwrap();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let wrapper = bin.join("ssh");
    let ssh = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v ssh"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec {} -F '{}' \"$@\"\n",
            ssh.trim(),
            config.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:/usr/bin:/bin", bin.display())
}

/// The processes running `exe`.
fn running(exe: &Path) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| std::fs::read_link(e.path().join("exe")).is_ok_and(|t| t == exe))
        .count()
}

#[test]
fn install_puts_this_build_on_a_machine_without_redline_checked_and_the_link_runs_it() {
    let Some(User { uid, gid }) = system_user("redline-test-inst", "/bin/sh") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sshd = Sshd::start(dir.path());
    sshd.for_another_user();
    // The far user's home: empty, its own; sshd gives it as HOME, and PATH has no redline.
    let home = dir.path().join("far-home");
    std::fs::create_dir_all(home.join("ws")).unwrap();
    for d in [home.clone(), home.join("ws")] {
        std::os::unix::fs::chown(&d, Some(uid), Some(gid)).unwrap();
    }
    let moved = Command::new("usermod")
        .arg("-d")
        .arg(&home)
        .arg("redline-test-inst")
        .status()
        .unwrap();
    assert!(moved.success());

    let desk = Env::new();
    let path = ssh_config(dir.path());
    let mut serve = desk.cmd(&["serve", "--headless"]);
    serve.env("PATH", &path);
    let desk_server = Serving(Env::until_ready(serve));
    let target = format!("ssh://redline-test-inst@127.0.0.1:{}", sshd.port());
    let add = |name: &str| {
        desk.cmd(&["remote", "add", &target, "--name", name, "--install"])
            .env("PATH", &path)
            .output()
            .unwrap()
    };
    let out = add("far");
    if cfg!(feature = "desktop") {
        // The desktop build copies the headless one the package puts beside it (tests/package):
        // a build tree has none, and nothing is added.
        let said = String::from_utf8_lossy(&out.stderr);
        let beside = Path::new(BIN).with_file_name("redline-headless");
        let want = format!("has no headless build beside it ({})", beside.display());
        assert!(
            out.status.code() == Some(2) && said.contains(&want),
            "{out:?}"
        );
        assert_eq!(
            desk.json(&["remote", "list", "--json"]),
            serde_json::json!([])
        );
        desk_server.quit(&desk);
        return;
    }
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        said.starts_with("installed Redline on far in ~/.local/share/redline/bin ("),
        "{said}"
    );

    let installed = home.join(".local/share/redline/bin/redline");
    let meta = std::fs::metadata(&installed).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o777), (uid, 0o755));
    assert!(
        std::fs::read(&installed).unwrap() == std::fs::read(BIN).unwrap(),
        "the far copy is this build, byte for byte"
    );
    let left: Vec<_> = std::fs::read_dir(installed.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["redline"], "no temporary copy is left");

    // The link runs the installed copy (`bridge --start` there started its instance), and the
    // far workspace commands reach it.
    remote_when(&desk, "far", |r| r["state"] == "connected");
    assert!(
        running(&installed) >= 1,
        "the far Redline is the installed copy"
    );
    let ws = home.join("ws");
    let ws_str = ws.to_str().unwrap();
    let mut remote_ws = desk.cmd(&["remote", "workspace", "far", "add", ws_str]);
    let added = remote_ws.env("PATH", &path).output().unwrap();
    assert!(added.status.success(), "{added:?}");
    let listed = desk.json(&["remote", "workspace", "far", "list", "--json"]);
    assert_eq!(listed[0]["path"], ws_str, "{listed}");

    // Installed once: the next `--install` checks and copies nothing.
    let again = add("far-again");
    assert!(again.status.success(), "{again:?}");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).lines().next(),
        Some("far-again has this Redline already")
    );
    assert_eq!(std::fs::metadata(&installed).unwrap().ino(), meta.ino());

    desk_server.quit(&desk);
    // The far instance quit as its user would (no runtime dir from sshd: the fallback in /tmp).
    use std::os::unix::process::CommandExt;
    let quit = Command::new(&installed)
        .arg("quit")
        .env_clear()
        .env("HOME", &home)
        .env("PATH", "/usr/bin:/bin")
        .uid(uid)
        .gid(gid)
        .output()
        .unwrap();
    assert!(quit.status.success(), "{quit:?}");
}

#[test]
fn install_refuses_a_command_of_ones_own() {
    let desk = Env::new();
    let out = desk.run(&[
        "remote",
        "add",
        "box",
        "--install",
        "--",
        "ssh",
        "box",
        "redline",
        "bridge",
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--install goes with ssh://… or wsl://…"),
        "{said}"
    );
}
