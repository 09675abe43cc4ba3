//! Checkpoints against the real `git` program, in temp dirs.

use super::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn git_program() -> PathBuf {
    PathBuf::from("git")
}

fn store(root: &Path, ws: &Path) -> Store {
    Store::open(&git_program(), &root.join("store"), ws).unwrap()
}

/// Every file under `dir` (links as their target's name), by path: to compare trees byte for byte.
fn hashed(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let kind = e.file_type().unwrap();
            if kind.is_symlink() {
                out.insert(
                    p.clone(),
                    fs::read_link(&p)
                        .unwrap()
                        .into_os_string()
                        .into_encoded_bytes(),
                );
            } else if kind.is_dir() {
                stack.push(p);
            } else {
                let meta = fs::metadata(&p).unwrap();
                let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions());
                let mut bytes = fs::read(&p).unwrap();
                bytes.extend(format!("\nmode {mode:o}").bytes());
                out.insert(p, bytes);
            }
        }
    }
    out
}

fn sh(dir: &Path, script: &str) {
    let ok = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .status()
        .unwrap()
        .success();
    assert!(ok, "{script}");
}

#[test]
fn a_folder_that_is_no_repository_is_kept_byte_for_byte_with_its_ignore_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(ws.join("src")).unwrap();
    let crlf = b"\xEF\xBB\xBFone\r\ntwo\nthree\r\n".to_vec();
    fs::write(ws.join("src/crlf.txt"), &crlf).unwrap();
    fs::write(ws.join(".gitignore"), "*.log\nbuild/\n").unwrap();
    // The workspace asks git to normalise endings: the store keeps the bytes anyway.
    fs::write(ws.join(".gitattributes"), "* text=auto eol=lf\n").unwrap();
    fs::write(ws.join("debug.log"), "ignored").unwrap();
    fs::create_dir_all(ws.join("build")).unwrap();
    fs::write(ws.join("build/out.bin"), "ignored").unwrap();
    let mut s = store(tmp.path(), &ws);
    let cp = s.checkpoint().unwrap();
    assert_eq!(
        s.file_at(&cp, Path::new("src/crlf.txt")).unwrap(),
        Some(crlf)
    );
    assert_eq!(s.file_at(&cp, Path::new("debug.log")).unwrap(), None);
    assert_eq!(s.file_at(&cp, Path::new("build/out.bin")).unwrap(), None);
    assert!(
        !ws.join(".git").exists(),
        "a .git was made in the workspace"
    );
}

#[test]
fn names_a_shell_or_a_careless_world_makes_are_kept() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    let names: Vec<PathBuf> = [
        &b"semi;colon $(touch pwned) 'q\".rs"[..],
        b"trailing space ",
        b"new\nline.txt",
        b"not-utf8-\xff\xfe.bin",
        b"tab\there",
    ]
    .iter()
    .map(|n| PathBuf::from(std::ffi::OsStr::from_bytes(n)))
    .collect();
    for (i, n) in names.iter().enumerate() {
        fs::write(ws.join(n), format!("file {i}\n")).unwrap();
    }
    let mut s = store(tmp.path(), &ws);
    let before = s.checkpoint().unwrap();
    for (i, n) in names.iter().enumerate() {
        assert_eq!(
            s.file_at(&before, n).unwrap(),
            Some(format!("file {i}\n").into_bytes()),
            "{n:?}"
        );
    }
    for n in &names {
        fs::write(ws.join(n), "changed\n").unwrap();
    }
    let after = s.checkpoint().unwrap();
    let mut changed: Vec<PathBuf> = s
        .changes(&before, &after)
        .unwrap()
        .into_iter()
        .map(|c| c.path)
        .collect();
    changed.sort();
    let mut want = names.clone();
    want.sort();
    assert_eq!(changed, want);
    assert!(!ws.join("pwned").exists());
}

