//! `redline doctor`: for each CLI, as it would decide from a directory, whether it will connect
//! to Redline, and if not, why and the one command that fixes it.

mod context;
mod facts;
mod hooks;
pub(crate) mod install;
pub mod probe;
mod render;
mod report;
pub(crate) mod scan;
mod verdict;
mod welcome;

pub use facts::Facts;
pub use render::render;
use report::shell;
pub use report::{
    CliReport, ContextReport, Fix, HookReport, Place, Report, Verdict, WorkspaceFound,
};
pub use welcome::{welcome, Line, Welcome};

use crate::clients::Served;
use std::path::Path;

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
    let hooks = hooks::check(facts, &clis);
    let context = context::check(facts, workspace.as_ref());
    Report {
        dir: facts.dir.clone(),
        redline_pid: facts.redline.as_ref().map(|s| s.pid),
        container: facts.in_container(),
        ok: !none_installed && clis.iter().all(|c| c.ok),
        workspace,
        clis,
        hooks,
        context,
    }
}

async fn check(cli: &Served, facts: &Facts, ws: Option<&WorkspaceFound>) -> CliReport {
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
