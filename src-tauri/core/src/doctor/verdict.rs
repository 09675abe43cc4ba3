//! The verdict for one CLI: the first thing that would stop it connecting, with the one fix.

use super::scan::Seen;
use super::{
    install, probe, quote, scan, shell, CliReport, Facts, Fix, Place, Verdict, WorkspaceFound,
};
use crate::clients::{self, Cli, ContainerHost, IdeMode, Transport};
use probe::Probe;
use std::path::{Path, PathBuf};

/// Redline's files of this workspace that are meant for this CLI, wherever Redline wrote them.
fn redline_files_for(cli: &Cli, facts: &Facts, ws: &Path) -> Vec<PathBuf> {
    let Some(status) = &facts.redline else {
        return vec![];
    };
    let format = cli.discovery.format;
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

/// Fills in the reason and fix, and returns the verdict: the first thing that stops the CLI.
pub(super) async fn decide(
    cli: &Cli,
    facts: &Facts,
    ws: Option<&WorkspaceFound>,
    r: &mut CliReport,
) -> Verdict {
    let name = cli.name;
    let Some(installed) = r.installed.clone() else {
        r.reason = format!("`{}` is not on PATH", cli.binary);
        return Verdict::NotInstalled;
    };
    if let Some(v) = &installed.version {
        if let Some(bad) = cli
            .doctor
            .known_bad
            .iter()
            .find(|b| clients::version_below(v, b.below))
        {
            r.reason = format!("{name} {v} does not work with Redline: {}", bad.why);
            r.fix = shell(format!(
                "npm install -g {}",
                cli.packages
                    .iter()
                    .map(|p| format!("{p}@latest"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            return Verdict::VersionKnownBad;
        }
    }
    let dir = quote(&facts.dir);
    if facts.redline.is_none() {
        // With one of these set the CLIs stay on 127.0.0.1: Redline belongs in this container.
        let local = clients::ALL
            .iter()
            .filter_map(|c| match c.container.host {
                ContainerHost::DockerHostUnless(vars) => Some(vars),
                ContainerHost::LoopbackFirst | ContainerHost::SocketOnly => None,
            })
            .flatten()
            .any(|v| facts.var(v).is_some());
        if facts.in_container() && !local {
            r.reason = "this is a container and no Redline runs in it; Redline on the host \
                        serves containers once set up for them"
                .into();
            r.fix = shell("redline container enable");
            r.notes.push(
                "run that on the host, then start the container with the options \
                 `redline container args` prints"
                    .into(),
            );
            return Verdict::Container;
        }
        r.reason = "no Redline is running".into();
        r.fix = shell(facts.start_command());
        if ws.is_none() {
            r.notes.push(format!(
                "no workspace contains {dir} either: `redline workspace add {dir}`"
            ));
        } else if ws.is_some_and(|w| !w.on) {
            r.notes.push(format!(
                "its workspace is off: `redline workspace enable {}`",
                ws.map(|w| quote(&w.path)).unwrap_or_default()
            ));
        }
        return Verdict::NotRunning;
    }
    let Some(ws) = ws else {
        r.reason = format!("no Redline workspace contains {dir}");
        r.fix = shell(format!("redline workspace add {dir}"));
        return Verdict::NoWorkspace;
    };
    let Some(port) = ws.port else {
        r.reason = format!("the workspace {} is off", ws.path.display());
        r.fix = shell(format!("redline workspace enable {}", quote(&ws.path)));
        return Verdict::WorkspaceOff;
    };
    let restart_ws = format!(
        "redline workspace disable {p} && redline workspace enable {p}",
        p = quote(&ws.path)
    );
    let seen = scan::read(cli, facts);
    let cli_dir = facts.dirs.discovery(cli);
    // Redline's file for this workspace: by port (HTTP), or by its roots (Claude Code's server
    // has a port of its own). An unreadable file on the port may be ours: the CLI is told why.
    // A file listing this very directory first (Copilot CLI's per-folder locks), then the
    // workspace's own.
    let mine = |s: &&Seen| s.ours && (s.port == port || s.roots.contains(&ws.path));
    let Some(ours) = seen.iter().filter(mine).find(|s| s.matches).or_else(|| {
        seen.iter()
            .find(|s| mine(s) || (s.body.is_none() && s.port == port))
    }) else {
        let elsewhere = redline_files_for(cli, facts, &ws.path);
        if let Some(f) = elsewhere
            .iter()
            .find(|f| f.parent() != Some(cli_dir.as_path()))
        {
            r.reason = format!(
                "Redline wrote {}, but {name} started from this shell reads {} (Redline runs \
                 with a different environment)",
                f.display(),
                cli_dir.display()
            );
            r.fix = shell(format!("redline quit && {}", facts.start_command()));
            r.notes.push(
                "start Redline from a shell with the same HOME and TMPDIR as the CLI's".into(),
            );
            return Verdict::FileElsewhere;
        }
        r.reason = format!(
            "Redline's discovery file for {name} is missing from {}",
            cli_dir.display()
        );
        if let Some(w) = facts
            .redline
            .as_ref()
            .and_then(|s| s.workspaces.iter().find(|w| w.path == ws.path))
        {
            for failure in &w.discovery_failures {
                r.notes.push(format!("not written: {failure}"));
            }
        }
        r.fix = shell(restart_ws);
        return Verdict::FileMissing;
    };
    r.file = Some(ours.path.clone());
    let port = ours.port;
    r.port = Some(port);
    if let Some(skip) = &ours.skip {
        r.reason = format!("{name} skips {}: {skip}", ours.path.display());
        r.fix = match skip {
            scan::Skip::OtherOwner { .. } => {
                shell(format!("sudo rm {} && {restart_ws}", quote(&ours.path)))
            }
            _ => shell(restart_ws),
        };
        return Verdict::FileSkipped;
    }
    let ranked = scan::ranked(cli, facts, &seen);
    let chosen = ranked.first().copied();
    if let Some((name, var)) = cli
        .port_var()
        .and_then(|name| Some((name, facts.var(name)?)))
    {
        if var != port.to_string() {
            r.notes.push(format!(
                "{name}={var} in this shell names another server than Redline's (port {port})"
            ));
        }
    }
    match chosen {
        Some(c) if c.path == ours.path => {}
        Some(other) => {
            shadowed(cli, facts, other, port, r);
            return Verdict::Shadowed;
        }
        // Redline writes a file for this folder once a session starts here.
        None if cli.sessions.is_some() => r.notes.push(format!(
            "{name} connects by itself only from a folder a lock lists exactly: when it starts \
             in {} Redline writes one for it within a second; `/ide` (pick Redline) connects \
             by hand",
            facts.dir.display()
        )),
        None => {
            r.reason = format!(
                "{name} would not match {} to Redline's file {}",
                facts.dir.display(),
                ours.path.display()
            );
            r.fix = shell(restart_ws);
            return Verdict::FileMissing;
        }
    }
    if ranked.len() > 1 && matches!(cli.doctor.ide_mode, IdeMode::OnRequest { .. }) {
        r.notes.push(format!(
            "{} IDEs match this directory: pick Redline in `/ide`",
            ranked.len()
        ));
    }
    if facts.in_container() {
        if let ContainerHost::DockerHostUnless(vars) = cli.container.host {
            if !vars.iter().any(|v| facts.var(v).is_some()) {
                r.reason = format!(
                    "in a container {name} connects to host.docker.internal, not to the Redline \
                     running here"
                );
                r.fix = shell("export REMOTE_CONTAINERS=1");
                return Verdict::ContainerHost;
            }
        }
    }
    let token = ours.token(cli).unwrap_or_default();
    let probe = match cli.transport {
        Transport::Http => probe::http_initialize(&probe::Endpoint::Port(port), token).await,
        Transport::UnixHttp => match ours.socket(cli) {
            Some(socket) => probe::http_initialize(&probe::Endpoint::Socket(socket), token).await,
            None => probe::Probe::Unexpected {
                detail: format!("{} names no socket", ours.path.display()),
            },
        },
        Transport::WebSocket => probe::ws_initialize(port, token).await,
    };
    r.probe = Some(probe.clone());
    match probe {
        Probe::Answered { server, .. } if server == crate::discovery::IDE_NAME => {}
        Probe::Answered { server, .. } => {
            r.reason = format!("port {port} answered as {server:?}, not Redline");
            r.fix = shell(restart_ws);
            return Verdict::Unexpected;
        }
        Probe::TokenRefused { status } => {
            r.reason = format!(
                "Redline refused the token in {} (HTTP {status})",
                ours.path.display()
            );
            r.fix = shell(format!("redline token rotate {}", quote(&ws.path)));
            return Verdict::TokenRefused;
        }
        Probe::Unreachable { error } => {
            r.reason = format!("nothing answers on port {port}: {error}");
            r.fix = shell(restart_ws);
            return Verdict::Unreachable;
        }
        Probe::Unexpected { detail } => {
            r.reason = format!("port {port} did not answer as Redline: {detail}");
            r.fix = shell(restart_ws);
            return Verdict::Unexpected;
        }
    }
    let mode = install::ide_mode(cli, facts);
    if let IdeMode::AutoUnlessOff { .. } = cli.doctor.ide_mode {
        return auto_unless_off(cli, &mode, ours, r);
    }
    match mode.setting {
        Some(false) => {
            r.reason = format!(
                "IDE mode is off in {name} (`ide.enabled` in {})",
                mode.file.display()
            );
            r.fix = Some(Fix {
                command: "/ide enable".into(),
                place: Place::Cli,
            });
            return Verdict::IdeDisabled;
        }
        Some(true) => {
            r.reason = format!("{name} will connect to Redline on port {port}");
            r.notes.push(
                "a CLI already running reads discovery files only at start: type `/ide enable` in it"
                    .into(),
            );
        }
        None => {
            r.reason = format!("{name} can connect to Redline on port {port}");
            r.notes.push(if mode.auto {
                "it connects at start (autoConnectIde)".into()
            } else {
                format!("connect with `{} --ide`, or `/ide` inside it", cli.binary)
            });
        }
    }
    Verdict::Connects
}

/// A CLI that connects by itself unless its settings say not to (Copilot CLI).
fn auto_unless_off(cli: &Cli, mode: &install::Mode, ours: &Seen, r: &mut CliReport) -> Verdict {
    let name = cli.name;
    let by_hand = Some(Fix {
        command: "/ide".into(),
        place: Place::Cli,
    });
    if !mode.auto {
        r.reason = format!(
            "`ide.autoConnect` is false in {}: {name} connects only when asked",
            mode.file.display()
        );
        r.fix = by_hand;
        r.notes
            .push("in `/ide`, pick Redline, or turn auto-connect back on there".into());
        return Verdict::IdeDisabled;
    }
    if !mode.sends_diffs {
        r.reason = format!(
            "`ide.openDiffOnEdit` is false in {}: {name} connects but sends no edit for review",
            mode.file.display()
        );
        r.fix = by_hand;
        r.notes
            .push("in `/ide`, turn \"open diff on edit\" back on".into());
        return Verdict::IdeDisabled;
    }
    let at = ours
        .socket(cli)
        .map(|s| s.display().to_string())
        .unwrap_or_default();
    r.reason = format!("{name} connects to Redline by itself (socket {at})");
    Verdict::Connects
}

fn shadowed(cli: &Cli, facts: &Facts, other: &Seen, port: u16, r: &mut CliReport) {
    let by_var = cli
        .port_var()
        .filter(|name| facts.var(name) == Some(other.port.to_string().as_str()));
    let why = match by_var {
        Some(name) => format!("{name}={} in this shell picks it", other.port),
        None => format!("{} tries it first", cli.name),
    };
    r.reason = format!(
        "{}'s file {} also matches {}, and {why}",
        other.label(),
        other.path.display(),
        facts.dir.display()
    );
    r.fix = shell(match (cli.transport, cli.port_var()) {
        (Transport::WebSocket, Some(name)) => format!("export {name}={port}"),
        _ => "eval \"$(redline env)\"".to_owned(),
    });
}
