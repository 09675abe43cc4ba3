//! The turn history against the real git: kept across a reopen (as after `kill -9`), bounded,
//! pruned with its objects, the user's repository untouched.

use super::super::{Bounds, CheckpointError, Store};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn git() -> &'static Path {
    Path::new("git")
}

fn sh(dir: &Path, script: &str) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "{script}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// A workspace that is the user's git repository, with a commit, a stash and a staged file.
fn users_repository(root: &Path) -> PathBuf {
    let ws = root.join("ws");
    fs::create_dir_all(&ws).unwrap();
    sh(
        &ws,
        "git init -q . && git config user.email u@example.com && git config user.name U \
         && seq 1 2000 > big.txt && printf 'a\\n' > a.txt && git add . && git commit -qm first \
         && printf 'b\\n' >> a.txt && git stash -q \
         && printf 's\\n' > staged.txt && git add staged.txt",
    );
    ws
}

/// Every file under `dir`, by path, with its bytes.
fn hashed(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), fs::read(&p).unwrap());
            }
        }
    }
    out
}

#[test]
fn ten_turns_come_back_after_a_restart_and_undo_still_works() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = users_repository(tmp.path());
    let users = hashed(&ws.join(".git"));
    let data = tmp.path().join("data");
    let mut store = Store::open_in(git(), &data, &ws).unwrap();
    let mut made = Vec::new();
    for i in 0..10u64 {
        let t = store.begin_turn("claude", "session-1", 1_000 + i).unwrap();
        fs::write(ws.join("a.txt"), format!("turn {i}\n")).unwrap();
        fs::write(ws.join(format!("new-{i}.txt")), "new\n").unwrap();
        made.push(store.end_turn(t.id, 2_000 + i).unwrap());
    }
    let dir = Store::dir_for(&data, &ws);
    // A kill between a turn's ref and the index leaves a ref the index does not list.
    sh(
        &ws,
        &format!(
            "GIT_DIR='{}' git update-ref refs/redline/turns/99 {}",
            dir.display(),
            made[0].start.commit.0
        ),
    );
    drop(store);

    let store = Store::open_in(git(), &data, &ws).unwrap();
    assert_eq!(store.turns(), made.as_slice());
    let ids: Vec<u64> = store.turns().iter().map(|t| t.id).collect();
    assert_eq!(ids, (0..10).collect::<Vec<_>>());
    assert_eq!((made[3].started, made[3].ended), (1_003, Some(2_003)));
    let refs = sh(
        &ws,
        &format!(
            "GIT_DIR='{}' git for-each-ref --format='%(refname)' refs/redline/turns/",
            dir.display()
        ),
    );
    assert_eq!(refs.lines().count(), 10, "{refs}");
    assert!(!refs.contains("/99"), "{refs}");
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &fs::metadata(dir.join("redline-turns.json"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);

    // The last turn undone from the reopened store: its start's bytes back.
    let last = store.turn(9).unwrap();
    let done = store
        .undo_all(&last.start, last.end.as_ref().unwrap())
        .unwrap();
    assert_eq!(done.len(), 2, "{done:?}");
    assert_eq!(fs::read(ws.join("a.txt")).unwrap(), b"turn 8\n");
    assert!(!ws.join("new-9.txt").exists());
    assert_eq!(
        hashed(&ws.join(".git")),
        users,
        "the user's repository changed"
    );
}

#[test]
fn pruning_keeps_the_newest_turns_and_drops_the_objects_only_older_ones_held() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = users_repository(tmp.path());
    let users = hashed(&ws.join(".git"));
    let data = tmp.path().join("data");
    let mut store = Store::open_in(git(), &data, &ws).unwrap();
    store
        .set_bounds(Bounds {
            turns: 3,
            ..Bounds::default()
        })
        .unwrap();
    let mut blobs = Vec::new();
    for i in 0..6 {
        let t = store.begin_turn("codex", &format!("s{i}"), i).unwrap();
        let text = format!("only turn {i} wrote this\n");
        fs::write(ws.join("f.txt"), &text).unwrap();
        let hash = format!(
            "printf '%s\\n' '{}' | git hash-object --stdin",
            text.trim_end()
        );
        blobs.push(sh(&ws, &hash));
        store.end_turn(t.id, i).unwrap();
        // The turn's end leaves the bound to be kept after its review is open.
        assert_eq!(store.turns().len(), (i as usize + 1).min(4));
        store.prune_if_due().unwrap();
        store.prune_if_due().unwrap();
    }
    let ids: Vec<u64> = store.turns().iter().map(|t| t.id).collect();
    assert_eq!(ids, vec![3, 4, 5]);
    let dir = Store::dir_for(&data, &ws);
    let has = |id: &str| {
        Command::new("git")
            .args(["cat-file", "-e", id])
            .env("GIT_DIR", &dir)
            .status()
            .unwrap()
            .success()
    };
    // Turn 3 starts where turn 2 ended: "turn 2"'s bytes are still held; 0 and 1 are gone.
    assert_eq!(
        blobs.iter().map(|b| has(b)).collect::<Vec<_>>(),
        vec![false, false, true, true, true, true]
    );
    // The size bound: past it, all but the newest go.
    store
        .set_bounds(Bounds {
            turns: 200,
            bytes: 1,
        })
        .unwrap();
    assert_eq!(store.turns().len(), 1);
    assert_eq!(store.turns()[0].id, 5);
    // The user's objects, borrowed, are all still there (and the repository byte for byte).
    assert_eq!(hashed(&ws.join(".git")), users);
    assert_eq!(
        sh(&ws, "git fsck --no-progress --no-dangling && echo ok"),
        "ok"
    );
}

