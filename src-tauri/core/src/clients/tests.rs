//! Every CLI's data is consistent with the others' and with itself.

use super::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn unique<T: Eq + std::hash::Hash + std::fmt::Debug>(what: &str, items: Vec<T>) {
    let mut seen = HashSet::new();
    for i in items {
        assert!(seen.insert(i), "two CLIs share a {what}");
    }
}

#[test]
fn ids_names_commands_packages_programs_and_variables_are_unique() {
    unique("id", ALL.iter().map(|c| c.id).collect());
    unique("name", ALL.iter().map(|c| c.name).collect());
    unique("binary", ALL.iter().map(|c| c.binary).collect());
    unique(
        "package",
        ALL.iter().flat_map(|c| c.packages.iter()).collect(),
    );
    unique(
        "program",
        ALL.iter().flat_map(|c| c.programs.iter()).collect(),
    );
    unique(
        "env variable",
        ALL.iter()
            .flat_map(|c| c.env.iter().map(|(k, _)| k))
            .collect(),
    );
    for c in &ALL {
        assert!(
            !c.packages.is_empty(),
            "{}: doctor reads the version from it",
            c.id
        );
        // Ids name container directories and scripts' keys.
        assert!(c.id.bytes().all(|b| b.is_ascii_lowercase()), "{}", c.id);
        assert!(c.env.iter().filter(|(_, w)| *w == Pinned::Port).count() <= 1);
        assert_eq!(Cli::of_package(c.packages[0]).map(|f| f.id), Some(c.id));
        for p in c.programs {
            assert_eq!(Cli::of_program(p).map(|f| f.id), Some(c.id));
        }
    }
    assert_eq!(
        Cli::of_program("claude").map(|c| c.name),
        Some("Claude Code")
    );
    assert!(Cli::of_program("node").is_none());
}

/// Two CLIs reading one directory would read each other's files as their own.
#[test]
fn each_cli_looks_in_a_directory_of_its_own_here_and_in_a_container() {
    let var = |_: &str| None;
    unique(
        "discovery directory",
        ALL.iter()
            .map(|c| {
                c.discovery
                    .dir
                    .resolve(Path::new("/h"), Path::new("/t"), &var)
            })
            .collect(),
    );
    unique(
        "container mount target",
        ALL.iter()
            .map(|c| c.discovery.dir.in_container("/root"))
            .collect(),
    );
    for c in &ALL {
        let target = c.discovery.dir.in_container("/home/node/");
        assert!(
            target.starts_with('/') && !target.contains("//"),
            "{target}"
        );
        let mut ide_file = match c.doctor.ide_mode {
            IdeMode::Setting { file }
            | IdeMode::OnRequest { file }
            | IdeMode::AutoUnlessOff { file } => file,
            IdeMode::Always => continue,
        };
        // A home variable moves the discovery directory and the settings alike.
        if let Some(v) = c.discovery.dir.var {
            let set = |k: &str| (k == v).then(|| PathBuf::from("/over"));
            let dir = c
                .discovery
                .dir
                .resolve(Path::new("/h"), Path::new("/t"), &set);
            assert!(dir.starts_with("/over"), "{}: {}", c.id, dir.display());
            ide_file.sub = "";
            assert!(ide_file
                .resolve(Path::new("/h"), Path::new("/t"), &set)
                .starts_with("/over"));
        }
    }
}

/// What Redline writes for a CLI, the same CLI's reader in doctor reads back: the name parses
/// to the port and PID, the body is recognised as Redline's. `discovery`'s tests write the
/// bodies; here every format's names round-trip.
#[test]
fn every_format_reads_back_the_names_it_writes() {
    for c in &ALL {
        let f = c.discovery.format;
        let name = f.file_name(4242, 5151);
        let (pid, port) = f.parse_name(&name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(port, 5151, "{}", c.id);
        assert!(pid.is_none() || pid == Some(4242));
        assert!(
            pid.is_some() || f.pid_field().is_some(),
            "{}: a PID in the name or the body",
            c.id
        );
        // The CLI's own deletion of dead PIDs needs a PID in the body.
        assert!(!c.doctor.skips_dead_pid || f.pid_field().is_some());
    }
}

#[test]
fn paths_join_by_component() {
    let l = Location {
        var: None,
        base: Base::Home,
        default: "",
        sub: ".claude.json",
    };
    assert_eq!(
        l.resolve(Path::new("/h"), Path::new("/t"), &|_| None),
        PathBuf::from("/h/.claude.json")
    );
    assert_eq!(l.in_container("/root/"), "/root/.claude.json");
    assert_eq!(
        GEMINI.discovery.dir.in_container("/root"),
        "/tmp/gemini/ide"
    );
}

#[test]
fn versions_compare_numerically() {
    assert!(version_below("0.9.0", "0.10.0"));
    assert!(!version_below("0.10.0", "0.10.0"));
    assert!(!version_below("2.1.330", "2.1.0"));
    assert!(version_below("1.0.0-beta", "1.0.1"));
}

#[test]
fn each_cli_settles_on_a_revision_redline_speaks_that_keeps_its_notifications() {
    // Amp's messages are its own, not MCP.
    for cli in ALL
        .iter()
        .filter(|c| c.transport != super::Transport::AmpWebSocket)
    {
        assert!(
            crate::protocols::mcp::VERSIONS
                .iter()
                .any(|v| v.as_str() == cli.mcp_revision),
            "{}: {} is no revision Redline speaks",
            cli.name,
            cli.mcp_revision
        );
        // From 2026-07-28 on, Claude Code drops custom notifications (`selection_changed`,
        // `at_mentioned`); the stateless revision has no GET stream for the HTTP CLIs' either.
        assert!(cli.mcp_revision < "2026-07-28", "{}", cli.name);
    }
}
