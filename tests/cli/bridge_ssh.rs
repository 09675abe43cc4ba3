//! `redline bridge` over the real OpenSSH: a private sshd on loopback (key only, its own host
//! key), the desktop's end as `ssh -T … redline bridge --start`, a CLI's review on the far side
//! decided through it, a link killed mid-review and made again, and the failures a desktop must
//! tell apart (a host key that changed, no key) ending at once, never waiting on a prompt.

use super::bridge::claude_write;
use super::Env;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};

const SSHD: &str = "/usr/sbin/sshd";

/// A private sshd on 127.0.0.1, stopped when dropped.
pub(super) struct Sshd {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(super) fn keygen(path: &Path) {
    let ok = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .status()
        .unwrap();
    assert!(ok.success());
}

/// A port nobody listens on now (sshd is told it; a race with another test is a bind error,
/// said by sshd, not a hang).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

impl Sshd {
    pub(super) fn start(dir: &Path) -> Sshd {
        assert!(
            Path::new(SSHD).exists(),
            "no {SSHD}: `bash .ci/setup` installs openssh-server"
        );
        keygen(&dir.join("host"));
        keygen(&dir.join("id"));
        std::fs::copy(dir.join("id.pub"), dir.join("authorized_keys")).unwrap();
        let port = free_port();
        let config = format!(
            "ListenAddress 127.0.0.1:{port}\nHostKey {host}\nPidFile none\n\
             AuthorizedKeysFile {keys}\nPasswordAuthentication no\n\
             KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n\
             PermitRootLogin prohibit-password\n",
            host = dir.join("host").display(),
            keys = dir.join("authorized_keys").display(),
        );
        std::fs::write(dir.join("sshd_config"), config).unwrap();
        if unsafe { libc::geteuid() } == 0 {
            // Privilege separation wants its empty directory, as the packaged service makes it.
            std::fs::create_dir_all("/run/sshd").unwrap();
        }
        let mut child = Command::new(SSHD)
            .args(["-D", "-e", "-f"])
            .arg(dir.join("sshd_config"))
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        while !line.contains("Server listening on 127.0.0.1") {
            line.clear();
            assert!(
                err.read_line(&mut line).unwrap() > 0,
                "sshd stopped: {line}"
            );
        }
        // Its later lines drained, so sshd never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        let host = std::fs::read_to_string(dir.join("host.pub")).unwrap();
        std::fs::write(
            dir.join("known_hosts"),
            format!("[127.0.0.1]:{port} {host}"),
        )
        .unwrap();
        Sshd {
            child,
            port,
            dir: dir.to_owned(),
        }
    }

    /// Lets another login user in with this test's key: sshd reads that user's authorized keys
    /// as that user (the private key stays root's).
    pub(super) fn for_another_user(&self) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&self.dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let keys = self.dir.join("authorized_keys");
        std::fs::set_permissions(keys, std::fs::Permissions::from_mode(0o644)).unwrap();
    }

    /// The port it listens on, on 127.0.0.1.
    pub(super) fn port(&self) -> u16 {
        self.port
    }

    /// `ssh` as a desktop runs it: no terminal, never a prompt (BatchMode), only this test's
    /// known hosts and key; `key: false` offers none.
    pub(super) fn ssh(&self, key: bool, remote: &str) -> Command {
        let mut c = Command::new("ssh");
        c.args([
            "-F",
            "/dev/null",
            "-T",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=yes",
        ])
        .arg("-o")
        .arg(format!(
            "UserKnownHostsFile={}",
            self.dir.join("known_hosts").display()
        ))
        .args(["-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=10"])
        .args(["-p", &self.port.to_string()]);
        if key {
            c.arg("-i").arg(self.dir.join("id"));
        } else {
            c.args(["-o", "IdentityFile=/dev/null"]);
        }
        c.arg("127.0.0.1").arg(remote);
        c
    }
}

