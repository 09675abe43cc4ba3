//! What a check finds when it stops the chain: the verdict, why, the one fix, and notes.

use crate::doctor::report::{quote, shell, Fix, Verdict, WorkspaceFound};
use std::ops::ControlFlow;

/// What ends the chain of checks: the verdict, why in a sentence, the one fix, and notes.
pub(crate) struct Finding {
    pub verdict: Verdict,
    pub reason: String,
    pub fix: Option<Fix>,
    pub notes: Vec<String>,
}

impl Finding {
    pub(super) fn new(verdict: Verdict, reason: impl Into<String>, fix: Option<Fix>) -> Finding {
        Finding {
            verdict,
            reason: reason.into(),
            fix,
            notes: vec![],
        }
    }

    pub(super) fn note(mut self, note: impl Into<String>) -> Finding {
        self.notes.push(note.into());
        self
    }
}

/// A check's answer: stop with a finding, or go on with what it found.
pub(super) type Check<T = ()> = ControlFlow<Finding, T>;

/// The fix for most trouble with Redline's file or server: the workspace's servers anew.
pub(super) fn restart(ws: &WorkspaceFound) -> Option<Fix> {
    shell(restart_command(ws))
}

pub(super) fn restart_command(ws: &WorkspaceFound) -> String {
    format!(
        "redline workspace disable {p} && redline workspace enable {p}",
        p = quote(&ws.path)
    )
}
