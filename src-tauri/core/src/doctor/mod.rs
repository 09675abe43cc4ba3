//! `redline doctor`: for each CLI, as it would decide from a directory, whether it will connect
//! to Redline, and if not, why and the one command that fixes it.

mod facts;
pub(crate) mod install;
pub mod probe;
mod render;
pub(crate) mod scan;
mod verdict;
mod welcome;

pub use facts::Facts;
pub use render::render;
pub use welcome::{welcome, Line, Welcome};

use crate::clients::Cli;
use install::Installed;
use probe::Probe;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where the fix is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Place {
    /// In a terminal (this shell).
    Shell,
    /// Inside the CLI, at its prompt.
    Cli,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    pub command: String,
    #[serde(rename = "where")]
    pub place: Place,
}

/// Every outcome, with a stable code for scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Connects,
    NotInstalled,
    VersionKnownBad,
    NotRunning,
    Container,
    NoWorkspace,
    WorkspaceOff,
    FileElsewhere,
    FileMissing,
    FileSkipped,
    Shadowed,
    ContainerHost,
    TokenRefused,
    Unreachable,
    Unexpected,
    IdeDisabled,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CliReport {
    pub id: String,
    pub name: String,
    pub installed: Option<Installed>,
    pub verdict: Verdict,
    /// True if the CLI will connect (or is not installed, so cannot fail).
    pub ok: bool,
    /// Why, in a sentence.
    pub reason: String,
    pub fix: Option<Fix>,
    /// The discovery file the CLI would use.
    pub file: Option<PathBuf>,
    pub port: Option<u16>,
    pub probe: Option<Probe>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceFound {
    pub path: PathBuf,
    pub on: bool,
    pub port: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub dir: PathBuf,
    pub redline_pid: Option<u32>,
    pub workspace: Option<WorkspaceFound>,
    pub container: bool,
    pub clis: Vec<CliReport>,
    /// At least one CLI is installed and every installed one will connect: `redline doctor`
    /// exits 0.
    pub ok: bool,
}

/// The innermost workspace containing the directory: from the running Redline, else the config.
fn workspace_of(facts: &Facts) -> Option<WorkspaceFound> {
    let inside = |p: &Path| scan::contains(p, &facts.dir, facts.case_insensitive);
    let found = match &facts.redline {
        Some(s) => s
            .workspaces
            .iter()
            .filter(|w| inside(&w.path))
            .max_by_key(|w| w.path.as_os_str().len())
            .map(|w| WorkspaceFound {
                path: w.path.clone(),
                on: w.port.is_some(),
                port: w.port,
            }),
        None => facts
            .config
            .workspaces
            .iter()
            .filter(|w| inside(&w.path))
            .max_by_key(|w| w.path.as_os_str().len())
            .map(|w| WorkspaceFound {
                path: w.path.clone(),
                on: w.enabled,
                port: None,
            }),
    };
    found
}

/// Checks every CLI. Connects to the servers the CLIs would use.
pub async fn diagnose(facts: &Facts) -> Report {
    let workspace = workspace_of(facts);
    let mut clis = Vec::new();
    for cli in &facts.clis {
        clis.push(check(cli, facts, workspace.as_ref()).await);
    }
    // With no CLI at all nothing can connect: that is not a success, and the fix is to install one.
    let none_installed = clis.iter().all(|c| c.verdict == Verdict::NotInstalled);
    if none_installed {
        for (c, cli) in clis.iter_mut().zip(&facts.clis) {
            c.fix = shell(format!("npm install -g {}", cli.packages.join(" ")));
        }
    }
    Report {
        dir: facts.dir.clone(),
        redline_pid: facts.redline.as_ref().map(|s| s.pid),
        container: facts.in_container(),
        ok: !none_installed && clis.iter().all(|c| c.ok),
        workspace,
        clis,
    }
}

fn shell(command: impl Into<String>) -> Option<Fix> {
    Some(Fix {
        command: command.into(),
        place: Place::Shell,
    })
}

fn quote(p: &Path) -> String {
    let s = p.to_string_lossy();
    if s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@".contains(&b))
    {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

async fn check(cli: &Cli, facts: &Facts, ws: Option<&WorkspaceFound>) -> CliReport {
    let installed = install::find(cli, facts);
    let (trail, found) = verdict::decide(cli, facts, ws, installed.as_ref()).await;
    CliReport {
        id: cli.id.into(),
        name: cli.name.into(),
        installed,
        verdict: found.verdict,
        ok: matches!(found.verdict, Verdict::Connects | Verdict::NotInstalled),
        reason: found.reason,
        fix: found.fix,
        file: trail.file,
        port: trail.port,
        probe: trail.probe,
        notes: trail.notes.into_iter().chain(found.notes).collect(),
    }
}
