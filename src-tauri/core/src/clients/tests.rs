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
        served()
            .flat_map(|c| c.ide.env.iter().map(|(k, _)| k))
            .collect::<Vec<_>>(),
    );
    for c in served() {
        assert!(
            !c.packages.is_empty(),
            "{}: doctor reads the version from it",
            c.id
        );
        // Ids name container directories and scripts' keys.
        assert!(c.id.bytes().all(|b| b.is_ascii_lowercase()), "{}", c.id);
        assert!(c.ide.env.iter().filter(|(_, w)| *w == Pinned::Port).count() <= 1);
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
        served()
            .map(|c| {
                c.ide
                    .discovery
                    .dir
                    .resolve(Path::new("/h"), Path::new("/t"), &var)
            })
            .collect(),
    );
    unique(
        "container mount target",
        served()
            .map(|c| c.ide.discovery.dir.in_container("/root"))
            .collect(),
    );
    for c in served() {
        let target = c.ide.discovery.dir.in_container("/home/node/");
        assert!(
            target.starts_with('/') && !target.contains("//"),
            "{target}"
        );
        let mut ide_file = match c.ide.doctor.ide_mode {
            IdeMode::Setting { file }
            | IdeMode::OnRequest { file }
            | IdeMode::AutoUnlessOff { file } => file,
            IdeMode::Always => continue,
        };
        // A home variable moves the discovery directory and the settings alike.
        if let Some(v) = c.ide.discovery.dir.var {
            let set = |k: &str| (k == v).then(|| PathBuf::from("/over"));
            let dir = c
                .ide
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
    for c in served() {
        let f = c.ide.discovery.format;
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
        assert!(!c.ide.doctor.skips_dead_pid || f.pid_field().is_some());
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
        GEMINI
            .served()
            .unwrap()
            .ide
            .discovery
            .dir
            .in_container("/root"),
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
    for cli in served().filter(|c| c.ide.transport != super::Transport::AmpWebSocket) {
        assert!(
            crate::protocols::mcp::VERSIONS
                .iter()
                .any(|v| v.as_str() == cli.ide.mcp_revision),
            "{}: {} is no revision Redline speaks",
            cli.name,
            cli.ide.mcp_revision
        );
        // From 2026-07-28 on, Claude Code drops custom notifications (`selection_changed`,
        // `at_mentioned`); the stateless revision has no GET stream for the HTTP CLIs' either.
        assert!(cli.ide.mcp_revision < "2026-07-28", "{}", cli.name);
    }
}

/// `redline hooks` lists every CLI with a hook, once; `redline hook ID` finds each by its id.
#[test]
fn the_hook_order_lists_each_cli_with_a_hook_once() {
    let listed: Vec<_> = HookCli::all().map(HookCli::id).collect();
    let with_hook: HashSet<_> = ALL
        .iter()
        .filter(|c| c.hook.is_some())
        .map(|c| c.id)
        .collect();
    assert_eq!(listed.len(), with_hook.len());
    assert_eq!(listed.iter().copied().collect::<HashSet<_>>(), with_hook);
    for id in listed {
        assert_eq!(id.parse::<HookCli>().map(HookCli::id), Ok(id));
    }
    assert!("amp".parse::<HookCli>().is_err());
    // Only Codex's hook input names the turn.
    assert!(HOOK_ORDER
        .iter()
        .all(|c| c.hook.is_some_and(|h| h.names_turn) == (c.id == CODEX.id)));
}

/// opencode speaks Claude Code's WebSocket protocol as a client of its own; Claude Code is none.
#[test]
fn a_client_on_claude_codes_locks_is_found_by_its_client_name() {
    let (cli, client) = Cli::on_claude_locks("opencode").unwrap();
    assert_eq!(cli.id, OPENCODE.id);
    assert!(client.one_based_lines && client.ranges);
    assert!(Cli::on_claude_locks("claude-code").is_none());
    assert!(
        Cli::of_package("@openai/codex").is_none(),
        "who asked is for IDE connections"
    );
}
