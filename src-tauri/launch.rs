//! `redline` from a terminal: starts the app in the background, in a session of its own and
//! logging to a file, and returns once its tray is up, as other tray apps do. `--foreground`
//! runs it in this process instead (service managers, tests).

use crate::desktop::{self, READY};
use crate::outcome::{self, Outcome};
use crate::output::{errln, Printer};
use redline_core::platform::background;
use redline_core::platform::dirs::Dirs;
use redline_core::Error;
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

/// The hidden flag the app started in the background is given: it then logs to the file and
/// says `ready` on stdout.
pub const STARTED_FLAG: &str = "--started-in-background";

/// How long the tray may take to come up (a slow desktop session at login); past this the
/// starter gives the terminal back all the same, saying where to look.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// How much of the log a start that failed shows.
const TAIL_LINES: usize = 12;

/// Starts Redline in the background, or reaches the one running; the exit status as `redline`
/// in the foreground would give it.
pub fn start(p: &mut Printer) -> ExitCode {
    let dirs = Dirs::from_env();
    match running(&dirs) {
        Ok(Some(outcome)) => return outcome::ended(p, outcome),
        Ok(None) => {}
        Err(e) => {
            errln!(p, "redline: {e}");
            return ExitCode::from(2);
        }
    }
    // The app would only say so in its log: said here, where it is read.
    if let Some(missing) = redline_core::platform::display::missing() {
        errln!(p, "redline: {}", Error::NoDisplay(missing.into()));
        return ExitCode::from(2);
    }
    let log = background::path_from_env();
    let from = std::fs::metadata(&log).map_or(0, |m| m.len());
    match spawn(&log) {
        Ok(child) => wait_ready(p, child, &log, from),
        Err(e) => {
            errln!(
                p,
                "redline: cannot start Redline in the background ({e}); `redline --foreground` \
                 runs it in this terminal"
            );
            ExitCode::from(2)
        }
    }
}

/// What the running Redline did when asked for its window; none when none runs.
fn running(dirs: &Dirs) -> Result<Option<Outcome>, Error> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("the async runtime", e))?;
    match runtime.block_on(desktop::show_running(dirs)) {
        Ok(outcome) => Ok(Some(outcome)),
        Err(Error::NotRunning) => Ok(None),
        Err(e) => Err(e),
    }
}

/// This program again, in a new session with no terminal: stdin from nothing, stdout a pipe to
/// us for `ready`, stderr the log (so that even a panic before its logging is set up lands there).
fn spawn(log: &Path) -> std::io::Result<Child> {
    let stderr = background::open(log)?;
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.arg(STARTED_FLAG)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr);
    background::new_session(&mut cmd);
    cmd.spawn()
}

/// Waits, at most `READY_WITHIN`, for the started app's `ready`, or for it to stop before.
fn wait_ready(p: &mut Printer, mut child: Child, log: &Path, from: u64) -> ExitCode {
    let Some(out) = child.stdout.take() else {
        return ended_early(p, child, log, from);
    };
    match crate::child_ready::first_line(out, READY_WITHIN) {
        Ok(line) if line.trim_end() == READY => {
            errln!(p, "{}", desktop::started_line(Some(log)));
            ExitCode::SUCCESS
        }
        Ok(_) | Err(RecvTimeoutError::Disconnected) => ended_early(p, child, log, from),
        Err(RecvTimeoutError::Timeout) => {
            errln!(
                p,
                "redline: Redline is not up after {} s and goes on starting in the background: \
                 `redline status` says when it is, `redline quit` stops it; its log: {}",
                READY_WITHIN.as_secs(),
                log.display()
            );
            ExitCode::from(2)
        }
    }
}

/// The started app closed its stdout before `ready`: it has stopped. Its exit status is ours,
/// and what it logged says why.
fn ended_early(p: &mut Printer, mut child: Child, log: &Path, from: u64) -> ExitCode {
    let code = match child.wait() {
        Ok(status) => status.code(),
        Err(_) => None,
    };
    // It found a Redline that started meanwhile and showed that one's window.
    if code == Some(0) {
        return ExitCode::SUCCESS;
    }
    let said = background::tail(log, from, TAIL_LINES);
    let status = ExitCode::from(if code == Some(1) { 1 } else { 2 });
    // The app's own last line, as it says it in the foreground: a "no" (exit 1: a headless
    // Redline started meanwhile), or the `redline: …` line it ends with when it cannot start (a
    // display it cannot open, a config it cannot read; warnings before it stay in the log).
    let own = said
        .last()
        .filter(|l| code == Some(1) || l.starts_with("redline: "));
    if let Some(last) = own {
        errln!(p, "{last}");
        return status;
    }
    errln!(
        p,
        "redline: Redline stopped before its tray was up; the end of its log ({}):",
        log.display()
    );
    for line in said {
        errln!(p, "  {line}");
    }
    status
}
