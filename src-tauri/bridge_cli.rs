//! `redline bridge [--start]`: this machine's reviews for a desktop, on stdin and stdout; with
//! `--start`, a headless instance started first when none runs (docs/remote.md).

use redline_core::platform::background;
use redline_core::platform::dirs::Dirs;
use redline_core::runtime::{control, stdio_channel};
use redline_core::{ControlFailure, Error, Result};
use std::process::{Command, Stdio};
use std::time::Duration;

/// How long a started instance may take to serve: as long as the desktop app's start.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// Joins stdin and stdout to the instance's bridge, starting the instance first if asked.
pub async fn run(dirs: &Dirs, start: bool) -> Result<()> {
    if start {
        match control::connect(dirs).await {
            Ok(_) => {}
            Err(Error::NotRunning) => start_headless()?,
            Err(e) => return Err(e),
        }
    }
    stdio_channel::bridge(dirs, tokio::io::stdin(), tokio::io::stdout()).await
}

/// `redline serve --headless` in the background (its own session, logging to the log file),
/// once it says `ready`; one started meanwhile by another does as well.
fn start_headless() -> Result<()> {
    let log = background::path_from_env();
    let failed = |why: String| {
        Error::Control(ControlFailure::NotStarted {
            why,
            log: log.clone(),
        })
    };
    let stderr = background::open(&log).map_err(|e| failed(e.to_string()))?;
    let exe = std::env::current_exe().map_err(|e| failed(e.to_string()))?;
    let mut cmd = Command::new(exe);
    cmd.args(["serve", "--headless"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr);
    #[cfg(unix)]
    background::new_session(&mut cmd);
    let mut child = cmd.spawn().map_err(|e| failed(e.to_string()))?;
    let out = child
        .stdout
        .take()
        .ok_or_else(|| failed("no output".into()))?;
    match crate::child_ready::first_line(out, READY_WITHIN) {
        Ok(line) if line.trim_end() == "ready" => Ok(()),
        // Exit 1: an instance that another start made meanwhile serves already.
        Ok(_) if child.wait().is_ok_and(|s| s.code() == Some(1)) => Ok(()),
        Ok(_) | Err(_) => Err(failed("it stopped, or was not serving in time".into())),
    }
}
