//! The verdict for one CLI: the first thing that would stop it connecting, with the one fix.

mod file;
mod finding;
mod server;
mod settings;
mod setup;

use super::install::Installed;
use super::probe::Probe;
use super::scan;
use crate::clients::Served;
use crate::doctor::facts::Facts;
use crate::doctor::report::WorkspaceFound;
use std::ops::ControlFlow::{Break, Continue};
use std::path::PathBuf;

pub(super) use finding::Finding;

/// What the checks passed on the way learnt: the CLI's file and port, the probe's answer, and
/// notes that hold whatever the verdict.
#[derive(Default)]
pub(super) struct Trail {
    pub file: Option<PathBuf>,
    pub port: Option<u16>,
    pub probe: Option<Probe>,
    pub notes: Vec<String>,
}

impl Trail {
    fn noting(mut self, note: Option<String>) -> Trail {
        self.notes.extend(note);
        self
    }

    fn ends(self, found: Finding) -> (Trail, Finding) {
        (self, found)
    }
}

/// The first check that stops the CLI, in the order the CLI meets them, and what the checks
/// before it learnt (the report lists the trail's notes, then the finding's).
pub(super) async fn decide(
    cli: &Served,
    facts: &Facts,
    ws: Option<&WorkspaceFound>,
    installed: Option<&Installed>,
) -> (Trail, Finding) {
    let none = Trail::default();
    let (ws, port) = match setup::reachable(cli, facts, ws, installed) {
        Continue(at) => at,
        Break(found) => return none.ends(found),
    };
    let seen = scan::read(cli, facts);
    let ours = match file::discovery_file(cli, facts, ws, port, &seen) {
        Continue(ours) => ours,
        Break(found) => return none.ends(found),
    };
    let port = ours.port;
    let trail = Trail {
        file: Some(ours.path.clone()),
        port: Some(port),
        ..Trail::default()
    };
    if let Break(found) = file::not_skipped(cli, ours, ws) {
        return trail.ends(found);
    }
    let ranked = scan::ranked(cli, facts, &seen);
    let trail = trail.noting(file::port_variable(cli, facts, port));
    let trail = match file::picked(cli, facts, ws, ours, ranked.first().copied()) {
        Continue(note) => trail.noting(note),
        Break(found) => return trail.ends(found),
    };
    let trail = trail.noting(file::several_ides(cli, ranked.len()));
    if let Break(found) = server::container_host(cli, facts) {
        return trail.ends(found);
    }
    let probe = server::probe(cli, ours).await;
    let trail = Trail {
        probe: Some(probe.clone()),
        ..trail
    };
    if let Break(found) = server::answered(probe, ours, ws, port) {
        return trail.ends(found);
    }
    trail.ends(settings::ide_mode(cli, facts, ours, port))
}
