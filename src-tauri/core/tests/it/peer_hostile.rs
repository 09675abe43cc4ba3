//! A peer that plants files to crash or stall "who asked": a real process whose script has,
//! beside it, a `package.json` that is a symlink to `/dev/zero`, a FIFO nobody writes, a 1 GB
//! sparse file or a symlink loop; a process of another user. The lookup answers promptly, names
//! no package and holds its memory.
#![cfg(target_os = "linux")]

use redline_core::platform::peer::{describe, PeerProcess};
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
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(describe(pid));
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
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: starting a process as another user needs root");
        return;
    }
    let user = "redline-peer-test";
    let made = Command::new("useradd")
        .args(["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
        .status()
        .unwrap();
    // 9: the user exists already (an earlier run), which is as good.
    assert!(made.success() || made.code() == Some(9), "useradd: {made}");
    let id = |flag: &str| -> u32 {
        let out = Command::new("id").args([flag, user]).output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().parse().unwrap()
    };
    let (uid, gid) = (id("-u"), id("-g"));

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
