//! The running turns against the real git, through a wrapper that logs what git is asked.

use super::Checkpoints;
use crate::platform::clock::SystemClock;
use std::path::Path;
use std::sync::Arc;

/// A `git` that logs each command's subcommand (its first argument not an option or a `-c`
/// value) to `log`, then runs the real git.
fn logging_git(dir: &Path, log: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("git");
    let body = format!(
        "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -c) skip=1;; -*) ;; *) \
         if [ -n \"$skip\" ]; then skip=; else echo \"$a\" >> '{}'; break; fi;; esac; done\n\
         exec git \"$@\"\n",
        log.display()
    );
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// What looks at the workspace's files: a status or an add.
fn checkpoints_taken(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| matches!(*l, "status" | "add"))
        .count()
}

#[tokio::test]
async fn a_prompt_with_no_end_before_it_takes_one_checkpoint_for_both_turns() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("a.txt"), "one\n").unwrap();
    let log = tmp.path().join("git.log");
    let git = logging_git(tmp.path(), &log);
    let data = tmp.path().join("data");
    let cps = Checkpoints::new(data, Arc::new(SystemClock)).with_git(git);

    let first = cps.begin(&ws, ("claude", "s"), None).await.unwrap();
    std::fs::write(ws.join("a.txt"), "two\n").unwrap();
    std::fs::remove_file(&log).unwrap();
    // The next prompt, no end hook between: the first turn ends where the second begins.
    let second = cps.begin(&ws, ("claude", "s"), None).await.unwrap();
    assert_eq!(
        checkpoints_taken(&log),
        1,
        "{}",
        std::fs::read_to_string(&log).unwrap()
    );

    let ended = cps
        .with(&ws, move |st| Ok(st.turn(first.id).cloned()))
        .await
        .unwrap()
        .unwrap();
    let end = ended.end.expect("the unfinished turn is ended, and listed");
    assert_eq!(end.tree, second.start.tree);
    assert_ne!(ended.start.tree, end.tree);
    // The second turn runs: its end hook ends it.
    assert!(cps.end("claude", "s").await.unwrap().is_ok());
}