#[test]
fn changes_name_every_kind_of_change() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    let body: String = (0..40).map(|i| format!("line {i}\n")).collect();
    fs::write(ws.join("kept.txt"), "a\nb\nc\n").unwrap();
    fs::write(ws.join("gone.txt"), "bye\n").unwrap();
    fs::write(ws.join("old_name.rs"), &body).unwrap();
    fs::write(ws.join("run.sh"), "echo\n").unwrap();
    fs::write(ws.join("image.bin"), b"\x00\x01\x02").unwrap();
    let mut s = store(tmp.path(), &ws);
    let before = s.checkpoint().unwrap();

    fs::write(ws.join("kept.txt"), "a\nB\nc\nd\n").unwrap();
    fs::remove_file(ws.join("gone.txt")).unwrap();
    fs::rename(ws.join("old_name.rs"), ws.join("new_name.rs")).unwrap();
    fs::set_permissions(ws.join("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(ws.join("image.bin"), b"\x00\x09").unwrap();
    // Made by "a shell command", not an edit tool: a checkpoint sees it all the same.
    sh(&ws, "printf 'new\\n' > made_by_shell.txt");
    let after = s.checkpoint().unwrap();

    let changes = s.changes(&before, &after).unwrap();
    let find = |p: &str| {
        changes
            .iter()
            .find(|c| c.path == Path::new(p))
            .unwrap_or_else(|| panic!("{p} missing in {changes:?}"))
    };
    let kept = find("kept.txt");
    assert_eq!(
        (kept.status, kept.added, kept.removed),
        (ChangeKind::Modified, 2, 1)
    );
    assert_eq!(find("gone.txt").status, ChangeKind::Deleted);
    let moved = find("new_name.rs");
    assert_eq!(
        (moved.status, moved.from.as_deref()),
        (ChangeKind::Renamed, Some(Path::new("old_name.rs")))
    );
    assert_eq!(find("run.sh").modes, (0o100644, 0o100755));
    assert!(find("image.bin").binary);
    assert_eq!(find("made_by_shell.txt").status, ChangeKind::Added);
    assert_eq!(changes.len(), 6, "{changes:?}");
}

#[test]
fn an_unchanged_workspace_is_the_same_checkpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    fs::write(ws.join("a.txt"), "a\n").unwrap();
    let mut s = store(tmp.path(), &ws);
    let first = s.checkpoint().unwrap();
    assert_eq!(s.checkpoint().unwrap(), first);
    // The store reopened (Redline restarted) knows its newest checkpoint.
    let mut again = store(tmp.path(), &ws);
    assert_eq!(again.checkpoint().unwrap(), first);
    assert!(s.changes(&first, &first).unwrap().is_empty());
}

/// The user's own repository (its index, refs, stash, hooks, config and work tree) is byte for
/// byte as before, across checkpoints and their changes; its hooks never run.
#[test]
fn the_users_repository_is_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    sh(
        &ws,
        "git init -q . && git config user.email u@example.com && git config user.name U \
         && git config core.autocrlf true \
         && printf 'one\\r\\n' > a.txt && git add a.txt && git commit -qm first \
         && printf 'two\\n' >> a.txt && git stash -q && printf 'three\\n' > b.txt && git add b.txt \
         && printf '#!/bin/sh\\ntouch \"$GIT_DIR/../hook-ran\"\\n' > .git/hooks/pre-commit \
         && cp .git/hooks/pre-commit .git/hooks/post-index-change \
         && chmod +x .git/hooks/pre-commit .git/hooks/post-index-change \
         && printf 'untracked\\n' > c.txt",
    );
    let before = hashed(&ws);
    let mut s = store(tmp.path(), &ws);
    let first = s.checkpoint().unwrap();
    for turn in 0..10 {
        fs::write(ws.join("c.txt"), format!("turn {turn}\n")).unwrap();
        let cp = s.checkpoint().unwrap();
        s.changes(&first, &cp).unwrap();
        fs::write(ws.join("c.txt"), "untracked\n").unwrap();
    }
    let last = s.checkpoint().unwrap();
    assert_eq!(last.tree, first.tree);
    // The user's files, including everything under .git, as they were.
    assert_eq!(hashed(&ws), before);
    assert!(!ws.join("hook-ran").exists());
    // The checkpoint holds the untracked file and the work tree's bytes, not the index's.
    assert_eq!(
        s.file_at(&first, Path::new("c.txt")).unwrap(),
        Some(b"untracked\n".to_vec())
    );
    assert_eq!(
        s.file_at(&first, Path::new("a.txt")).unwrap(),
        Some(b"one\r\n".to_vec())
    );
    assert_eq!(s.file_at(&first, Path::new(".git/index")).unwrap(), None);
}

