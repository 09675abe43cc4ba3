//! The discovery file formats the CLIs read: how each names its files and how a file is read
//! back (whose it is, its PID, roots and token). `discovery` writes them.

use serde_json::Value;

/// Our own IDE identity: never claim another IDE's (the CLI would try to install extensions).
pub const IDE_NAME: &str = "redline";
pub const IDE_DISPLAY_NAME: &str = "Redline";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `gemini-ide-server-<PID>-<PORT>.json`:
    /// `{port, workspacePath, authToken, ideInfo: {name, displayName}}`.
    GeminiJson,
    /// `<PORT>.lock` (a `<PID>-<PORT>.lock` is ignored):
    /// `{port, workspacePath, ppid, authToken, ideInfo}`.
    QwenLock,
    /// `<PORT>.lock`: `{pid, workspaceFolders, ideName, transport: "ws", runningInWindows,
    /// authToken}`.
    ClaudeLock,
    /// `redline-<PID>-<PORT>[-<TAG>].lock` (Copilot CLI reads every `*.lock`): `{socketPath,
    /// scheme, headers: {Authorization}, pid, timestamp, workspaceFolders, ideName, isTrusted?}`.
    /// PORT is the workspace's HTTP port, which keeps names apart; TAG names a lock written for
    /// one session's folder.
    CopilotLock,
    /// `<PORT>.json`: `{workspaceFolders, port, ideName, authToken, pid}`.
    AmpJson,
}

/// Where the workspace roots are in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roots {
    /// One string, roots joined with the OS path delimiter.
    Joined(&'static str),
    /// An array of strings.
    Array(&'static str),
}

impl Roots {
    pub fn field(self) -> &'static str {
        match self {
            Roots::Joined(f) | Roots::Array(f) => f,
        }
    }
}

impl Format {
    /// The name of the file announcing a server on `port` for Redline's process `pid`.
    pub fn file_name(self, pid: u32, port: u16) -> String {
        match self {
            Format::GeminiJson => format!("gemini-ide-server-{pid}-{port}.json"),
            Format::QwenLock | Format::ClaudeLock => format!("{port}.lock"),
            Format::CopilotLock => format!("redline-{pid}-{port}.lock"),
            Format::AmpJson => format!("{port}.json"),
        }
    }

    /// The PID (for names that carry one) and port, if the CLI would read a file so named.
    pub fn parse_name(self, file_name: &str) -> Option<(Option<u32>, u16)> {
        match self {
            Format::GeminiJson => {
                let (pid, port) = gemini_name(file_name)?;
                Some((pid.parse().ok(), port.parse().ok()?))
            }
            Format::QwenLock | Format::ClaudeLock => {
                Some((None, lock_name(file_name)?.parse().ok()?))
            }
            Format::CopilotLock => {
                let (pid, port) = copilot_name(file_name)?;
                Some((pid.parse().ok(), port.parse().ok()?))
            }
            Format::AmpJson => Some((None, file_name.strip_suffix(".json")?.parse().ok()?)),
        }
    }