#[test]
fn each_workspace_has_its_own_store() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    fs::create_dir_all(&a).unwrap();
    fs::create_dir_all(&b).unwrap();
    let data = tmp.path().join("data");
    assert_ne!(Store::dir_for(&data, &a), Store::dir_for(&data, &b));
    assert_eq!(Store::dir_for(&data, &a), Store::dir_for(&data, &a));
    assert!(Store::dir_for(&data, &a).starts_with(data.join("checkpoints")));
    Store::open_in(git(), &data, &a).unwrap();
    // A store found holding another workspace (a hash collision) is refused, not shared.
    let err = Store::open(git(), &Store::dir_for(&data, &a), &b)
        .err()
        .unwrap();
    assert!(matches!(err, CheckpointError::OtherWorkspace(..)), "{err}");
    let err = Store::open_in(git(), &data, &a)
        .unwrap()
        .end_turn(7, 0)
        .unwrap_err();
    assert!(matches!(err, CheckpointError::NoSuchTurn(7)), "{err}");
}

/// A turn's end is on the way to its review: its checkpoint and both refs, in six git
/// processes (the two refs in one transaction); the history's bound is kept after, apart.
#[test]
fn a_turns_end_moves_both_refs_in_one_git_process_and_prunes_apart() {
    use super::super::tests::{noted, noting_git};
    let tmp = tempfile::tempdir().unwrap();
    let ws = users_repository(tmp.path());
    let users = hashed(&ws.join(".git"));
    let (program, log) = noting_git(tmp.path());
    let dir = tmp.path().join("store");
    let mut store = Store::open(&program, &dir, &ws).unwrap();
    let t = store.begin_turn("codex", "s", 1).unwrap();
    fs::write(ws.join("a.txt"), "changed\n").unwrap();
    noted(&log);
    let ended = store.end_turn(t.id, 2).unwrap();
    assert_eq!(
        noted(&log),
        [
            "ls-files",
            "add",
            "write-tree",
            "commit-tree",
            "commit-tree",
            "update-ref"
        ]
    );
    // One turn: nothing to weigh.
    store.prune_if_due().unwrap();
    assert_eq!(noted(&log), Vec::<String>::new());
    // Both refs moved: the turn's to its end (the start as its parent), the newest checkpoint's
    // to a commit of the same tree, which a reopened store (Redline restarted) finds.
    let end = ended.end.clone().unwrap();
    let rev = |name: &str| {
        sh(
            &ws,
            &format!("GIT_DIR='{}' git rev-parse {name}", dir.display()),
        )
    };
    assert_eq!(rev("refs/redline/turns/0"), end.commit.0);
    assert_eq!(rev("refs/redline/turns/0^"), t.start.commit.0);
    assert_eq!(rev("refs/redline/latest^{tree}"), end.tree.0);
    let mut again = Store::open(&program, &dir, &ws).unwrap();
    noted(&log);
    assert_eq!(again.checkpoint().unwrap().tree, end.tree);
    assert_eq!(noted(&log), ["status"]);
    // A turn ending on an unchanged workspace moves only its own ref.
    let t = again.begin_turn("codex", "s", 3).unwrap();
    noted(&log);
    again.end_turn(t.id, 4).unwrap();
    assert_eq!(
        noted(&log),
        ["ls-files", "add", "write-tree", "commit-tree", "update-ref"]
    );
    again.prune_if_due().unwrap();
    assert_eq!(noted(&log), ["count-objects"]);
    again.prune_if_due().unwrap();
    assert_eq!(noted(&log), Vec::<String>::new());
    assert_eq!(hashed(&ws.join(".git")), users);
}
