//! The doctor's report as people read it in a terminal.

use super::probe::Probe;
use crate::doctor::report::{CliReport, ContextReport, Fix, HookReport, Place, Report, Verdict};
use std::fmt::Write;

/// The report as people read it: Redline's state, then one section per kind of CLI, then the
/// summary. Writing to a `String` cannot fail, hence the ignored `fmt::Result`s.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    write_redline(&mut out, report);
    let mut said = Said::default();
    for c in &report.clis {
        write_cli(&mut out, c, &mut said);
    }
    write_hooks(&mut out, &report.hooks);
    write_context(&mut out, &report.context);
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", summary(report));
    out
}

/// The heading: where doctor looked, whether Redline runs there, and whether this is a container.
fn write_redline(out: &mut String, report: &Report) {
    let _ = writeln!(out, "Redline doctor for {}", report.dir.display());
    match (report.redline_pid, &report.workspace) {
        (None, _) => {
            let _ = writeln!(out, "Redline: not running");
        }
        (Some(pid), None) => {
            let _ = writeln!(
                out,
                "Redline: running (pid {pid}); no workspace contains it"
            );
        }
        (Some(pid), Some(w)) => {
            let state = match w.port {
                Some(p) => format!("on, port {p}"),
                None => "off".into(),
            };
            let _ = writeln!(
                out,
                "Redline: running (pid {pid}); workspace {} {state}",
                w.path.display()
            );
        }
    }
    if report.container {
        let _ = writeln!(out, "In a container");
    }
}

/// The fixes and notes already printed, with the CLI they were printed for: one that several
/// CLIs share (Redline not running, no workspace) is printed once.
#[derive(Default)]
struct Said {
    fixes: Vec<(String, String)>,
    notes: Vec<String>,
}

/// One CLI with an IDE protocol: its verdict line, then its file, probe, fix and notes.
fn write_cli(out: &mut String, c: &CliReport, said: &mut Said) {
    let _ = writeln!(out);
    let version = c
        .installed
        .as_ref()
        .map(|i| match &i.version {
            Some(v) => format!(" {v}"),
            None => " (version unknown)".into(),
        })
        .unwrap_or_default();
    let mark = match (c.ok, c.verdict) {
        (_, Verdict::NotInstalled) => "-",
        (true, _) => "ok",
        (false, _) => "NO",
    };
    let _ = writeln!(out, "[{mark}] {}{version}: {}", c.name, c.reason);
    if let Some(f) = &c.file {
        let _ = writeln!(out, "     file: {}", f.display());
    }
    if let Some(Probe::Answered { server, version }) = &c.probe {
        let _ = writeln!(
            out,
            "     checked: the token works (initialize answered by {server} {version})"
        );
    }
    if let Some(fix) = &c.fix {
        write_fix(out, c, fix, said);
    }
    for n in &c.notes {
        if !said.notes.contains(n) {
            let _ = writeln!(out, "     note: {n}");
            said.notes.push(n.clone());
        }
    }
}

/// The fix line: where to type it and what; the same fix as an earlier CLI's only points there.
fn write_fix(out: &mut String, c: &CliReport, fix: &Fix, said: &mut Said) {
    // Typed in each CLI's own prompt: not the same fix for another CLI.
    let shared = fix.place != Place::Cli;
    if let Some((_, first)) = said.fixes.iter().find(|(f, _)| shared && *f == fix.command) {
        let _ = writeln!(out, "     fix: the same as for {first} above");
        return;
    }
    said.fixes.push((fix.command.clone(), c.name.clone()));
    let _ = match fix.place {
        Place::Shell => writeln!(out, "     fix (run): {}", fix.command),
        Place::Cli => writeln!(out, "     fix (type in {}): {}", c.id, fix.command),
        Place::Advice => writeln!(out, "     fix: {}", fix.command),
    };
}

/// The CLIs reviewed through their pre-edit hook, under a heading of their own if there are any.
fn write_hooks(out: &mut String, hooks: &[HookReport]) {
    if !hooks.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "Reviewed through their pre-edit hook:");
    }
    for h in hooks {
        let version = known_version(h.installed.as_ref());
        // An installed hook that still has a fix (every edit asked twice) is a warning.
        let mark = match (&h.hook, &h.fix) {
            (Some(_), Some(_)) => "warn",
            (Some(_), None) => "ok",
            (None, _) => "-",
        };
        let _ = writeln!(out, "[{mark}] {}{version}: {}", h.name, h.reason);
        if h.installed.is_some() || h.hook.is_some() {
            let _ = writeln!(out, "     file: {}", h.file.display());
        }
        if let Some(fix) = &h.fix {
            let _ = writeln!(out, "     fix (run): {}", fix.command);
        }
    }
}

/// The installed CLIs that ask for the editor's context, under a heading if there are any.
fn write_context(out: &mut String, context: &[ContextReport]) {
    let asked: Vec<_> = context.iter().filter(|c| c.installed.is_some()).collect();
    if !asked.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "Ask Redline for your editor's context:");
    }
    for c in asked {
        let version = known_version(c.installed.as_ref());
        let mark = if c.ok { "ok" } else { "NO" };
        let _ = writeln!(out, "[{mark}] {}{version}: {}", c.name, c.reason);
    }
}

/// " 1.2.3" when the version is known, else nothing (hook and context lines say no more).
fn known_version(installed: Option<&super::install::Installed>) -> String {
    installed
        .and_then(|i| i.version.as_deref())
        .map(|v| format!(" {v}"))
        .unwrap_or_default()
}

/// The last line: whether every installed CLI will connect.
fn summary(report: &Report) -> String {
    use crate::clients::words::{hook_only_names, ide_names};
    if report.ok {
        format!("Every installed one of {} will connect.", ide_names())
    } else if report
        .clis
        .iter()
        .all(|c| c.verdict == Verdict::NotInstalled)
    {
        // Named, so that one who has only a hook CLI knows this is not about it.
        format!(
            "None of the CLIs that connect to Redline ({}) is installed: install one (see the \
             fixes above), then run `redline doctor` again. {} are reviewed through their \
             hooks instead (above).",
            ide_names(),
            hook_only_names()
        )
    } else {
        "Some installed CLI will not connect (see the fixes above).".into()
    }
}