/// A `git` that notes each command's name in `git.log` beside it, then runs the real one.
pub(super) fn noting_git(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let log = dir.join("git.log");
    let program = dir.join("git-noted");
    let script = format!(
        "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -*|*=*) ;; *) echo \"$a\" >> '{}'; break;; esac; done\nexec git \"$@\"\n",
        log.display()
    );
    fs::write(&program, script).unwrap();
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    (program, log)
}

pub(super) fn noted(log: &Path) -> Vec<String> {
    let text = fs::read_to_string(log).unwrap_or_default();
    let _ = fs::remove_file(log);
    text.lines().map(str::to_owned).collect()
}

#[test]
fn an_unchanged_workspace_costs_one_git_status() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(ws.join("src/deep")).unwrap();
    fs::write(ws.join("src/deep/a.txt"), "a\n").unwrap();
    let (program, log) = noting_git(tmp.path());
    let mut s = Store::open(&program, &tmp.path().join("store"), &ws).unwrap();
    let first = s.checkpoint().unwrap();
    noted(&log);
    assert_eq!(s.checkpoint().unwrap(), first);
    assert_eq!(noted(&log), ["status"]);
    // Reopened (Redline restarted), the same.
    let mut again = Store::open(&program, &tmp.path().join("store"), &ws).unwrap();
    noted(&log);
    assert_eq!(again.checkpoint().unwrap(), first);
    assert_eq!(noted(&log), ["status"]);
    fs::write(ws.join("src/deep/b.txt"), "b\n").unwrap();
    assert_ne!(again.checkpoint().unwrap(), first);
    assert_eq!(
        noted(&log),
        [
            "status",
            "ls-files",
            "add",
            "write-tree",
            "commit-tree",
            "update-ref"
        ]
    );
}

/// What the one `git status` must not miss: each change after a checkpoint makes a new one
/// holding it, at once (within the same second as the checkpoint, where stat data can lie).
#[test]
fn every_change_after_a_checkpoint_is_seen_at_once() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(ws.join("src/deep")).unwrap();
    fs::create_dir_all(ws.join("build")).unwrap();
    fs::write(ws.join(".gitignore"), "build/\n").unwrap();
    fs::write(ws.join("src/deep/a.txt"), "aaaa\n").unwrap();
    fs::write(ws.join("src/run.sh"), "echo\n").unwrap();
    let mut s = store(tmp.path(), &ws);
    let mut last = s.checkpoint().unwrap();
    let mut step = |what: &str, change: &dyn Fn(), path: &str, want: Option<&[u8]>| {
        change();
        let now = s.checkpoint().unwrap();
        assert_eq!(
            s.file_at(&now, Path::new(path)).unwrap().as_deref(),
            want,
            "{what}"
        );
        let changed = now != last;
        last = now;
        changed
    };
    let ws2 = ws.clone();
    let same_size = move || fs::write(ws2.join("src/deep/a.txt"), "bbbb\n").unwrap();
    assert!(step(
        "same size, same second",
        &same_size,
        "src/deep/a.txt",
        Some(b"bbbb\n")
    ));
    let ws2 = ws.clone();
    let new_deep = move || fs::write(ws2.join("src/deep/new.txt"), "n\n").unwrap();
    assert!(step(
        "a new file deep down",
        &new_deep,
        "src/deep/new.txt",
        Some(b"n\n")
    ));
    let ws2 = ws.clone();
    let ignored = move || fs::write(ws2.join("build/out.o"), "o\n").unwrap();
    assert!(!step("an ignored file", &ignored, "build/out.o", None));
    let ws2 = ws.clone();
    let unignore = move || fs::write(ws2.join(".gitignore"), "").unwrap();
    assert!(step(
        "its rule gone",
        &unignore,
        "build/out.o",
        Some(b"o\n")
    ));
    let ws2 = ws.clone();
    let gone = move || fs::remove_file(ws2.join("src/deep/new.txt")).unwrap();
    assert!(step("a file deleted", &gone, "src/deep/new.txt", None));
    let ws2 = ws.clone();
    let exec = move || {
        fs::set_permissions(ws2.join("src/run.sh"), fs::Permissions::from_mode(0o755)).unwrap()
    };
    assert!(step(
        "made executable",
        &exec,
        "src/run.sh",
        Some(b"echo\n")
    ));
    let nothing = || {};
    assert!(!step("nothing", &nothing, "src/run.sh", Some(b"echo\n")));
}

