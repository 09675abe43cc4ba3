//! A child process run to a deadline: what it printed if it exits in time, else it is killed (its
//! process group on unix, so what it started goes too) and nothing is waited on any more.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The most of a child's output kept.
const OUTPUT_CAP: u64 = 64 << 10;

/// How often a child that closed its output is checked for having exited.
const POLL: Duration = Duration::from_millis(5);

/// Runs `command` (stdin and stderr closed) and returns its output if it exits successfully
/// within `deadline`. Past the deadline it is killed and reaped, and `None` returned.
pub(crate) fn output(mut command: Command, deadline: Duration) -> Option<Vec<u8>> {
    let end = Instant::now() + deadline;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().ok()?;
    let mut stdout = child.stdout.take()?;
    // The read is on a thread of its own: a child that neither writes nor ends would hold it
    // forever. Once the child's group is killed its end of the pipe closes and the thread ends
    // (unless something left the group holding it, which holds that one thread, not the caller).
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let read = (&mut stdout).take(OUTPUT_CAP).read_to_end(&mut out);
        let _ = tx.send(read.map(|_| out));
    });
    let printed = rx
        .recv_timeout(end.saturating_duration_since(Instant::now()))
        .ok()
        .and_then(Result::ok);
    let status = printed.as_ref().and_then(|_| loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < end => std::thread::sleep(POLL),
            _ => break None,
        }
    });
    match status {
        Some(status) if status.success() => printed,
        Some(_) => None,
        None => {
            kill(&mut child);
            None
        }
    }
}

/// Kills the child and what it started, then reaps it. Its PID is still ours (not reaped yet),
/// so its group cannot have been reused.
fn kill(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill sends a signal and touches no memory of ours.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn the_output_of_a_child_that_ends_in_time() {
        let out = output(sh("echo hello"), Duration::from_secs(10));
        assert_eq!(out.as_deref(), Some(&b"hello\n"[..]));
        assert_eq!(output(sh("echo no; exit 3"), Duration::from_secs(10)), None);
        assert_eq!(
            output(
                Command::new("/nonexistent/program"),
                Duration::from_secs(10)
            ),
            None
        );
    }

    #[test]
    fn a_child_that_never_ends_is_killed_at_the_deadline_with_what_it_started() {
        let tmp = tempfile::tempdir().unwrap();
        let pid_file = tmp.path().join("pid");
        // A grandchild holding the output open, and a child that closed its own output but stays.
        let script = format!(
            "sleep 1000 & echo $! > '{}'; exec >&- ; wait",
            pid_file.display()
        );
        let start = Instant::now();
        assert_eq!(output(sh(&script), Duration::from_millis(300)), None);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        let grandchild: libc::pid_t = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // Killed with its group; reaped by init (or this process's subreaper) soon after.
        let gone = Instant::now() + Duration::from_secs(10);
        // SAFETY: signal 0 only checks existence.
        while unsafe { libc::kill(grandchild, 0) } == 0
            && !std::fs::read_to_string(format!("/proc/{grandchild}/stat"))
                .is_ok_and(|s| s.contains(") Z"))
        {
            assert!(
                Instant::now() < gone,
                "the grandchild {grandchild} outlived the deadline"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
