//! Whether a CLI is installed (on PATH) and which version, and whether its IDE mode is on.

use super::Facts;
use crate::clients::{IdeMode, Location, Served};
use crate::platform::package;
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

/// The CLI's command on the PATH of `facts` (with Windows' executable extensions), and its
/// version.
pub fn find(cli: &Served, facts: &Facts) -> Option<Installed> {
    find_program(cli.binary, cli.packages, facts)
}

/// As `find`, for a program named `binary` from npm `packages`.
pub fn find_program(binary: &str, packages: &[&str], facts: &Facts) -> Option<Installed> {
    let path = facts.var("PATH")?;
    let found = which::which_in(binary, Some(path), &facts.dir).ok()?;
    let version = packages
        .first()
        .and_then(|p| package::version_of(&found, p));
    Some(Installed {
        path: found,
        version,
    })
}

/// A file of the CLI's as the environment of `facts` resolves it.
pub(super) fn resolve(file: &Location, facts: &Facts) -> PathBuf {
    let home = facts
        .var(if cfg!(windows) { "USERPROFILE" } else { "HOME" })
        .map(PathBuf::from)
        .unwrap_or_default();
    file.resolve(&home, &facts.dirs.tmp, &|k| facts.var(k).map(PathBuf::from))
}

/// Whether IDE mode is on: `Some(true/false)` from a setting, `None` when the CLI connects on
/// request (Claude Code) and `auto` says whether it does so at start.
pub struct Mode {
    pub setting: Option<bool>,
    pub file: PathBuf,
    pub auto: bool,
    /// Edits go to the IDE for review (off with Copilot CLI's `ide.openDiffOnEdit: false`).
    pub sends_diffs: bool,
}

pub fn ide_mode(cli: &Served, facts: &Facts) -> Mode {
    let read = |p: &Path| -> Option<Value> { serde_json::from_slice(&std::fs::read(p).ok()?).ok() };
    match cli.ide.doctor.ide_mode {
        IdeMode::Setting { file } => {
            let file = resolve(&file, facts);
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
                sends_diffs: true,
            }
        }
        IdeMode::AutoUnlessOff { file } => {
            let file = resolve(&file, facts);
            let v = read(&file);
            let off = |key: &str| {
                v.as_ref()
                    .is_some_and(|v| v.pointer(key).and_then(Value::as_bool) == Some(false))
            };
            Mode {
                setting: None,
                auto: !off("/ide/autoConnect"),
                sends_diffs: !off("/ide/openDiffOnEdit"),
                file,
            }
        }
        // Nothing to switch on; edits never go to the IDE.
        IdeMode::Always => Mode {
            setting: None,
            file: resolve(&cli.ide.discovery.dir, facts),
            auto: true,
            sends_diffs: false,
        },
        IdeMode::OnRequest { file } => {
            let file = resolve(&file, facts);
            let auto = read(&file)
                .and_then(|v| v.get("autoConnectIde").and_then(Value::as_bool))
                .unwrap_or(false);
            Mode {
                setting: None,
                file,
                auto,
                sends_diffs: true,
            }
        }
    }
}
