//! The grammar's own checks: every command and argument has help text and an example that parses.

use super::Cli;
use clap::CommandFactory;

/// Every command and argument, with its path from `redline`.
fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<(String, clap::Command)>) {
    out.push((path.to_owned(), cmd.clone()));
    for sub in cmd.get_subcommands() {
        walk(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

fn all() -> Vec<(String, clap::Command)> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, "redline", &mut out);
    // clap's own `help` subcommand documents itself.
    out.retain(|(p, _)| !p.split(' ').any(|w| w == "help"));
    out
}

#[test]
fn every_command_and_argument_has_help_text() {
    let mut missing = Vec::new();
    for (path, cmd) in all() {
        if cmd
            .get_about()
            .is_none_or(|a| a.to_string().trim().is_empty())
        {
            missing.push(path.clone());
        }
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if arg
                .get_help()
                .is_none_or(|h| h.to_string().trim().is_empty())
            {
                missing.push(format!("{path} <{id}>"));
            }
        }
    }
    assert!(missing.is_empty(), "no help text: {missing:#?}");
}

/// A line's words as `sh` splits them, quotes ('…', "…") taken out: enough for an example.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[test]
fn every_command_s_long_help_has_an_example_that_parses() {
    let mut missing = Vec::new();
    for (path, cmd) in all() {
        let after = cmd.get_after_long_help().map(|h| h.to_string());
        let Some(after) = after.filter(|h| h.contains("Example")) else {
            missing.push(path);
            continue;
        };
        // An example of `redline X` that does not parse teaches a usage error.
        let examples = after
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("redline ") && !l.contains('$'));
        for line in examples {
            // The command's own words: up to the shell's pipe, redirection or comment.
            let words: Vec<String> = shell_words(line)
                .into_iter()
                .take_while(|w| !matches!(w.as_str(), "#" | "|" | ">" | "&&"))
                .collect();
            if let Err(e) = <Cli as clap::Parser>::try_parse_from(&words) {
                panic!("{path}: the example `{line}` does not parse: {e}");
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no example in the long help: {missing:#?}"
    );
}

#[test]
fn the_top_level_help_says_what_bare_redline_does_and_points_at_installed_help() {
    let help = Cli::command().render_long_help().to_string();
    assert!(help.contains("`redline` alone"), "{help}");
    assert!(help.contains("man redline"), "{help}");
    // A build from source installs no man page: the command that reads it anyway.
    assert!(help.contains("`redline man | man -l -`"), "{help}");
    // An installed package ships no docs/ folder.
    for (path, mut cmd) in all() {
        let help = cmd.render_long_help().to_string();
        assert!(!help.contains("docs/"), "{path}: {help}");
    }
}

#[test]
fn an_example_s_quoted_words_are_one_word_each() {
    assert_eq!(
        shell_words(r#"redline review reject 3 --reason 'keep it; see "a"' "" x"#),
        [
            "redline",
            "review",
            "reject",
            "3",
            "--reason",
            r#"keep it; see "a""#,
            "",
            "x"
        ]
    );
}

/// The long help of the command at `path` (words after `redline`), as `--help` prints it.
fn long_help(path: &[&str]) -> String {
    let mut cmd = Cli::command();
    cmd.build();
    let mut at = cmd;
    for word in path {
        at = at.find_subcommand(word).expect("a command").clone();
    }
    at.render_long_help().to_string()
}

#[test]
fn the_help_names_every_cli_redline_serves_from_the_one_list() {
    use redline_core::clients::{self, HookCli};
    let top = long_help(&[]);
    let doctor = long_help(&["doctor"]);
    let hooks = long_help(&["hooks"]);
    for cli in clients::ALL {
        assert!(
            top.contains(cli.name),
            "`redline --help` names no {}",
            cli.name
        );
    }
    for served in clients::served() {
        assert!(
            doctor.contains(served.name),
            "doctor's help names no {}",
            served.name
        );
    }
    for hook in HookCli::all() {
        assert!(
            hooks.contains(hook.name()),
            "hooks' help names no {}",
            hook.name()
        );
        for path in [
            &["hook"][..],
            &["hooks", "install"],
            &["hooks", "uninstall"],
        ] {
            let help = long_help(path);
            assert!(
                help.contains(hook.id()),
                "{path:?}: no {}: {help}",
                hook.id()
            );
        }
    }
}
