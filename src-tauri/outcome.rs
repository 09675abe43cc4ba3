//! How a launch of the desktop app ended short of an error, and the exit status it gives.

use crate::output::{errln, Printer};
use std::process::ExitCode;

/// How a launch ended, short of an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Redline ran until told to quit.
    Stopped,
    /// Another Redline runs: it showed its window.
    Shown,
    /// Another Redline runs headless: it has no window to show. A "no" (exit 1), not an
    /// error: nothing opened, and a launcher or script must not think the app is up.
    Headless,
}

/// What a launch that found a headless Redline says, with what to do instead.
pub const HEADLESS_RUNNING: &str = "a headless Redline (`redline serve --headless`) is running, \
     so no window opened; stop it with `redline quit` and run `redline` again, or use `redline \
     review list`";

/// The exit status (docs/cli.md): a headless Redline running is the "no" of 1, said with what
/// to do instead.
pub fn ended(p: &mut Printer, outcome: Outcome) -> ExitCode {
    match outcome {
        Outcome::Stopped | Outcome::Shown => ExitCode::SUCCESS,
        Outcome::Headless => {
            errln!(p, "redline: {HEADLESS_RUNNING}");
            ExitCode::from(1)
        }
    }
}