/// The workspace repository's `.git/info/exclude` is one of its ignore rules: read, never
/// written, and followed when it changes.
#[test]
fn the_workspace_repositorys_own_excludes_are_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    sh(
        &ws,
        "git init -q . && printf 'secret.txt\\n' > .git/info/exclude \
         && printf 'mine\\n' > secret.txt && printf 'a\\n' > a.txt",
    );
    let before = hashed(&ws.join(".git"));
    let mut s = store(tmp.path(), &ws);
    let first = s.checkpoint().unwrap();
    assert_eq!(s.file_at(&first, Path::new("secret.txt")).unwrap(), None);
    assert_eq!(
        s.file_at(&first, Path::new("a.txt")).unwrap(),
        Some(b"a\n".to_vec())
    );
    assert_eq!(hashed(&ws.join(".git")), before);
    fs::write(ws.join(".git/info/exclude"), "").unwrap();
    let now = s.checkpoint().unwrap();
    assert_eq!(
        s.file_at(&now, Path::new("secret.txt")).unwrap(),
        Some(b"mine\n".to_vec())
    );
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid C string; mkfifo only makes the node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

fn change_of<'a>(changes: &'a [Delta], path: &str) -> &'a Delta {
    let found = changes.iter().find(|d| d.path == Path::new(path));
    found.unwrap_or_else(|| panic!("{path} not in {changes:?}"))
}

