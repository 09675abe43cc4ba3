//! A peer that plants files to crash or stall "who asked": a real process whose script has,
//! beside it, a `package.json` that is a symlink to `/dev/zero`, a FIFO nobody writes, a 1 GB
//! sparse file or a symlink loop; a process of another user. The lookup answers promptly, names
//! no package and holds its memory.
#![cfg(target_os = "linux")]

use redline_core::platform::peer::{describe, describe_with, Describer, PeerProcess};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Far beyond what a lookup takes; a lookup that reads a FIFO or `/dev/zero` never ends.
const PROMPT: Duration = Duration::from_secs(10);

/// More than any lookup needs (a few KiB) and less than the 1 GB file it must not read.
const MEMORY: u64 = 256 << 20;

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `dir/cli.js` and a long-lived process whose command line names it by its absolute path
/// (`tail -f` reads the script only, never the `package.json` beside it).
fn peer_beside(dir: &Path) -> (PathBuf, Killed) {
    std::fs::create_dir_all(dir).unwrap();
    let script = dir.join("cli.js");
    std::fs::write(&script, "").unwrap();
    let child = Command::new("tail")
        .arg("-f")
        .arg(&script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    (script, Killed(child))
}

/// The process's peak resident memory, in bytes.
fn peak_memory() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .expect("VmHWM in /proc/self/status");
    kb << 10
}

/// Runs the lookup on a thread of its own and waits for it at most `PROMPT`.
fn describe_promptly(pid: u32) -> PeerProcess {
    promptly(pid, move || describe(pid))
}

fn promptly(pid: u32, lookup: impl FnOnce() -> PeerProcess + Send + 'static) -> PeerProcess {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(lookup());
    });
    rx.recv_timeout(PROMPT)
        .unwrap_or_else(|_| panic!("the lookup of {pid} did not return within {PROMPT:?}"))
}

/// Plants `package.json` beside a peer's script with `plant`, then looks the peer up.
fn lookup_beside(plant: impl FnOnce(&Path)) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = dunce::canonicalize(tmp.path()).unwrap().join("cli");
    let (_script, child) = peer_beside(&dir);
    plant(&dir.join("package.json"));
    let before = peak_memory();
    let found = describe_promptly(child.0.id());
    let grown = peak_memory().saturating_sub(before);
    assert_eq!(found.pid, child.0.id());
    assert_eq!(found.program, "tail", "named by its executable: {found:?}");
    assert_eq!(found.version, None, "no package was read: {found:?}");
    assert!(grown < MEMORY, "the lookup grew memory by {grown} bytes");
}

#[test]
fn a_package_json_linked_to_dev_zero_is_not_followed() {
    lookup_beside(|p| std::os::unix::fs::symlink("/dev/zero", p).unwrap());
}

#[test]
fn a_package_json_fifo_nobody_writes_is_not_waited_on() {
    lookup_beside(|p| {
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo touches no memory of ours.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    });
}

#[test]
fn a_one_gigabyte_package_json_is_not_read() {
    lookup_beside(|p| {
        let f = std::fs::File::create(p).unwrap();
        f.set_len(1 << 30).unwrap();
    });
}

#[test]
fn a_package_json_symlink_loop_is_not_followed() {
    lookup_beside(|p| {
        let other = p.with_file_name("loop.json");
        std::os::unix::fs::symlink(&other, p).unwrap();
        std::os::unix::fs::symlink(p, &other).unwrap();
    });
}

/// A process of another user (here a test user; in practice a container's, handed over by the
/// Copilot container socket as a host PID) is named as such, and nothing it names is read: the
/// Gemini manifest beside its script would make it "Gemini CLI".
#[test]
fn a_process_of_another_user_is_not_looked_into() {
    let Some((uid, gid)) = test_user() else {
        return;
    };

    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let dir = root.join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name": "@google/gemini-cli", "version": "0.61.0"}"#,
    )
    .unwrap();
    let script = dir.join("cli.js");
    std::fs::write(&script, "").unwrap();
    use std::os::unix::fs::PermissionsExt;
    for d in [&root, &dir] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    use std::os::unix::process::CommandExt;
    let child = Killed(
        Command::new("tail")
            .arg("-f")
            .arg(&script)
            .current_dir("/")
            .uid(uid)
            .gid(gid)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let found = describe_promptly(child.0.id());
    assert_eq!(
        found,
        PeerProcess {
            pid: child.0.id(),
            program: "a process in a container".into(),
            ..PeerProcess::default()
        }
    );
}

/// A user of its own for these tests (made once, kept), as `(uid, gid)`; `None` (the test
/// skips) without root.
fn test_user() -> Option<(u32, u32)> {
    // Once per run: two useradds at a time collide on the password file's lock.
    static USER: std::sync::OnceLock<Option<(u32, u32)>> = std::sync::OnceLock::new();
    *USER.get_or_init(|| {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: starting a process as another user needs root");
            return None;
        }
        let user = "redline-peer-test";
        let made = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                user,
            ])
            .stderr(Stdio::null())
            .status()
            .unwrap();
        // 9: the user exists already (an earlier run), as good.
        assert!(made.success() || made.code() == Some(9), "useradd: {made}");
        let id = |flag: &str| -> u32 {
            let out = Command::new("id").args([flag, user]).output().unwrap();
            String::from_utf8(out.stdout)
                .unwrap()
                .trim()
                .parse()
                .unwrap()
        };
        Some((id("-u"), id("-g")))
    })
}

/// A peer in "tmux": its `TMUX` names a real socket at `socket`, and the tmux client Redline asks
/// is `tmux`, a script that records that it ran and then never exits.
fn peer_in_tmux(root: &Path) -> (PathBuf, PathBuf, Killed, std::os::unix::net::UnixListener) {
    let socket = root.join("tmux.sock");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let asked = root.join("asked");
    let tmux = root.join("tmux");
    std::fs::write(
        &tmux,
        format!(
            "#!/bin/sh\necho \"$@\" > '{}'\nsleep 1000\n",
            asked.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&tmux, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = root.join("cli.js");
    std::fs::write(&script, "").unwrap();
    let child = Command::new("tail")
        .arg("-f")
        .arg(&script)
        .env("TMUX", format!("{},1,0", socket.display()))
        .env("TMUX_PANE", "%7")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    (tmux, asked, Killed(child), listener)
}

#[test]
fn a_tmux_that_never_answers_is_given_up_at_the_deadline() {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let (tmux, asked, child, _server) = peer_in_tmux(&root);
    let probe = Describer {
        tmux: tmux.into(),
        ..Describer::default()
    };
    let pid = child.0.id();
    let found = promptly(pid, move || describe_with(pid, &probe));
    let args = std::fs::read_to_string(&asked).expect("tmux was asked");
    assert!(args.starts_with("-S "), "{args}");
    assert_eq!(found.program, "tail");
    assert_eq!(found.tmux.as_deref(), Some("%7"), "the pane, unnamed");
}

#[test]
fn a_tmux_socket_of_another_user_is_not_asked() {
    let Some((uid, gid)) = test_user() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let (tmux, asked, child, _server) = peer_in_tmux(&root);
    std::os::unix::fs::chown(root.join("tmux.sock"), Some(uid), Some(gid)).unwrap();
    let probe = Describer {
        tmux: tmux.into(),
        ..Describer::default()
    };
    let pid = child.0.id();
    let found = promptly(pid, move || describe_with(pid, &probe));
    assert!(!asked.exists(), "tmux was asked of another user's server");
    assert_eq!(found.tmux.as_deref(), Some("%7"));
}
