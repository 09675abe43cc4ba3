//! The process table: whether a PID is alive, injected so stale-file cleanup is testable.

pub trait ProcessTable: Send + Sync + 'static {
    fn is_alive(&self, pid: u32) -> bool;
}

/// The operating system's process table.
pub struct OsProcessTable;

impl ProcessTable for OsProcessTable {
    #[cfg(unix)]
    fn is_alive(&self, pid: u32) -> bool {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return false;
        }
        // Signal 0 checks existence only; EPERM still means the process exists.
        // SAFETY: kill with signal 0 sends nothing and touches no memory.
        let rc = unsafe { libc::kill(pid, 0) };
        rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }

    #[cfg(windows)]
    fn is_alive(&self, pid: u32) -> bool {
        use windows_sys::Win32::Foundation::{CloseHandle, STILL_ACTIVE};
        use windows_sys::Win32::System::Threading::{
            GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
        };
        // SAFETY: plain Win32 calls on a handle we own and close.
        unsafe {
            let handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
            if handle.is_null() {
                return false;
            }
            let mut code = 0u32;
            let ok = GetExitCodeProcess(handle, &mut code) != 0;
            CloseHandle(handle);
            ok && code == STILL_ACTIVE as u32
        }
    }
}

/// This process's PID: the one discovery files must carry.
pub fn own_pid() -> u32 {
    std::process::id()
}

/// The PIDs above `pid` (parent, grandparent, …), nearest first. Gemini CLI looks for its IDE
/// among its own ancestors, which a CLI started from this shell shares with this process.
#[cfg(target_os = "linux")]
pub fn ancestors(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = pid;
    while let Some(p) = parent(at).filter(|p| *p > 1 && !out.contains(p)) {
        out.push(p);
        at = p;
    }
    out
}

#[cfg(not(target_os = "linux"))]
pub fn ancestors(_pid: u32) -> Vec<u32> {
    Vec::new()
}

/// The session `pid` belongs to: the PID of its leader, the process a terminal, sshd or tmux
/// started (`setsid`) to run what the user typed.
#[cfg(target_os = "linux")]
pub fn session(pid: u32) -> Option<u32> {
    stat_field(pid, 3).filter(|s| *s > 0)
}

/// The PID of `pid`'s parent.
#[cfg(target_os = "linux")]
pub fn parent(pid: u32) -> Option<u32> {
    stat_field(pid, 1)
}

/// Field `n` after the command name in `/proc/PID/stat` (0 state, 1 ppid, 2 pgrp, 3 session).
#[cfg(target_os = "linux")]
fn stat_field(pid: u32, n: usize) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields follow the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split(' ').nth(n)?.parse().ok()
}

#[cfg(not(target_os = "linux"))]
pub fn session(_pid: u32) -> Option<u32> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_session_is_led_by_its_first_process() {
        let mut child = std::process::Command::new("setsid")
            .args(["sleep", "30"])
            .spawn()
            .unwrap();
        let pid = child.id();
        // setsid(1) makes the session in the child before it execs sleep.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while session(pid) != Some(pid) {
            assert!(std::time::Instant::now() < deadline, "{:?}", session(pid));
            std::thread::yield_now();
        }
        assert_ne!(session(own_pid()), Some(pid));
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn this_process_is_alive_and_an_ended_one_is_not() {
        let table = OsProcessTable;
        assert!(table.is_alive(own_pid()));
        // A short-lived child: this test binary listing its tests.
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .arg("--list")
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        assert!(child.wait().unwrap().success());
        drop(child);
        assert!(!table.is_alive(pid), "pid {pid} ended but reads as alive");
        assert!(!table.is_alive(0));
        assert!(!table.is_alive(u32::MAX));
    }
}