/// A FIFO is kept as a marked stand-in: listed as it comes and goes, never opened (a test that
/// opened one would hang here), refused by undo, the unchanged checkpoint still one status.
#[test]
fn a_fifo_is_listed_as_it_comes_and_goes_never_opened_nor_undone() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(ws.join("run")).unwrap();
    fs::write(ws.join(".gitignore"), "*.sock\n").unwrap();
    fs::write(ws.join("a.txt"), "a\n").unwrap();
    mkfifo(&ws.join("old-pipe"));
    mkfifo(&ws.join("run/app.sock"));
    let (program, log) = noting_git(tmp.path());
    let mut s = Store::open(&program, &tmp.path().join("store"), &ws).unwrap();
    let first = s.checkpoint().unwrap();
    // Its ignore rules hold for a FIFO too (git lists none as ignored: asked by name).
    assert_eq!(s.file_at(&first, Path::new("run/app.sock")).unwrap(), None);
    assert!(s.file_at(&first, Path::new("old-pipe")).unwrap().is_some());
    noted(&log);
    assert_eq!(s.checkpoint().unwrap(), first);
    assert_eq!(noted(&log), ["status"]);

    fs::remove_file(ws.join("old-pipe")).unwrap();
    mkfifo(&ws.join("run/new-pipe"));
    let second = s.checkpoint().unwrap();
    let changes = s.changes(&first, &second).unwrap();
    assert_eq!(changes.len(), 2, "{changes:?}");
    let added = change_of(&changes, "run/new-pipe");
    assert_eq!(added.status, ChangeKind::Added);
    assert_eq!(added.not_kept, Some(NotKept::NotAFile("a FIFO")));
    let gone = change_of(&changes, "old-pipe");
    assert_eq!(gone.status, ChangeKind::Deleted);
    assert_eq!(gone.not_kept, Some(NotKept::NotAFile("a FIFO")));
    let patch = String::from_utf8(s.patch(&first, &second, None).unwrap()).unwrap();
    assert!(patch.contains("a FIFO, not a regular file"), "{patch}");
    for path in ["run/new-pipe", "old-pipe"] {
        let undo = [Undo {
            path: path.into(),
            pick: Pick::Whole,
        }];
        let err = s.undo(&first, &second, &undo).unwrap_err();
        assert!(
            matches!(err, CheckpointError::NotAFile(_, "a FIFO")),
            "{err}"
        );
    }
    // Still there, untouched; the next checkpoint with nothing changed is the same again.
    assert!(fs::symlink_metadata(ws.join("run/new-pipe")).is_ok());
    assert!(!ws.join("old-pipe").exists());
    assert_eq!(s.checkpoint().unwrap(), second);
    // Reopened (Redline restarted): the stand-ins are still known.
    let mut again = Store::open(&program, &tmp.path().join("store"), &ws).unwrap();
    noted(&log);
    assert_eq!(again.checkpoint().unwrap(), second);
    assert_eq!(noted(&log), ["status"]);
    // A regular file where the FIFO was: stored, its bytes.
    fs::remove_file(ws.join("run/new-pipe")).unwrap();
    fs::write(ws.join("run/new-pipe"), "now a file\n").unwrap();
    let third = again.checkpoint().unwrap();
    assert_eq!(
        again.file_at(&third, Path::new("run/new-pipe")).unwrap(),
        Some(b"now a file\n".to_vec())
    );
    let changes = again.changes(&second, &third).unwrap();
    assert_eq!(change_of(&changes, "run/new-pipe").not_kept, None);
}

/// Bytes that do not compress: the store's growth shows whether the file went in.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A file past the bound is never hashed into the store: its stand-in keeps its size and
/// modification time, so it is listed added, modified, deleted, and undo refuses it.
#[test]
fn a_file_past_the_bound_is_listed_by_its_size_and_never_stored() {
    const MIB: usize = 1 << 20;
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    fs::write(ws.join("a.txt"), "a\n").unwrap();
    let mut s = store(tmp.path(), &ws);
    s.set_file_limit(MIB as u64);
    let first = s.checkpoint().unwrap();
    let grown_from = s.git.own_bytes().unwrap();

    fs::write(ws.join("big.bin"), noise(8 * MIB, 1)).unwrap();
    let second = s.checkpoint().unwrap();
    let changes = s.changes(&first, &second).unwrap();
    let big = change_of(&changes, "big.bin");
    assert_eq!(big.status, ChangeKind::Added);
    assert_eq!(big.not_kept, Some(NotKept::TooLarge(8 * MIB as u64)));
    let grown = s.git.own_bytes().unwrap() - grown_from;
    assert!(grown < MIB as u64, "the store grew by {grown} bytes");
    let patch = String::from_utf8(s.patch(&first, &second, None).unwrap()).unwrap();
    assert!(
        patch.contains("too large to keep, 8388608 bytes"),
        "{patch}"
    );
    // Unchanged: the same checkpoint.
    assert_eq!(s.checkpoint().unwrap(), second);

    // Rewritten in place, the same size: its modification time tells (set a second on, as
    // a later write would leave it, whatever the file system's clock grain).
    let was = fs::metadata(ws.join("big.bin"))
        .unwrap()
        .modified()
        .unwrap();
    fs::write(ws.join("big.bin"), noise(8 * MIB, 2)).unwrap();
    let file = fs::File::options()
        .write(true)
        .open(ws.join("big.bin"))
        .unwrap();
    file.set_modified(was + std::time::Duration::from_secs(1))
        .unwrap();
    drop(file);
    let third = s.checkpoint().unwrap();
    assert_ne!(third, second);
    let changes = s.changes(&second, &third).unwrap();
    assert_eq!(change_of(&changes, "big.bin").status, ChangeKind::Modified);
    let err = s.undo_all(&second, &third).unwrap_err();
    assert!(
        matches!(err, CheckpointError::TooLarge { size, .. } if size == 8 * MIB as u64),
        "{err}"
    );

    fs::remove_file(ws.join("big.bin")).unwrap();
    let fourth = s.checkpoint().unwrap();
    let changes = s.changes(&third, &fourth).unwrap();
    let gone = change_of(&changes, "big.bin");
    assert_eq!(gone.status, ChangeKind::Deleted);
    assert_eq!(gone.not_kept, Some(NotKept::TooLarge(8 * MIB as u64)));
    let err = s.undo_all(&third, &fourth).unwrap_err();
    assert!(matches!(err, CheckpointError::TooLarge { .. }), "{err}");
    assert!(!ws.join("big.bin").exists());
    let grown = s.git.own_bytes().unwrap() - grown_from;
    assert!(grown < MIB as u64, "the store grew by {grown} bytes");
}

