//! The export lines of `redline env`, for each shell.

use crate::instance::Pin;

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

/// Lines that pin Gemini CLI, Qwen Code and Claude Code in one terminal to this workspace's
/// servers (Claude Code's variable breaks a tie between several matching lock files).
pub fn exports(pin: &Pin, shell: Shell) -> String {
    let port = pin.port.to_string();
    let ws_port = pin.ws_port.map(|p| p.to_string());
    let mut vars = vec![
        ("GEMINI_CLI_IDE_SERVER_PORT", port.as_str()),
        ("GEMINI_CLI_IDE_WORKSPACE_PATH", pin.workspace_path.as_str()),
        ("GEMINI_CLI_IDE_AUTH_TOKEN", pin.auth_token.as_str()),
        ("QWEN_CODE_IDE_SERVER_PORT", port.as_str()),
    ];
    if let Some(ws_port) = &ws_port {
        vars.push(("CLAUDE_CODE_SSE_PORT", ws_port.as_str()));
    }
    vars.iter()
        .map(|(k, v)| match shell {
            Shell::Sh => format!("export {k}='{}'\n", v.replace('\'', r"'\''")),
            Shell::Fish => format!(
                "set -gx {k} '{}'\n",
                v.replace('\\', r"\\").replace('\'', r"\'")
            ),
            Shell::PowerShell => format!("$env:{k} = '{}'\n", v.replace('\'', "''")),
        })
        .collect()
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
    }
}
