//! The shell recipes of README.md and docs/headless.md, taken from the documents as written and
//! run against a real instance: a recipe that loses the user's text is a bug like any other.

use super::local_review::{serving, stop, until_reviews};
use super::Env;
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Stdio};

const README: &str = include_str!("../../README.md");
const HEADLESS: &str = include_str!("../../docs/headless.md");

/// The lines of `doc` from the one starting with `first` to the one starting with `last`.
fn recipe(doc: &str, first: &str, last: &str) -> String {
    let lines: Vec<&str> = doc.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(first))
        .unwrap_or_else(|| panic!("no line starting {first:?}"));
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.starts_with(last))
            .unwrap_or_else(|| panic!("no line starting {last:?} after {first:?}"));
    lines[start..=end].join("\n") + "\n"
}

/// `sh -eu -c script` in `dir`, with `redline` on PATH and the env's directories.
fn sh(env: &Env, dir: &Path, script: &str) -> Command {
    let bin_dir = Path::new(super::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let redline = env.cmd(&[]);
    let mut cmd = Command::new("sh");
    cmd.args(["-eu", "-c", script]).env_clear();
    for (k, v) in redline.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.env("PATH", path).current_dir(dir);
    cmd
}

fn finish(child: Child) -> String {
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "recipe failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_readme_s_propose_recipe_keeps_nothing_on_reject_and_moves_the_text_on_accept() {
    let env = Env::new();
    let child = serving(&env);
    let ws = env.ws();
    std::fs::create_dir_all(ws.join("src")).unwrap();
    std::fs::write(ws.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(ws.join("new.rs"), "fn main() { println!(); }\n").unwrap();
    let script = recipe(README, "if redline propose src/main.rs", "fi");

    for (decide, main_rs) in [
        ("reject", "fn main() {}\n"),
        ("accept", "fn main() { println!(); }\n"),
    ] {
        let run = sh(&env, &ws, &script)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let list = until_reviews(&env, |l| l.len() == 1);
        env.ok(&["review", decide, &list[0]["id"].to_string()]);
        finish(run);
        assert!(
            !ws.join("accepted.rs").exists(),
            "{decide}: accepted.rs left behind"
        );
        assert_eq!(
            std::fs::read_to_string(ws.join("src/main.rs")).unwrap(),
            main_rs,
            "{decide}"
        );
    }
    stop(&env, child);
}

#[test]
fn the_headless_edit_in_your_editor_recipe_starts_from_the_proposal() {
    let env = Env::new();
    let child = serving(&env);
    let ws = env.ws();
    let file = ws.join("f.txt");
    std::fs::write(&file, "a\nb\nc\n").unwrap();
    let proposed = "a\nB\nc\nd";
    let mut propose = env
        .cmd(&["propose", file.to_str().unwrap(), "-", "--wait", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = propose.stdin.take().unwrap();
        stdin.write_all(proposed.as_bytes()).unwrap();
    }
    let list = until_reviews(&env, |l| l.len() == 1);
    let id = list[0]["id"].to_string();
    let mine = env.root.join("tmp/mine");
    let script = recipe(
        HEADLESS,
        "id=3",
        "redline review accept \"$id\" --content-file /tmp/mine",
    )
    .replace("id=3", &format!("id={id}"))
    .replace("/tmp/mine", mine.to_str().unwrap());
    // The editor changes nothing: what is accepted is what the recipe started from.
    let run = sh(&env, &env.root.join("tmp"), &script)
        .env("EDITOR", "true")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    finish(run);
    let out = propose.wait_with_output().unwrap();
    let decision: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(decision["decision"], "accepted");
    assert_eq!(
        decision["content"], proposed,
        "the proposal, not the file on disk"
    );
    stop(&env, child);
}
