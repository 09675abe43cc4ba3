//! The checks before any file: the CLI is there and works with Redline, Redline runs, and a
//! workspace holding the directory is on.

use super::finding::{Check, Finding};
use crate::clients::{self, ContainerHost, Served};
use crate::doctor::facts::Facts;
use crate::doctor::install::Installed;
use crate::doctor::report::{advice, quote, shell, Fix, Place, Verdict, WorkspaceFound};
use crate::workspace::config;
use std::ops::ControlFlow::{Break, Continue};

/// Before any file: the CLI is there and works with Redline, Redline runs, and a workspace
/// holding this directory is on (at its port).
pub(super) fn reachable<'w>(
    cli: &Served,
    facts: &Facts,
    ws: Option<&'w WorkspaceFound>,
    installed: Option<&Installed>,
) -> Check<(&'w WorkspaceFound, u16)> {
    let Some(installed) = installed else {
        let why = format!("`{}` is not on PATH", cli.binary);
        return Break(Finding::new(Verdict::NotInstalled, why, None));
    };
    known_good(cli, installed)?;
    redline_runs(facts, ws)?;
    workspace_on(facts, ws)
}

fn known_good(cli: &Served, installed: &Installed) -> Check {
    let Some(v) = &installed.version else {
        return Continue(());
    };
    let Some(bad) = cli
        .ide
        .doctor
        .known_bad
        .iter()
        .find(|b| clients::version_below(v, b.below))
    else {
        return Continue(());
    };
    let latest: Vec<_> = cli.packages.iter().map(|p| format!("{p}@latest")).collect();
    Break(Finding::new(
        Verdict::VersionKnownBad,
        format!("{} {v} does not work with Redline: {}", cli.name, bad.why),
        shell(format!("npm install -g {}", latest.join(" "))),
    ))
}

fn redline_runs(facts: &Facts, ws: Option<&WorkspaceFound>) -> Check {
    if facts.redline.is_some() {
        return Continue(());
    }
    // With one of these set the CLIs stay on 127.0.0.1: Redline belongs in this container.
    let local = clients::served()
        .filter_map(|c| match c.ide.container.host {
            ContainerHost::DockerHostUnless(vars) => Some(vars),
            ContainerHost::LoopbackFirst
            | ContainerHost::SocketOnly
            | ContainerHost::LoopbackOnly => None,
        })
        .flatten()
        .any(|v| facts.var(v).is_some());
    if facts.in_container() && !local {
        return Break(in_container(ws));
    }
    let found = Finding::new(
        Verdict::NotRunning,
        "no Redline is running",
        shell(facts.start_command()),
    );
    Break(match ws {
        None => found.note(format!(
            "no workspace contains {} either: {}",
            quote(&facts.dir),
            add_workspace(facts).said()
        )),
        Some(w) if !w.on => found.note(format!(
            "its workspace is off: `redline workspace enable {}`",
            quote(&w.path)
        )),
        Some(_) => found,
    })
}

/// No Redline runs in this container: the fix is on the host, so no command here would work.
fn in_container(ws: Option<&WorkspaceFound>) -> Finding {
    // The host's path is unknown in here; `container args` mounts the workspace at its own
    // path, so this one is the host's unless the container was started otherwise.
    let steps = match ws {
        Some(w) => format!(
            "on the host, run `redline container enable {}` (with the workspace's path there, \
             if the container sees it elsewhere)",
            quote(&w.path)
        ),
        None => "on the host, cd into your project and run `redline workspace add .` and \
                 `redline container enable .`"
            .to_owned(),
    };
    Finding::new(
        Verdict::Container,
        "this is a container and no Redline runs in it; Redline on the host serves \
         containers once set up for them",
        advice(steps),
    )
    .note("then start the container with the options `redline container args` prints")
}

/// How to add a workspace holding this directory: `workspace add` of it where that is allowed,
/// else what to do instead (it refuses `/`, the home folder and a folder around workspaces).
pub(in crate::doctor) fn add_workspace(facts: &Facts) -> Fix {
    let dir = quote(&facts.dir);
    let home = facts.dirs.home.as_path();
    let inner: Vec<String> = facts
        .config
        .workspaces
        .iter()
        .filter(|w| w.path != facts.dir && w.path.starts_with(&facts.dir))
        .map(|w| quote(&w.path))
        .collect();
    let (place, command) = match config::too_broad(&facts.dir, home, &facts.config.workspaces) {
        None => (Place::Shell, format!("redline workspace add {dir}")),
        Some(_) if !inner.is_empty() => (
            Place::Advice,
            format!(
                "{dir} holds other workspaces ({}): cd into the one you work in and run `redline \
             doctor` there, or into another project and run `redline workspace add .`",
                inner.join(", ")
            ),
        ),
        Some(why) => (
            Place::Advice,
            format!(
            "cd into your project, then run `redline workspace add .` (not here: {dir} is {why})"
        ),
        ),
    };
    Fix { command, place }
}

fn workspace_on<'w>(
    facts: &Facts,
    ws: Option<&'w WorkspaceFound>,
) -> Check<(&'w WorkspaceFound, u16)> {
    let Some(ws) = ws else {
        return Break(Finding::new(
            Verdict::NoWorkspace,
            format!("no Redline workspace contains {}", quote(&facts.dir)),
            Some(add_workspace(facts)),
        ));
    };
    match ws.port {
        Some(port) => Continue((ws, port)),
        None => Break(Finding::new(
            Verdict::WorkspaceOff,
            format!("the workspace {} is off", ws.path.display()),
            shell(format!("redline workspace enable {}", quote(&ws.path))),
        )),
    }
}
