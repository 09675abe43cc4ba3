//! The export lines of `redline env`, for each shell.

use crate::api::status::Pin;
use crate::clients::{self, Pinned, Transport};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shell {
    Sh,
    Fish,
    PowerShell,
}

impl std::str::FromStr for Shell {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sh" | "bash" | "zsh" => Ok(Shell::Sh),
            "fish" => Ok(Shell::Fish),
            "powershell" | "pwsh" => Ok(Shell::PowerShell),
            other => Err(format!(
                "unknown shell {other:?}: use sh, fish or powershell"
            )),
        }
    }
}

/// Lines that pin every CLI in one terminal to this workspace's servers, with the variables
/// each CLI's data names (Claude Code's breaks a tie between several matching lock files).
pub fn exports(pin: &Pin, shell: Shell) -> String {
    let port_of = |transport| match transport {
        Transport::Http => Some(pin.port.to_string()),
        Transport::WebSocket => pin.ws_port.map(|p| p.to_string()),
        Transport::UnixHttp | Transport::AmpWebSocket => None,
    };
    clients::served()
        .flat_map(|cli| cli.ide.env.iter().map(move |(k, what)| (cli, *k, *what)))
        .filter_map(|(cli, k, what)| {
            let v = match what {
                Pinned::Port => port_of(cli.ide.transport)?,
                Pinned::WorkspacePath => pin.workspace_path.clone(),
                Pinned::AuthToken => pin.auth_token.clone(),
            };
            Some(line(shell, k, &v))
        })
        .collect()
}

fn line(shell: Shell, k: &str, v: &str) -> String {
    match shell {
        Shell::Sh => format!("export {k}='{}'\n", v.replace('\'', r"'\''")),
        Shell::Fish => format!(
            "set -gx {k} '{}'\n",
            v.replace('\\', r"\\").replace('\'', r"\'")
        ),
        Shell::PowerShell => format!("$env:{k} = '{}'\n", v.replace('\'', "''")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_for_each_shell() {
        let pin = Pin {
            port: 4000,
            ws_port: Some(4001),
            workspace_path: "/it's here".into(),
            auth_token: "abc".into(),
        };
        let sh = exports(&pin, Shell::Sh);
        assert!(sh.contains("export GEMINI_CLI_IDE_SERVER_PORT='4000'\n"));
        assert!(sh.contains(r"export GEMINI_CLI_IDE_WORKSPACE_PATH='/it'\''s here'"));
        assert!(sh.contains("export QWEN_CODE_IDE_SERVER_PORT='4000'\n"));
        assert!(sh.contains("export CLAUDE_CODE_SSE_PORT='4001'\n"));
        assert!(exports(&pin, Shell::Fish)
            .contains(r"set -gx GEMINI_CLI_IDE_WORKSPACE_PATH '/it\'s here'"));
        assert!(exports(&pin, Shell::PowerShell)
            .contains("$env:GEMINI_CLI_IDE_WORKSPACE_PATH = '/it''s here'"));
        assert!("nu".parse::<Shell>().is_err());
        assert_eq!(
            sh.lines()
                .map(|l| &l[7..l.find('=').unwrap()])
                .collect::<Vec<_>>(),
            [
                "GEMINI_CLI_IDE_SERVER_PORT",
                "GEMINI_CLI_IDE_WORKSPACE_PATH",
                "GEMINI_CLI_IDE_AUTH_TOKEN",
                "QWEN_CODE_IDE_SERVER_PORT",
                "CLAUDE_CODE_SSE_PORT"
            ]
        );
        let no_ws = Pin {
            ws_port: None,
            ..pin
        };
        assert!(!exports(&no_ws, Shell::Sh).contains("CLAUDE_CODE_SSE_PORT"));
    }
}
