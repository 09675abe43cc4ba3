//! `redline` itself, the desktop build: from a terminal it starts the app in the background and
//! returns once the tray is up, logging to a file that `status` names; `--foreground` stays; a
//! headless Redline running is the "no" of exit status 1 (docs/cli.md).

use super::Env;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// An X server of our own, stopped when dropped.
struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    /// Starts Xvfb on a free display; it writes the display's number once it accepts clients.
    fn start() -> Xvfb {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb (apt-get install xvfb) for the desktop build's tests");
        let mut number = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut number)
            .unwrap();
        assert!(!number.trim().is_empty(), "Xvfb gave no display");
        Xvfb {
            child,
            display: format!(":{}", number.trim()),
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A home where the welcome page was seen: the app starts in the tray, with no window process.
fn welcomed(env: &Env) {
    let dir = env.root.join("config/redline");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.json"), r#"{"welcomed": true}"#).unwrap();
}

fn desktop_cmd(env: &Env, x: &Xvfb, args: &[&str]) -> Command {
    let mut cmd = env.cmd(args);
    cmd.env("DISPLAY", &x.display)
        .env("XDG_STATE_HOME", env.root.join("state"));
    cmd
}

/// The instance started in the background is not our child: made ours when its starter exits,
/// so that its end is waited for, not guessed.
fn adopt_orphans() {
    // SAFETY: a process attribute of our own; nothing is dereferenced.
    let done = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    assert_eq!(done, 0, "{}", std::io::Error::last_os_error());
}

/// Waits for `pid`, a process `adopt_orphans` made ours; whether it exited 0.
fn reap(pid: i32) -> bool {
    let mut status = 0;
    // SAFETY: waits on one process of ours, writing only `status`.
    let got = unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(got, pid, "{}", std::io::Error::last_os_error());
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn redline_returns_once_the_tray_is_up_and_logs_to_a_file_status_names() {
    adopt_orphans();
    let (env, x) = (Env::new(), Xvfb::start());
    welcomed(&env);
    let out = desktop_cmd(&env, &x, &[]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    let log = env.root.join("state/redline/redline.log");
    assert_eq!(
        err,
        format!(
            "redline: started in the background; its menu is the Redline icon in the system tray \
             (no tray? run `redline` again to open its window; `redline quit` stops it); its \
             log: {}\n",
            log.display()
        )
    );

    // It runs on without its starter, and says where it logs.
    let status: Value = env.json(&["status", "--json"]);
    assert_eq!(status["logFile"], log.to_str().unwrap());
    let text = env.ok(&["status"]);
    assert!(
        text.contains(&format!("log file: {}", log.display())),
        "{text}"
    );
    assert_eq!(mode(&log), 0o600);
    assert_eq!(mode(log.parent().unwrap()), 0o700);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("started; its menu is"), "{logged}");

    let pid = status["pid"].as_i64().unwrap() as i32;
    env.ok(&["quit"]);
    assert!(reap(pid), "the instance stopped cleanly");
}

#[test]
fn an_app_that_stops_before_its_tray_is_up_says_its_own_line_and_fails() {
    let (env, x) = (Env::new(), Xvfb::start());
    let dir = env.root.join("config/redline");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.json"), "{not json").unwrap();
    let out = desktop_cmd(&env, &x, &[]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    // The app's own one line, from its log, as it says it in the foreground.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("redline: config file "), "{err}");
    assert!(err.contains("config.json is invalid"), "{err}");
}

#[test]
fn foreground_stays_in_the_terminal_and_names_no_log_file() {
    let (env, x) = (Env::new(), Xvfb::start());
    welcomed(&env);
    let mut child = desktop_cmd(&env, &x, &["--foreground"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    // Up once it says so; RUST_LOG=warn keeps other lines out unless something is wrong.
    while !said.contains("redline: started;") {
        let before = said.len();
        err.read_line(&mut said).unwrap();
        assert!(said.len() > before, "it stopped: {said}");
    }
    let status: Value = env.json(&["status", "--json"]);
    assert_eq!(status["pid"], child.id(), "it is the instance");
    assert_eq!(status.get("logFile"), None);
    assert!(child.try_wait().unwrap().is_none(), "it stays");
    assert!(!env.root.join("state").exists(), "no log file: {said}");
    env.ok(&["quit"]);
    assert!(child.wait().unwrap().success());
}

#[test]
fn redline_with_a_headless_redline_running_says_so_and_exits_1() {
    let env = Env::new();
    let mut headless = env.serve();
    // No display is needed to reach the running one: it is asked first.
    for args in [&[][..], &["--foreground"][..]] {
        let out = env.run(args);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("redline: a headless Redline"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    env.ok(&["quit"]);
    assert!(headless.wait().unwrap().success());
}
