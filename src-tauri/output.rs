//! How the command line shows the core's answers: the status, review summaries, what turning
//! containers on did, and any answer as JSON.

use redline_core::api::status::{ContainerStatus, Status};
use redline_core::review::Summary;
use redline_core::runtime::command::Via;
use redline_core::runtime::control::ContainersOn;

pub(crate) fn print_containers_on(via: Via, on: &ContainersOn) {
    let path = on.path.display();
    match (via, &on.containers) {
        (Via::Stored, c) => {
            let addr = c.as_ref().and_then(|c| c.address);
            let via = addr.map(|a| format!(" via {a}")).unwrap_or_default();
            println!("containers on for {path}{via} (starts with the next `redline serve`)");
        }
        (Via::Instance, _) if !on.running => {
            println!("containers on for {path} (the workspace is off; they apply when it is on)")
        }
        (
            Via::Instance,
            Some(ContainerStatus {
                address: Some(a),
                port: Some(p),
                ..
            }),
        ) => println!(
            "containers on for {path}: {a}:{p} (as host.docker.internal); \
             CLIs already connected need `/ide enable` again"
        ),
        (Via::Instance, Some(c)) => println!(
            "containers on for {path}, but not reachable: {}",
            c.error.as_deref().unwrap_or("unknown")
        ),
        (Via::Instance, None) => println!("containers on for {path}"),
    }
}

pub(crate) fn print_summary(r: &Summary) {
    let new = if r.new_file { " (new file)" } else { "" };
    let file = if r.container {
        format!("{} (container: {})", r.path.display(), r.file_path)
    } else {
        r.file_path.clone()
    };
    println!(
        "{:>4}  +{} -{}  {file}{new}  [{}]",
        r.id,
        r.added,
        r.removed,
        r.client.label()
    );
}

pub(crate) fn print_json<T: serde::Serialize>(v: &T) {
    println!("{}", serde_json::to_string_pretty(v).unwrap_or_default());
}

pub(crate) fn print_status(s: &Status) {
    let keyring = if s.keyring.available {
        "tokens in the OS keyring".to_owned()
    } else {
        format!("keyring {}", s.keyring.detail)
    };
    println!("Redline (pid {}), {keyring}", s.pid);
    if s.workspaces.is_empty() {
        println!("no workspaces; add one with `redline workspace add PATH`");
    }
    for w in &s.workspaces {
        match w.port {
            Some(port) => println!("{}  on  127.0.0.1:{port}", w.path.display()),
            None if w.missing => {
                let path = w.path.display();
                println!("{path}  MISSING: the folder is gone; not served");
                println!("  remove it with  redline workspace remove {path}");
                continue;
            }
            None => println!("{}  off", w.path.display()),
        }
        if let Some(ws_port) = w.ws_port {
            println!("  claude code     ws://127.0.0.1:{ws_port}");
        }
        for f in &w.discovery_files {
            println!("  discovery file  {}", f.display());
        }
        for f in &w.discovery_failures {
            println!("  NOT WRITTEN     {f}");
        }
        for c in &w.clients {
            match &c.process {
                Some(p) => println!(
                    "  client          {} (pid {}{})",
                    p.label(),
                    p.pid,
                    p.cwd
                        .as_deref()
                        .map(|d| format!(", in {d}"))
                        .unwrap_or_default()
                ),
                None => println!("  client          {} {}", c.name, c.version),
            }
        }
        if w.port.is_some() {
            println!("  pending reviews {}", w.pending_reviews);
        }
        if let Some(c) = &w.containers {
            let at = match (c.address, c.port) {
                (Some(a), Some(p)) => format!("on  {a}:{p} as host.docker.internal"),
                (Some(a), None) if w.port.is_none() => format!("on  {a}"),
                (None, _) if w.port.is_none() => "on  (bridge looked up at start)".into(),
                _ => format!(
                    "NOT REACHABLE   {}",
                    c.error.as_deref().unwrap_or("no address")
                ),
            };
            println!("  containers      {at}");
            if let (Some(a), Some(p)) = (c.address, c.ws_port) {
                println!("  containers ws   {a}:{p} as host.docker.internal (Claude Code)");
            }
            for p in &c.paths {
                println!("  container path  {p}");
            }
        }
    }
    crate::editor_channels::print_editors(&s.editors);
}
