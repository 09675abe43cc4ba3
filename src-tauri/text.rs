//! The text the command line shows for the core's answers: the status, review summaries and
//! what turning containers on did (`--json` shows the same answers as JSON instead).

use crate::output::{outln, Printer};
use redline_core::api::remote_info::RemoteInfo;
use redline_core::api::status::{ContainerStatus, Status, WorkspaceStatus};
use redline_core::review::Summary;
use redline_core::runtime::command::Via;
use redline_core::runtime::control::ContainersOn;

pub(crate) fn containers_on(p: &mut Printer, via: Via, on: &ContainersOn) {
    let path = on.path.display();
    match (via, &on.containers) {
        (Via::Stored, c) => {
            let addr = c.as_ref().and_then(|c| c.address);
            let via = addr.map(|a| format!(" via {a}")).unwrap_or_default();
            outln!(
                p,
                "containers on for {path}{via} (starts with the next `redline serve`)"
            );
        }
        (Via::Instance, _) if !on.running => outln!(
            p,
            "containers on for {path} (the workspace is off; they apply when it is on)"
        ),
        (
            Via::Instance,
            Some(ContainerStatus {
                address: Some(a),
                port: Some(port),
                ..
            }),
        ) => outln!(
            p,
            "containers on for {path}: {a}:{port} (as host.docker.internal); \
             CLIs already connected need `/ide enable` again"
        ),
        (Via::Instance, Some(c)) => outln!(
            p,
            "containers on for {path}, but not reachable: {}",
            c.error.as_deref().unwrap_or("unknown")
        ),
        (Via::Instance, None) => outln!(p, "containers on for {path}"),
    }
}

pub(crate) fn summary(p: &mut Printer, r: &Summary) {
    // A whole turn's review is of its workspace: `redline turns show ID` has its files.
    if let Some(turn) = r.turn_id {
        let (ws, who) = (r.workspace.display(), r.client.label());
        return outln!(p, "{:>4}  turn {turn} of {ws}  [{who}]", r.id);
    }
    let new = if r.new_file { " (new file)" } else { "" };
    let file = match (&r.remote, r.container) {
        (Some(remote), _) => format!("{remote}:{}", r.file_path),
        (None, true) => format!("{} (container: {})", r.path.display(), r.file_path),
        (None, false) => r.file_path.clone(),
    };
    outln!(
        p,
        "{:>4}  +{} -{}  {file}{new}  [{}]",
        r.id,
        r.added,
        r.removed,
        r.client.label()
    );
}

pub(crate) fn status(p: &mut Printer, s: &Status) {
    // The state first, in a few words; why there is no keyring comes after everything else.
    let tokens = match s.keyring.available {
        true => "tokens in the OS keyring",
        false => "tokens in memory only (no OS keyring: see the last line)",
    };
    outln!(p, "Redline (pid {}), {tokens}", s.pid);
    if s.workspaces.is_empty() {
        outln!(
            p,
            "no workspaces; add one with `redline workspace add PATH`"
        );
    }
    for w in &s.workspaces {
        workspace(p, w);
    }
    for line in crate::editor_channels::lines(&s.editors) {
        outln!(p, "{line}");
    }
    if let Some(problem) = &s.window_problem {
        outln!(p, "review window: {problem}");
    }
    if let Some(c) = &s.codex_ide {
        use redline_core::api::status::CodexRole;
        let role = match c.role {
            CodexRole::Router => "Redline answers Codex's /ide".to_owned(),
            CodexRole::Provider => "another program's router; Redline answers behind it".to_owned(),
            CodexRole::NotServed => format!("NOT SERVED   {}", c.why.as_deref().unwrap_or("")),
        };
        outln!(p, "Codex IDE socket {} ({role})", c.path.display());
    }
    for r in &s.remotes {
        remote(p, r);
    }
    if let Some(log) = &s.log_file {
        outln!(p, "log file: {}", log.display());
    }
    if !s.keyring.available {
        outln!(p, "keyring {}", s.keyring.detail);
    }
}

/// A remote as `redline remote list` and `redline status` say it: its name, its link's state,
/// its reviews here, why it is not connected, and what became of its last decision.
pub(crate) fn remote(p: &mut Printer, r: &RemoteInfo) {
    let reviews = match r.pending {
        1 => "1 review".to_owned(),
        n => format!("{n} reviews"),
    };
    match &r.reason {
        Some(why) => outln!(p, "{}  {}  {reviews}  ({why})", r.name, r.state),
        None => outln!(p, "{}  {}  {reviews}", r.name, r.state),
    }
    if let Some(last) = &r.last_decision {
        outln!(p, "  last decision: {last}");
    }
}

/// One workspace of the status: where it is served, its files, clients and containers.
fn workspace(p: &mut Printer, w: &WorkspaceStatus) {
    match w.port {
        Some(port) => outln!(p, "{}  on  127.0.0.1:{port}", w.path.display()),
        None if w.missing => {
            let path = w.path.display();
            outln!(p, "{path}  MISSING: the folder is gone; not served");
            outln!(p, "  remove it with  redline workspace remove {path}");
            return;
        }
        None => outln!(p, "{}  off", w.path.display()),
    }
    if let Some(ws_port) = w.ws_port {
        outln!(p, "  claude code     ws://127.0.0.1:{ws_port}");
    }
    for f in &w.discovery_files {
        outln!(p, "  discovery file  {}", f.display());
    }
    for f in &w.discovery_failures {
        outln!(p, "  NOT WRITTEN     {f}");
    }
    for f in &w.discovery_gone {
        outln!(p, "  GONE            {f}");
    }
    clients(p, w);
    if w.port.is_some() {
        outln!(p, "  pending reviews {}", w.pending_reviews);
    }
    if let Some(c) = &w.containers {
        containers(p, w, c);
    }
}

fn clients(p: &mut Printer, w: &WorkspaceStatus) {
    for c in &w.clients {
        match &c.process {
            Some(pr) => outln!(
                p,
                "  client          {} (pid {}{})",
                pr.label(),
                pr.pid,
                pr.cwd
                    .as_deref()
                    .map(|d| format!(", in {d}"))
                    .unwrap_or_default()
            ),
            None => outln!(p, "  client          {} {}", c.name, c.version),
        }
    }
}

fn containers(p: &mut Printer, w: &WorkspaceStatus, c: &ContainerStatus) {
    let at = match (c.address, c.port) {
        (Some(a), Some(port)) => format!("on  {a}:{port} as host.docker.internal"),
        (Some(a), None) if w.port.is_none() => format!("on  {a}"),
        (None, _) if w.port.is_none() => "on  (bridge looked up at start)".into(),
        _ => format!(
            "NOT REACHABLE   {}",
            c.error.as_deref().unwrap_or("no address")
        ),
    };
    outln!(p, "  containers      {at}");
    if let (Some(a), Some(port)) = (c.address, c.ws_port) {
        outln!(
            p,
            "  containers ws   {a}:{port} as host.docker.internal (Claude Code)"
        );
    }
    for path in &c.paths {
        outln!(p, "  container path  {path}");
    }
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
