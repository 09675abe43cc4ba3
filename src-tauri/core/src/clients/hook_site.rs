//! A CLI whose pre-edit hook runs `redline hook`, as data: where its hook config lives and what
//! the hook entry says.

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
    /// The event run before a file edit, and the matcher naming its edit tools.
    pub event: &'static str,
    pub matcher: &'static str,
    /// The event run at the end of the model's turn, for `--turn-review`; `None`: Redline does
    /// not review this CLI's turns.
    pub turn_event: Option<&'static str>,
    /// The hook's timeout the CLI enforces; `redline hook` denies before it.
    pub timeout_secs: u64,
    /// The config gives the timeout in milliseconds (else seconds).
    pub timeout_in_ms: bool,
    /// The CLI takes the user's edited text back from its hook; else its reviews are read-only.
    pub takes_edits: bool,
    /// What the user still does in the CLI before it runs a hook it finds in its config.
    pub trust: Option<&'static str>,
}

impl HookSite {
    /// The timeout as the config writes it.
    pub fn timeout_value(&self) -> u64 {
        match self.timeout_in_ms {
            true => self.timeout_secs * 1000,
            false => self.timeout_secs,
        }
    }

    /// How long `redline hook` waits for the user before it denies: a minute less than the CLI
    /// waits for it, so the CLI never times out and goes on with the edit.
    pub fn deny_after(&self) -> u64 {
        self.timeout_secs.saturating_sub(60).max(1)
    }
}
