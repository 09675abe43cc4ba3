//! The machines a desktop reviews for, as the config keeps them: each a name and the command
//! whose stdin and stdout reach that machine's `redline bridge` (docs/remote.md).

use super::WorkspaceError;
use serde::{Deserialize, Serialize};

/// The longest name a remote may have: a label in the tray and a word on a command line.
pub const MAX_NAME: usize = 64;

/// A remote: `redline remote add NAME -- COMMAND...`, or a shorthand turned into its command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteEntry {
    pub name: String,
    /// The program and its arguments, run as given (no shell on this side).
    pub command: Vec<String>,
}

impl RemoteEntry {
    /// A remote named `name` reached by `command`; refused when either cannot be used.
    pub fn new(name: &str, command: Vec<String>) -> Result<RemoteEntry, WorkspaceError> {
        check_name(name)?;
        if command.first().is_none_or(|p| p.trim().is_empty()) {
            return Err(WorkspaceError::BadRemote(format!(
                "remote {name} needs a command after `--`, such as `ssh -T HOST redline bridge`"
            )));
        }
        Ok(RemoteEntry {
            name: name.to_owned(),
            command,
        })
    }
}

/// A name is letters, digits, `.`, `_` and `-`, 1 to `MAX_NAME` of them, not starting with `-`:
/// it is shown in menus and typed in commands, so nothing a shell or a terminal reads twice.
pub fn check_name(name: &str) -> Result<(), WorkspaceError> {
    let fits = !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with('-')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    match fits {
        true => Ok(()),
        false => Err(WorkspaceError::BadRemote(format!(
            "{name:?} cannot name a remote: use 1 to {MAX_NAME} letters, digits, `.`, `_` or `-`"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::config::Config;

    #[test]
    fn names_that_a_shell_or_terminal_would_read_twice_are_refused() {
        for ok in ["devbox", "gpu-1", "a.b_c", &"x".repeat(MAX_NAME)] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-x",
            "a b",
            "a;b",
            "$(id)",
            "a\"b",
            "a\nb",
            "dev ",
            "é",
            &"x".repeat(MAX_NAME + 1),
        ] {
            let e = check_name(bad).unwrap_err();
            assert_eq!(e.code(), crate::error::FaultCode::Usage, "{bad:?}");
        }
    }

    #[test]
    fn a_name_is_taken_once_and_removed_by_name() {
        let mut c = Config::default();
        let ssh = || RemoteEntry::new("dev", vec!["ssh".into(), "dev".into()]).unwrap();
        c.add_remote(ssh()).unwrap();
        let again = c.add_remote(ssh()).unwrap_err();
        assert_eq!(again.code(), crate::error::FaultCode::RemoteExists);
        assert_eq!(c.remove_remote("dev").unwrap(), ssh());
        let gone = c.remove_remote("dev").unwrap_err();
        assert_eq!(gone.code(), crate::error::FaultCode::NoSuchRemote);
        assert!(RemoteEntry::new("dev", vec![]).is_err());
        assert!(RemoteEntry::new("dev", vec![" ".into()]).is_err());
    }
}
