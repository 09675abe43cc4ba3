//! A CLI whose pre-edit hook runs `redline hook`, as data: where its hook goes and in what form.

use super::cli::Location;

#[derive(Debug, Clone, Copy)]
pub struct HookSite {
    /// `redline hook ID`, `redline hooks install ID`.
    pub id: &'static str,
    pub name: &'static str,
    pub binary: &'static str,
    pub packages: &'static [&'static str],
    /// The file the hook goes into.
    pub config: Location,
    pub form: HookForm,
    /// The CLI takes the user's edited text back from its hook; else its reviews are read-only.
    pub takes_edits: bool,
    /// What the user still does in the CLI before it runs a hook it finds in its config.
    pub trust: Option<&'static str>,
}

/// How the CLI is told to run `redline hook`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookForm {
    /// A command entry in a JSON settings file, merged in beside the user's other hooks.
    Settings {
        /// The event run before a file edit, and the matcher naming its edit tools.
        event: &'static str,
        matcher: &'static str,
        /// The hook's timeout the CLI enforces; `redline hook` denies before it.
        timeout_secs: u64,
        /// The config gives the timeout in milliseconds (else seconds).
        timeout_in_ms: bool,
    },
    /// A plugin file that is Redline's alone, loaded into the CLI's own process, which awaits
    /// it without a timeout (opencode).
    Plugin,
}

impl HookSite {
    /// How long the CLI waits for its hook, if it stops waiting at all.
    pub fn timeout_secs(&self) -> Option<u64> {
        match self.form {
            HookForm::Settings { timeout_secs, .. } => Some(timeout_secs),
            HookForm::Plugin => None,
        }
    }

    /// How long `redline hook` waits for the user before it denies: a minute less than the CLI
    /// waits for it, so the CLI never times out and goes on with the edit; no limit for a CLI
    /// that waits as long as it takes.
    pub fn deny_after(&self) -> Option<u64> {
        self.timeout_secs().map(|t| t.saturating_sub(60).max(1))
    }
}
