//! Whether a CLI is installed (on PATH) and which version, and whether its IDE mode is on.

use super::rules::{IdeMode, Rules};
use super::Facts;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Installed {
    pub path: PathBuf,
    /// From the npm package's `package.json`; `None` for a build that carries none.
    pub version: Option<String>,
}

/// The CLI's command on the PATH of `facts`, and its version.
pub fn find(rules: &Rules, facts: &Facts) -> Option<Installed> {
    let path = facts.var("PATH")?;
    let names: Vec<String> = if cfg!(windows) {
        ["cmd", "exe", "ps1"]
            .iter()
            .map(|e| format!("{}.{e}", rules.binary))
            .collect()
    } else {
        vec![rules.binary.to_owned()]
    };
    let found = std::env::split_paths(path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| is_executable(p))?;
    let version = version(&found, rules.package);
    Some(Installed {
        path: found,
        version,
    })
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// npm links the command to a script inside the package: its nearest `package.json` that
/// names the package says the version. A Windows `.cmd` shim sits beside `node_modules`.
fn version(command: &Path, package: &str) -> Option<String> {
    let real = dunce::canonicalize(command).unwrap_or_else(|_| command.to_owned());
    let beside = command
        .parent()
        .map(|d| d.join("node_modules").join(package).join("package.json"));
    let ancestors = real
        .ancestors()
        .skip(1)
        .take(8)
        .map(|d| d.join("package.json"));
    beside
        .into_iter()
        .chain(ancestors)
        .filter_map(|p| std::fs::read(p).ok())
        .filter_map(|b| serde_json::from_slice::<Value>(&b).ok())
        .find(|v| v["name"] == package)
        .and_then(|v| v["version"].as_str().map(str::to_owned))
}

/// The CLI's own home: `~/.gemini`, `$QWEN_HOME` or `~/.qwen`, `$CLAUDE_CONFIG_DIR` or `~`.
fn home_of(rules: &Rules, facts: &Facts) -> PathBuf {
    let home = facts
        .var(if cfg!(windows) { "USERPROFILE" } else { "HOME" })
        .map(PathBuf::from)
        .unwrap_or_default();
    match rules.id {
        "qwen" => facts
            .var("QWEN_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".qwen")),
        "claude" => facts
            .var("CLAUDE_CONFIG_DIR")
            .map(PathBuf::from)
            .unwrap_or(home),
        _ => home,
    }
}

/// Whether IDE mode is on: `Some(true/false)` from a setting, `None` when the CLI connects on
/// request (Claude Code) and `auto` says whether it does so at start.
pub struct Mode {
    pub setting: Option<bool>,
    pub file: PathBuf,
    pub auto: bool,
}

pub fn ide_mode(rules: &Rules, facts: &Facts) -> Mode {
    let home = home_of(rules, facts);
    let read = |p: &Path| -> Option<Value> { serde_json::from_slice(&std::fs::read(p).ok()?).ok() };
    match rules.ide_mode {
        IdeMode::Setting { file } => {
            let file = home.join(file);
            let v = read(&file);
            let on = v.as_ref().is_some_and(|v| {
                v.pointer("/ide/enabled").and_then(Value::as_bool) == Some(true)
                    || v.get("ide.enabled").and_then(Value::as_bool) == Some(true)
                    // The settings layout before `ide.enabled`.
                    || v.get("ideMode").and_then(Value::as_bool) == Some(true)
            });
            Mode {
                setting: Some(on),
                file,
                auto: false,
            }
        }
        IdeMode::OnRequest => {
            let file = home.join(".claude.json");
            let auto = read(&file)
                .and_then(|v| v.get("autoConnectIde").and_then(Value::as_bool))
                .unwrap_or(false);
            Mode {
                setting: None,
                file,
                auto,
            }
        }
    }
}
