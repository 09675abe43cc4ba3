//! The checks on Redline's discovery file: that it is where the CLI reads, the CLI does not skip
//! it, and the CLI picks it before another IDE's.

use super::finding::{restart, restart_command, Check, Finding};
use crate::clients::{IdeMode, Served, Transport};
use crate::doctor::facts::Facts;
use crate::doctor::report::{quote, shell, Verdict, WorkspaceFound};
use crate::doctor::scan::{self, Seen};
use std::ops::ControlFlow::{Break, Continue};
use std::path::{Path, PathBuf};

/// Redline's files of this workspace that are meant for this CLI, wherever Redline wrote them.
fn redline_files_for(cli: &Served, facts: &Facts, ws: &Path) -> Vec<PathBuf> {
    let Some(status) = &facts.redline else {
        return vec![];
    };
    let format = cli.ide.discovery.format;
    let field = format.roots().field();
    status
        .workspaces
        .iter()
        .filter(|w| w.path == ws)
        .flat_map(|w| w.discovery_files.iter())
        .filter(|f| {
            let named = f
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| format.parse_name(n))
                .is_some();
            // Qwen's and Claude's locks share a name pattern: the body tells them apart.
            let body: Option<serde_json::Value> = std::fs::read(f)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok());
            named && body.is_none_or(|b| b.get(field).is_some())
        })
        .cloned()
        .collect()
}

/// Redline's file for this workspace: by port (HTTP), or by its roots (Claude Code's server
/// has a port of its own). An unreadable file on the port may be ours: the CLI is told why.
/// A file listing this very directory first (Copilot CLI's per-folder locks), then the
/// workspace's own.
pub(super) fn discovery_file<'s>(
    cli: &Served,
    facts: &Facts,
    ws: &WorkspaceFound,
    port: u16,
    seen: &'s [Seen],
) -> Check<&'s Seen> {
    let mine = |s: &&Seen| s.ours && (s.port == port || s.roots.contains(&ws.path));
    if let Some(ours) = seen.iter().filter(mine).find(|s| s.matches).or_else(|| {
        seen.iter()
            .find(|s| mine(s) || (s.body.is_none() && s.port == port))
    }) {
        return Continue(ours);
    }
    let cli_dir = facts.dirs.discovery(cli);
    let elsewhere = redline_files_for(cli, facts, &ws.path);
    if let Some(f) = elsewhere
        .iter()
        .find(|f| f.parent() != Some(cli_dir.as_path()))
    {
        return Break(
            Finding::new(
                Verdict::FileElsewhere,
                format!(
                    "Redline wrote {}, but {} started from this shell reads {} (Redline runs \
                     with a different environment)",
                    f.display(),
                    cli.name,
                    cli_dir.display()
                ),
                shell(format!("redline quit && {}", facts.start_command())),
            )
            .note("start Redline from a shell with the same HOME and TMPDIR as the CLI's"),
        );
    }
    let status = facts
        .redline
        .as_ref()
        .and_then(|s| s.workspaces.iter().find(|w| w.path == ws.path));
    let failures = status
        .map(|w| w.discovery_failures.iter())
        .into_iter()
        .flatten()
        .map(|failure| format!("not written: {failure}"))
        .chain(
            status
                .map(|w| w.discovery_gone.iter())
                .into_iter()
                .flatten()
                .map(|gone| format!("gone: {gone}")),
        );
    Break(Finding {
        notes: failures.collect(),
        ..Finding::new(
            Verdict::FileMissing,
            format!(
                "Redline's discovery file for {} is missing from {}",
                cli.name,
                cli_dir.display()
            ),
            restart(ws),
        )
    })
}

pub(super) fn not_skipped(cli: &Served, ours: &Seen, ws: &WorkspaceFound) -> Check {
    let Some(skip) = &ours.skip else {
        return Continue(());
    };
    let fix = match skip {
        scan::Skip::OtherOwner { .. } => shell(format!(
            "sudo rm {} && {}",
            quote(&ours.path),
            restart_command(ws)
        )),
        _ => restart(ws),
    };
    Break(Finding::new(
        Verdict::FileSkipped,
        format!("{} skips {}: {skip}", cli.name, ours.path.display()),
        fix,
    ))
}

/// A port variable in this shell that names another server than Redline's.
pub(super) fn port_variable(cli: &Served, facts: &Facts, port: u16) -> Option<String> {
    let name = cli.ide.port_var()?;
    let var = facts.var(name)?;
    (var != port.to_string()).then(|| {
        format!("{name}={var} in this shell names another server than Redline's (port {port})")
    })
}

/// The CLI picks Redline's file among those matching this directory (`chosen`, its first).
pub(super) fn picked(
    cli: &Served,
    facts: &Facts,
    ws: &WorkspaceFound,
    ours: &Seen,
    chosen: Option<&Seen>,
) -> Check<Option<String>> {
    let name = cli.name;
    match chosen {
        Some(c) if c.path == ours.path => Continue(None),
        Some(other) => Break(shadowed(cli, facts, other, ours.port)),
        // Redline writes a file for this folder once a session starts here.
        None if cli.ide.sessions.is_some() => Continue(Some(format!(
            "{name} connects by itself only from a folder a lock lists exactly: when it starts \
             in {} Redline writes one for it within a second; `/ide` (pick Redline) connects \
             by hand",
            facts.dir.display()
        ))),
        None => Break(Finding::new(
            Verdict::FileMissing,
            format!(
                "{name} would not match {} to Redline's file {}",
                facts.dir.display(),
                ours.path.display()
            ),
            restart(ws),
        )),
    }
}

pub(super) fn several_ides(cli: &Served, matching: usize) -> Option<String> {
    (matching > 1 && matches!(cli.ide.doctor.ide_mode, IdeMode::OnRequest { .. }))
        .then(|| format!("{matching} IDEs match this directory: pick Redline in `/ide`"))
}

/// Another IDE's file that the CLI picks before Redline's (on `port`).
fn shadowed(cli: &Served, facts: &Facts, other: &Seen, port: u16) -> Finding {
    let by_var = cli
        .ide
        .port_var()
        .filter(|name| facts.var(name) == Some(other.port.to_string().as_str()));
    let why = match by_var {
        Some(name) => format!("{name}={} in this shell picks it", other.port),
        None => format!("{} tries it first", cli.name),
    };
    Finding::new(
        Verdict::Shadowed,
        format!(
            "{}'s file {} also matches {}, and {why}",
            other.label(),
            other.path.display(),
            facts.dir.display()
        ),
        shell(match (cli.ide.transport, cli.ide.port_var()) {
            (Transport::WebSocket, Some(name)) => format!("export {name}={port}"),
            _ => "eval \"$(redline env)\"".to_owned(),
        }),
    )
}