    /// The body field holding the owning process's PID; `None`: the name holds it.
    pub fn pid_field(self) -> Option<&'static str> {
        match self {
            Format::GeminiJson => None,
            Format::QwenLock => Some("ppid"),
            Format::ClaudeLock | Format::CopilotLock | Format::AmpJson => Some("pid"),
        }
    }

    /// The owning PID, from the name or the body.
    pub fn pid_of(self, name_pid: Option<u32>, body: &Value) -> Option<u32> {
        match self.pid_field() {
            None => name_pid,
            Some(field) => body
                .get(field)
                .and_then(Value::as_u64)
                .and_then(|p| u32::try_from(p).ok()),
        }
    }

    pub fn roots(self) -> Roots {
        match self {
            Format::GeminiJson | Format::QwenLock => Roots::Joined("workspacePath"),
            Format::ClaudeLock | Format::CopilotLock | Format::AmpJson => {
                Roots::Array("workspaceFolders")
            }
        }
    }

    /// Whether a parsed file is Redline's.
    pub fn is_redlines(self, body: &Value) -> bool {
        match self {
            Format::GeminiJson | Format::QwenLock => {
                body.pointer("/ideInfo/name").and_then(Value::as_str) == Some(IDE_NAME)
            }
            // Claude Code's, Copilot CLI's and Amp's locks carry no `ideInfo`.
            Format::ClaudeLock | Format::CopilotLock | Format::AmpJson => body
                .get("ideName")
                .and_then(Value::as_str)
                .is_some_and(|n| n.eq_ignore_ascii_case(IDE_NAME)),
        }
    }

    /// The IDE a file names, for messages.
    pub fn ide_of(self, body: &Value) -> Option<String> {
        let name = match self {
            Format::GeminiJson | Format::QwenLock => body
                .pointer("/ideInfo/displayName")
                .or_else(|| body.pointer("/ideInfo/name")),
            Format::ClaudeLock | Format::CopilotLock | Format::AmpJson => body.get("ideName"),
        };
        name.and_then(Value::as_str).map(str::to_owned)
    }

    /// The unix socket a file names, for a CLI that connects to one.
    pub fn socket(self, body: &Value) -> Option<&str> {
        match self {
            Format::CopilotLock => body.get("socketPath")?.as_str(),
            _ => None,
        }
    }

    /// The token a CLI would present.
    pub fn token(self, body: &Value) -> Option<&str> {
        match self {
            Format::CopilotLock => body
                .pointer("/headers/Authorization")?
                .as_str()?
                .strip_prefix("Bearer "),
            _ => body.get("authToken")?.as_str(),
        }
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The PID and port, as digits, of a name Gemini CLI scans: `gemini-ide-server-<PID>-<PORT>.json`.
fn gemini_name(file_name: &str) -> Option<(&str, &str)> {
    let middle = file_name
        .strip_prefix("gemini-ide-server-")?
        .strip_suffix(".json")?;
    let (pid, port) = middle.split_once('-')?;
    (digits(pid) && digits(port)).then_some((pid, port))
}

/// The port, as digits, of a name Qwen Code and Claude Code scan: `<PORT>.lock`.
fn lock_name(file_name: &str) -> Option<&str> {
    file_name.strip_suffix(".lock").filter(|port| digits(port))
}

/// The PID and port, as digits, of a Copilot lock of Redline's:
/// `redline-<PID>-<PORT>[-<TAG>].lock`.
fn copilot_name(file_name: &str) -> Option<(&str, &str)> {
    let middle = file_name.strip_prefix("redline-")?.strip_suffix(".lock")?;
    let mut parts = middle.splitn(3, '-');
    let (pid, port) = (parts.next()?, parts.next()?);
    let tag_ok = parts
        .next()
        .is_none_or(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric()));
    (digits(pid) && digits(port) && tag_ok).then_some((pid, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_as_each_cli_reads_them() {
        let g = Format::GeminiJson;
        assert_eq!(
            g.parse_name("gemini-ide-server-12-345.json"),
            Some((Some(12), 345))
        );
        assert_eq!(g.parse_name("gemini-ide-server-12.json"), None);
        assert_eq!(g.parse_name("gemini-ide-server-a-1.json"), None);
        for l in [Format::QwenLock, Format::ClaudeLock] {
            assert_eq!(l.parse_name("4000.lock"), Some((None, 4000)));
            assert_eq!(
                l.parse_name("12-4000.lock"),
                None,
                "the spec's name is ignored"
            );
            assert_eq!(l.parse_name("99999.lock"), None, "not a port");
        }
    }

    #[test]
    fn copilot_names_are_ours_with_an_optional_tag() {
        let c = Format::CopilotLock;
        assert_eq!(c.file_name(12, 345), "redline-12-345.lock");
        assert_eq!(c.parse_name("redline-12-345.lock"), Some((Some(12), 345)));
        assert_eq!(
            c.parse_name("redline-12-345-s678.lock"),
            Some((Some(12), 345))
        );
        for other in [
            "4e08e3c1-aaaa.lock",
            "redline-12.lock",
            "redline-12-345-.lock",
            "redline-12-345-a.b.lock",
            "redline-x-345.lock",
        ] {
            assert_eq!(c.parse_name(other), None, "{other}");
        }
        let body = serde_json::json!({"headers": {"Authorization": "Bearer t0k"}});
        assert_eq!(c.token(&body), Some("t0k"));
    }
}