/// The remote command: this test's `redline` with the far side's own home and runtime dirs.
pub(super) fn remote_bridge(far: &Env) -> String {
    let bin = env!("CARGO_BIN_EXE_redline");
    let dirs = [
        ("HOME", "home"),
        ("TMPDIR", "tmp"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_RUNTIME_DIR", "run"),
    ];
    let vars: Vec<String> = dirs
        .iter()
        .map(|(k, d)| format!("{k}='{}'", far.root.join(d).display()))
        .collect();
    format!(
        "env -i PATH=/usr/bin:/bin {} RUST_LOG=warn '{bin}' bridge --start",
        vars.join(" ")
    )
}

struct Link {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Link {
    fn open(sshd: &Sshd, far: &Env) -> (Link, Value) {
        let mut child = sshd
            .ssh(true, &remote_bridge(far))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        let mut link = Link { child, to, from };
        let hello = link.next();
        assert_eq!(hello["kind"], "hello", "{hello}");
        link.say(json!({"kind": "hello", "protocol": 1, "redline": "desk", "instance": "d", "os": "linux", "arch": "x86_64"}));
        (link, hello)
    }

    fn next(&mut self) -> Value {
        loop {
            let mut l = String::new();
            assert!(self.from.read_line(&mut l).unwrap() > 0, "the link closed");
            let v: Value = serde_json::from_str(&l).unwrap();
            if v["kind"] != "ping" {
                return v;
            }
        }
    }

    fn say(&mut self, v: Value) {
        writeln!(self.to, "{v}").unwrap();
        self.to.flush().unwrap();
    }
}

fn accepted_content(out: &Output) -> Value {
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "allow",
        "{answer}"
    );
    answer["hookSpecificOutput"]["updatedInput"]["content"].clone()
}

#[test]
fn a_review_on_the_far_side_survives_a_killed_link_and_its_accept_reaches_the_cli_once() {
    let dir = tempfile::tempdir().unwrap();
    let sshd = Sshd::start(dir.path());
    let far = Env::new();
    far.ok(&["workspace", "add", far.ws().to_str().unwrap()]);

    let (mut link, hello) = Link::open(&sshd, &far);
    assert_eq!(link.next(), json!({"kind": "snapshot", "reviews": []}));
    let file = far.ws().join("a.txt");
    let hook = claude_write(&far, &file, "proposed\n");
    let added = link.next();
    assert_eq!(added["kind"], "added", "{added}");
    let id = added["review"]["id"].clone();

    // The ssh process dies mid-review: the review waits on the far side, shown again on the
    // next link, whose accept the CLI gets.
    link.child.kill().unwrap();
    link.child.wait().unwrap();
    let (mut link, again) = Link::open(&sshd, &far);
    assert_eq!(
        again["instance"], hello["instance"],
        "the same far instance"
    );
    let snapshot = link.next();
    assert_eq!(snapshot["reviews"][0]["id"], id, "{snapshot}");
    let bytes = "accepted\r\nover ssh\n";
    let decide = json!({"kind": "decide", "decision": "d:1", "instance": hello["instance"],
        "call": {"cmd": "reviewAccept", "id": id, "content": bytes}});
    link.say(decide.clone());
    let mut heard = [link.next(), link.next()];
    heard.sort_by_key(|v| v["kind"].as_str().unwrap_or_default().to_owned());
    assert_eq!(heard[0]["result"], "applied", "{heard:?}");
    assert_eq!(accepted_content(&hook.wait_with_output().unwrap()), bytes);
    // Sent again (its answer lost with a link): applied before, not twice.
    link.say(decide);
    assert_eq!(link.next()["result"], "appliedBefore");

    drop(link.to);
    assert!(link.child.wait().unwrap().success());
    far.ok(&["quit"]);
}

#[test]
fn a_changed_host_key_or_no_key_fails_at_once_with_ssh_s_reason() {
    let dir = tempfile::tempdir().unwrap();
    let sshd = Sshd::start(dir.path());
    let far = Env::new();

    let out = sshd
        .ssh(false, &remote_bridge(&far))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(255));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Permission denied"),
        "{out:?}"
    );

    keygen(&dir.path().join("other"));
    let other = std::fs::read_to_string(dir.path().join("other.pub")).unwrap();
    let line = format!("[127.0.0.1]:{} {other}", sshd.port);
    std::fs::write(dir.path().join("known_hosts"), line).unwrap();
    let out = sshd
        .ssh(true, &remote_bridge(&far))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(255));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("REMOTE HOST IDENTIFICATION HAS CHANGED")
            || said.contains("Host key verification failed"),
        "{said}"
    );
    // Nothing ran on the far side: no instance was started there.
    assert_eq!(far.run(&["status"]).status.code(), Some(3));
}
