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
    /// The hook's timeout the CLI enforces; `redline hook` denies before it.
    pub timeout_secs: u64,
    /// What the user still does in the CLI before it runs a hook it finds in its config.
    pub trust: Option<&'static str>,
}

impl HookSite {
    /// How long `redline hook` waits for the user before it denies: a minute less than the CLI
    /// waits for it, so the CLI never times out and goes on with the edit.
    pub fn deny_after(&self) -> u64 {
        self.timeout_secs.saturating_sub(60).max(1)
    }
}
