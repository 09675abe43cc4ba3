//! Every fix `redline doctor` prints, run as printed from where it was printed: from the home
//! folder, a folder around a workspace, inside one and outside any; in and out of a container;
//! with the CLIs installed (stand-ins on PATH) and not; with Redline running and not. Each
//! command exits 0 (one that starts Redline gets as far as `ready`), and where no command can
//! work (in a container with no Redline in it) none is printed.

use super::{signal, Env, BIN};
use redline_core::clients::ALL;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where doctor runs, as a new user would try it.
#[derive(Debug, Clone, Copy)]
enum Cwd {
    Home,
    AroundWorkspace,
    InWorkspace,
    Outside,
}

#[derive(Debug, Clone, Copy)]
struct Case {
    cwd: Cwd,
    container: bool,
    installed: bool,
    running: bool,
}

/// A fix line of doctor's text output.
#[derive(Debug)]
enum Line {
    /// `fix (run): CMD`: run in a shell, here.
    Run(String),
    /// `fix: …`: what to do, in words (or `the same as for … above`).
    Said(String),
}

/// An executable script at `path`.
fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// PATH for the case: `redline`, a stand-in `npm` (it installs nothing, it takes `install -g
/// PACKAGE…`), and, when installed, a stand-in for every CLI's program.
fn path_for(env: &Env, installed: bool) -> String {
    let tools = env.root.join("tools");
    let clis = env.root.join("clis");
    for d in [&tools, &clis] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::os::unix::fs::symlink(BIN, tools.join("redline")).unwrap();
    script(
        &tools.join("npm"),
        r#"[ "$1 $2" = "install -g" ] && [ -n "$3" ]"#,
    );
    for cli in ALL {
        script(&clis.join(cli.binary), "exit 0");
    }
    match installed {
        true => format!("{}:{}", clis.display(), tools.display()),
        false => tools.display().to_string(),
    }
}

fn cwd_of(env: &Env, cwd: Cwd) -> PathBuf {
    let dir = match cwd {
        Cwd::Home => env.root.join("home"),
        Cwd::AroundWorkspace => env.root.clone(),
        Cwd::InWorkspace => env.ws().join("sub"),
        Cwd::Outside => env.root.join("other"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `program` as the user's shell in `dir` runs it: the test's environment (`Env::cmd`'s), with
/// the case's PATH and container.
fn command(env: &Env, case: Case, path: &str, dir: &Path, program: &str) -> Command {
    let test_env = env.cmd(&[]);
    let mut sh = Command::new(program);
    sh.env_clear()
        .envs(test_env.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .env("PATH", path)
        .env("REDLINE_CONTAINER", if case.container { "1" } else { "0" })
        .current_dir(dir);
    sh
}

/// doctor's fix lines, from `dir`.
fn fixes(env: &Env, case: Case, path: &str, dir: &Path) -> (String, Vec<Line>) {
    let out = command(env, case, path, dir, BIN)
        .arg("doctor")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            if let Some(cmd) = l.strip_prefix("fix (run): ") {
                Some(Line::Run(cmd.to_owned()))
            } else {
                l.strip_prefix("fix: ").map(|s| Line::Said(s.to_owned()))
            }
        })
        .collect();
    (text, lines)
}

/// Runs one printed command in `dir`: it exits 0, or it starts Redline and gets to `ready`.
fn run_fix(env: &Env, case: Case, path: &str, dir: &Path, fix: &str, report: &str) {
    let mut sh = command(env, case, path, dir, "/bin/sh");
    sh.stdout(Stdio::piped()).stderr(Stdio::piped());
    if fix.starts_with("redline serve") {
        // `exec`: the signal that stops it reaches Redline, not the shell.
        sh.args(["-c", &format!("exec {fix}")]);
        let mut child = sh.spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "ready\n", "{case:?}: `{fix}` did not start\n{report}");
        signal(&child, libc::SIGTERM);
        assert!(child.wait().unwrap().success(), "{case:?}: `{fix}`");
        return;
    }
    let out = sh.args(["-c", fix]).output().unwrap();
    assert!(
        out.status.success(),
        "{case:?}: `{fix}` failed in {}: {}\n{report}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A running instance, stopped when the case ends, a failed one too (a test that panics must
/// not leave it holding the test runner's output open).
pub(super) struct Serving(pub std::process::Child);

impl Drop for Serving {
    fn drop(&mut self) {
        signal(&self.0, libc::SIGTERM);
        let _ = self.0.wait();
    }
}

fn check(case: Case) {
    let env = Env::new();
    let path = path_for(&env, case.installed);
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    let _server = case.running.then(|| Serving(env.serve()));
    let dir = cwd_of(&env, case.cwd);
    let (report, lines) = fixes(&env, case, &path, &dir);
    let mut printed = Vec::new();
    for line in &lines {
        match line {
            Line::Run(fix) => {
                assert!(!printed.contains(fix), "{case:?}: `{fix}` twice\n{report}");
                printed.push(fix.clone());
            }
            // Words, not a command: none of them is a bare `redline …` to paste.
            Line::Said(words) => assert!(!words.starts_with("redline "), "{case:?}: {words}"),
        }
    }
    if case.container && !case.running {
        // Nothing run in here connects a CLI: that fix is on the host (a hook's config is
        // written in here, and is run below like every other).
        assert!(
            !printed
                .iter()
                .any(|f| f.starts_with("redline") && !f.starts_with("redline hooks ")),
            "{case:?}: a command that cannot work here\n{report}"
        );
    }
    for fix in &printed {
        run_fix(&env, case, &path, &dir, fix, &report);
    }
}

#[test]
fn every_fix_doctor_prints_works_from_where_it_was_printed() {
    for cwd in [
        Cwd::Home,
        Cwd::AroundWorkspace,
        Cwd::InWorkspace,
        Cwd::Outside,
    ] {
        for container in [false, true] {
            for installed in [true, false] {
                for running in [false, true] {
                    check(Case {
                        cwd,
                        container,
                        installed,
                        running,
                    });
                }
            }
        }
    }
}
