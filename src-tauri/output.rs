//! How the command line shows the core's answers: the status, review summaries, what turning
//! containers on did, and any answer as JSON; and its writes to stdout and stderr, which a closed
//! pipe (`redline status | head -0`) ends quietly instead of in a panic.

use redline_core::api::status::{ContainerStatus, Status};
use redline_core::review::Summary;
use redline_core::runtime::command::Via;
use redline_core::runtime::control::ContainersOn;
use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Standard output failed other than by its reader leaving (a full disk): the exit status says so.
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes to standard output. A reader that went away (`| head`) is no error: what it did not
/// want is dropped and the command still finishes (a `diff --edit` still writes its file).
pub(crate) fn write_out(text: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
        if e.kind() != ErrorKind::BrokenPipe && !STDOUT_FAILED.swap(true, Ordering::Relaxed) {
            write_err(format_args!(
                "redline: cannot write to standard output: {e}\n"
            ));
        }
    }
}

/// Whether something meant for standard output was lost (not to a closed pipe).
pub(crate) fn stdout_failed() -> bool {
    STDOUT_FAILED.load(Ordering::Relaxed)
}

/// Writes to standard error; with nowhere to say it, there is nothing left to do.
pub(crate) fn write_err(text: std::fmt::Arguments) {
    let _ = std::io::stderr().lock().write_fmt(text);
}

/// `print!` that never panics (see `write_out`).
macro_rules! out {
    ($($t:tt)*) => { $crate::output::write_out(format_args!($($t)*)) };
}

/// `println!` that never panics (see `write_out`).
macro_rules! outln {
    ($($t:tt)*) => { $crate::output::write_out(format_args!("{}\n", format_args!($($t)*))) };
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($t:tt)*) => { $crate::output::write_err(format_args!("{}\n", format_args!($($t)*))) };
}

pub(crate) use {errln, out, outln};

pub(crate) fn print_containers_on(via: Via, on: &ContainersOn) {
    let path = on.path.display();
    match (via, &on.containers) {
        (Via::Stored, c) => {
            let addr = c.as_ref().and_then(|c| c.address);
            let via = addr.map(|a| format!(" via {a}")).unwrap_or_default();
            outln!("containers on for {path}{via} (starts with the next `redline serve`)");
        }
        (Via::Instance, _) if !on.running => {
            outln!("containers on for {path} (the workspace is off; they apply when it is on)")
        }
        (
            Via::Instance,
            Some(ContainerStatus {
                address: Some(a),
                port: Some(p),
                ..
            }),
        ) => outln!(
            "containers on for {path}: {a}:{p} (as host.docker.internal); \
             CLIs already connected need `/ide enable` again"
        ),
        (Via::Instance, Some(c)) => outln!(
            "containers on for {path}, but not reachable: {}",
            c.error.as_deref().unwrap_or("unknown")
        ),
        (Via::Instance, None) => outln!("containers on for {path}"),
    }
}

pub(crate) fn print_summary(r: &Summary) {
    let new = if r.new_file { " (new file)" } else { "" };
    let file = if r.container {
        format!("{} (container: {})", r.path.display(), r.file_path)
    } else {
        r.file_path.clone()
    };
    outln!(
        "{:>4}  +{} -{}  {file}{new}  [{}]",
        r.id,
        r.added,
        r.removed,
        r.client.label()
    );
}

pub(crate) fn print_json<T: serde::Serialize>(v: &T) {
    outln!("{}", serde_json::to_string_pretty(v).unwrap_or_default());
}

#[expect(clippy::too_many_lines, reason = "issue 38: rewritten by another part")]
pub(crate) fn print_status(s: &Status) {
    let keyring = if s.keyring.available {
        "tokens in the OS keyring".to_owned()
    } else {
        format!("keyring {}", s.keyring.detail)
    };
    outln!("Redline (pid {}), {keyring}", s.pid);
    if s.workspaces.is_empty() {
        outln!("no workspaces; add one with `redline workspace add PATH`");
    }
    for w in &s.workspaces {
        match w.port {
            Some(port) => outln!("{}  on  127.0.0.1:{port}", w.path.display()),
            None if w.missing => {
                let path = w.path.display();
                outln!("{path}  MISSING: the folder is gone; not served");
                outln!("  remove it with  redline workspace remove {path}");
                continue;
            }
            None => outln!("{}  off", w.path.display()),
        }
        if let Some(ws_port) = w.ws_port {
            outln!("  claude code     ws://127.0.0.1:{ws_port}");
        }
        for f in &w.discovery_files {
            outln!("  discovery file  {}", f.display());
        }
        for f in &w.discovery_failures {
            outln!("  NOT WRITTEN     {f}");
        }
        for f in &w.discovery_gone {
            outln!("  GONE            {f}");
        }
        for c in &w.clients {
            match &c.process {
                Some(p) => outln!(
                    "  client          {} (pid {}{})",
                    p.label(),
                    p.pid,
                    p.cwd
                        .as_deref()
                        .map(|d| format!(", in {d}"))
                        .unwrap_or_default()
                ),
                None => outln!("  client          {} {}", c.name, c.version),
            }
        }
        if w.port.is_some() {
            outln!("  pending reviews {}", w.pending_reviews);
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
            outln!("  containers      {at}");
            if let (Some(a), Some(p)) = (c.address, c.ws_port) {
                outln!("  containers ws   {a}:{p} as host.docker.internal (Claude Code)");
            }
            for p in &c.paths {
                outln!("  container path  {p}");
            }
        }
    }
    for line in crate::editor_channels::lines(&s.editors) {
        outln!("{line}");
    }
    if let Some(problem) = &s.window_problem {
        outln!("review window: {problem}");
    }
    if let Some(c) = &s.codex_ide {
        use redline_core::api::status::CodexRole;
        let role = match c.role {
            CodexRole::Router => "Redline answers Codex's /ide".to_owned(),
            CodexRole::Provider => "another program's router; Redline answers behind it".to_owned(),
            CodexRole::NotServed => format!("NOT SERVED   {}", c.why.as_deref().unwrap_or("")),
        };
        outln!("Codex IDE socket {} ({role})", c.path.display());
    }
}
