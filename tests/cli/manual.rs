//! The installed help: `--help`, `redline completions SHELL` loaded by the real shells, and
//! `redline man` read by man(1).

use super::{have, Env};
use std::process::Command;

#[test]
fn the_bash_completion_script_registers_redline_and_completes_its_commands() {
    let env = Env::new();
    let script = env.ok(&["completions", "bash"]);
    let file = env.root.join("redline.bash");
    std::fs::write(&file, script).unwrap();
    // What bash-completion does for `redline wor<TAB>`: load the file, call the function.
    let probe = format!(
        "source {}; complete -p redline; COMP_WORDS=(redline wor); COMP_CWORD=1; \
         COMP_LINE='redline wor'; COMP_POINT=11; \
         $(complete -p redline | sed -E 's/.*-F ([^ ]+).*/\\1/') redline wor redline; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display()
    );
    let out = Command::new("bash")
        .args(["--norc", "-c", &probe])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| l.starts_with("complete ") && l.ends_with(" redline")),
        "{text}"
    );
    assert!(text.lines().any(|l| l == "workspace"), "{text}");
}

#[test]
fn every_shell_gets_a_script_and_an_unknown_one_is_a_usage_error() {
    let env = Env::new();
    for (shell, mark) in [
        ("zsh", "#compdef redline"),
        ("fish", "complete -c redline"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[redline]"),
    ] {
        let script = env.ok(&["completions", shell]);
        assert!(script.contains(mark), "{shell}: {script}");
        assert!(
            script.contains("workspace"),
            "{shell} completes the commands"
        );
    }
    if have("zsh") {
        let file = env.root.join("_redline");
        std::fs::write(&file, env.ok(&["completions", "zsh"])).unwrap();
        let check = Command::new("zsh")
            .args(["-n", file.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    let out = env.run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values"));
}

#[test]
fn man_reads_the_page_and_it_documents_the_commands() {
    let env = Env::new();
    let page = env.ok(&["man"]);
    assert!(page.contains(".TH redline 1"), "{page}");
    if !have("man") {
        eprintln!("skipped man -l: no man(1) here");
        return;
    }
    let file = env.root.join("redline.1");
    std::fs::write(&file, page).unwrap();
    let out = Command::new("man")
        .args(["-l", file.to_str().unwrap()])
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "redline workspace add",
        "redline review accept",
        "redline completions",
    ] {
        assert!(text.contains(line), "no {line} in: {text}");
    }
}

#[test]
fn help_names_what_each_argument_is_and_shows_an_example() {
    let env = Env::new();
    for (args, wants) in [
        (vec!["workspace", "add", "--help"], "The folder"),
        (vec!["review", "reject", "--help"], "The review's id"),
        (vec!["review", "accept", "--help"], "--content-file <F>"),
        (
            vec!["diff", "--help"],
            "The original: a file or a directory",
        ),
        (vec!["mention", "--help"], "FILE:L1-L2"),
        (
            vec!["env", "--help"],
            "[possible values: sh, bash, zsh, fish, powershell, pwsh]",
        ),
        (
            vec!["status", "--help"],
            "Print the status as one JSON object",
        ),
    ] {
        let help = env.ok(&args);
        assert!(help.contains(wants), "{args:?}: {help}");
        assert!(
            help.contains("Example:") || help.contains("Examples:"),
            "{args:?}: {help}"
        );
        assert!(
            !help.contains("docs/"),
            "{args:?} points at a file no package ships"
        );
    }
    let top = env.ok(&["--help"]);
    assert!(top.contains("`redline` alone"), "{top}");
    assert!(top.contains("man redline"), "{top}");
}