/// A file of a turn opened (`open_file`, the window's first ask) reads both its sides in one
/// `git cat-file` once the changes are known: the start where a moved file came from, none
/// where there was no file, and a side past the bound refused by its size.
#[test]
fn a_file_opened_reads_both_sides_in_one_git_process() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    let old = "a file long enough\nthat git detects\nits move\nas a rename\nof it\n";
    for (name, text) in [
        ("a.txt", "one\ntwo\n"),
        ("old.txt", old),
        ("gone.txt", "bye\n"),
    ] {
        fs::write(ws.join(name), text).unwrap();
    }
    fs::write(ws.join("big.txt"), "small\n").unwrap();
    let (program, log) = noting_git(tmp.path());
    let mut s = Store::open(&program, &tmp.path().join("store"), &ws).unwrap();
    let before = s.checkpoint().unwrap();
    fs::write(ws.join("a.txt"), "one\nTWO\n").unwrap();
    fs::rename(ws.join("old.txt"), ws.join("moved.txt")).unwrap();
    fs::remove_file(ws.join("gone.txt")).unwrap();
    fs::write(ws.join("new.txt"), "fresh\n").unwrap();
    fs::write(ws.join("big.txt"), "x\n".repeat(2048)).unwrap();
    let after = s.checkpoint().unwrap();
    s.changes(&before, &after).unwrap();
    noted(&log);

    let sides = |s: &Store, name: &str| {
        let o = s.open_file(&before, &after, Path::new(name)).unwrap();
        let text = |b: Option<Vec<u8>>| b.map(|b| String::from_utf8(b).unwrap());
        (text(o.start), text(o.end))
    };
    let some = |t: &str| Some(t.to_owned());
    assert_eq!(sides(&s, "a.txt"), (some("one\ntwo\n"), some("one\nTWO\n")));
    assert_eq!(noted(&log), ["cat-file"]);
    assert_eq!(sides(&s, "moved.txt"), (some(old), some(old)));
    assert_eq!(sides(&s, "gone.txt"), (some("bye\n"), None));
    assert_eq!(sides(&s, "new.txt"), (None, some("fresh\n")));
    assert_eq!(noted(&log), ["cat-file", "cat-file", "cat-file"]);
    s.set_file_limit(1024);
    let err = s
        .open_file(&before, &after, Path::new("big.txt"))
        .unwrap_err();
    assert!(
        matches!(err, CheckpointError::TooLarge { size: 4096, .. }),
        "{err}"
    );
}
