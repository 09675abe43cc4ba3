//! The proofs of issue 39 for `redline turns` against the real git and a hostile world: ten turns
//! survive a `kill -9` of Redline and undo still works, with the user's own repository byte for
//! byte as before; links, FIFOs, a 2 GB file, odd names and ignored folders in a turn.

use super::local_review::{serving, stop};
use super::turns::{prompt, run_in, spawn_in, stop_input, text};
use super::{have, Env};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// Every file under `dir` (not following links), by path relative to it: its bytes, or where a
/// link points. `skip`: a folder name left out (the user's `.git` when reading the work tree).
fn tree(dir: &Path, skip: Option<&str>) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let (path, kind) = (e.path(), e.file_type().unwrap());
            if skip.is_some_and(|s| e.file_name() == s) {
                continue;
            }
            let rel = path.strip_prefix(dir).unwrap().to_owned();
            if kind.is_dir() {
                todo.push(path);
            } else if kind.is_symlink() {
                let to = std::fs::read_link(&path).unwrap();
                out.insert(rel, to.into_os_string().into_encoded_bytes());
            } else {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// Runs the real git in `dir` with no user or system configuration; its output, checked.
fn git(env: &Env, dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", env.ws().parent().unwrap().join("home"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "u")
        .env("GIT_AUTHOR_EMAIL", "u@example.invalid")
        .env("GIT_COMMITTER_NAME", "u")
        .env("GIT_COMMITTER_EMAIL", "u@example.invalid")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// A user's repository with everything git keeps: commits, a tag, packed and loose refs, a
/// stash, a hook and its own configuration.
fn user_repository(env: &Env, ws: &Path) {
    git(env, ws, &["init", "-q", "-b", "main"]);
    git(env, ws, &["config", "user.name", "u"]);
    for i in 0..3 {
        std::fs::write(ws.join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
    }
    std::fs::write(ws.join("old.txt"), "old\n").unwrap();
    git(env, ws, &["add", "-A"]);
    git(env, ws, &["commit", "-q", "-m", "one"]);
    git(env, ws, &["tag", "v1"]);
    git(env, ws, &["branch", "packed"]);
    git(env, ws, &["pack-refs", "--all"]);
    git(env, ws, &["branch", "loose"]);
    std::fs::write(ws.join("f0.txt"), "stashed\n").unwrap();
    git(env, ws, &["stash", "-q"]);
    let hook = ws.join(".git/hooks/pre-commit");
    std::fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Its index as git status leaves it: nothing of Redline's may rewrite it after this.
    git(env, ws, &["status", "--porcelain"]);
}

/// One turn of claude session `session`: the prompt hook, `work`, the end-of-turn hook.
fn turn(env: &Env, ws: &Path, session: &str, work: impl FnOnce()) {
    assert_eq!(prompt(env, ws, session), "");
    work();
    let out = end_turn(env, ws, session, LIMIT);
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), String::new()),
        "{}",
        text(&out.stderr)
    );
}

fn list(env: &Env, ws: &Path) -> Vec<Value> {
    let list = env.json(&["turns", "list", ws.to_str().unwrap(), "--json"]);
    list.as_array().unwrap().clone()
}

/// The paths of `turn`'s files with their status, sorted.
fn statuses(turn: &Value) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = turn["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let path = f["path"].as_str().unwrap().to_owned();
            (path, f["status"].as_str().unwrap().to_owned())
        })
        .collect();
    files.sort();
    files
}

fn undo(env: &Env, ws: &Path, args: &[&str]) -> Output {
    let mut all = vec!["turns", "undo"];
    all.extend_from_slice(args);
    run_in(env, ws, &all, "")
}

#[test]
fn ten_turns_survive_a_kill_9_and_the_users_repository_is_untouched() {
    if !have("git") {
        return;
    }
    let env = Env::new();
    let ws = env.ws();
    user_repository(&env, &ws);
    let repo = tree(&ws.join(".git"), None);
    let mut child = serving(&env);

    for i in 0..10usize {
        turn(&env, &ws, &format!("s{i}"), || {
            let f = ws.join(format!("f{}.txt", i % 3));
            let mut bytes = std::fs::read(&f).unwrap();
            bytes.extend_from_slice(format!("turn {i}\n").as_bytes());
            std::fs::write(&f, bytes).unwrap();
            std::fs::write(ws.join(format!("new{i}.txt")), format!("{i}\n")).unwrap();
            if i == 4 {
                std::fs::remove_file(ws.join("old.txt")).unwrap();
            }
        });
    }
    let work = tree(&ws, Some(".git"));
    assert_eq!(list(&env, &ws).len(), 10);

    // Killed outright: nothing of Redline's gets to run.
    child.kill().unwrap();
    child.wait().unwrap();
    let child = env.serve();
    let turns = list(&env, &ws);
    assert_eq!(turns.len(), 10, "{turns:?}");
    assert!(turns.iter().all(|t| t["state"] == "ended"), "{turns:?}");
    assert_eq!(
        statuses(&turns[5]),
        [
            ("f1.txt".into(), "modified".into()),
            ("new4.txt".into(), "added".into()),
            ("old.txt".into(), "deleted".into())
        ]
    );
    assert_eq!(tree(&ws, Some(".git")), work, "the restart wrote nothing");

    // Undo after the restart: the newest turn whole, a file of an older one, the hunk of a
    // third; an older turn whose file changed since is refused.
    let id = |n: usize| turns[9 - n]["id"].as_u64().unwrap().to_string();
    let out = undo(&env, &ws, &[&id(9)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = undo(&env, &ws, &[&id(4), "old.txt", "new4.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = undo(&env, &ws, &[&id(8), "f2.txt:4"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = undo(&env, &ws, &[&id(0), "f0.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));

    let mut expected = work;
    expected.remove(Path::new("new9.txt"));
    expected.remove(Path::new("new4.txt"));
    expected.insert("f0.txt".into(), b"0\nturn 0\nturn 3\nturn 6\n".to_vec());
    expected.insert("f2.txt".into(), b"2\nturn 2\nturn 5\n".to_vec());
    expected.insert("old.txt".into(), b"old\n".to_vec());
    assert_eq!(tree(&ws, Some(".git")), expected);
    // The user's .git, every byte of it: index, HEAD, config, hooks, refs loose and packed, the
    // stash and its log, objects.
    assert_eq!(tree(&ws.join(".git"), None), repo);
    stop(&env, child);
}

/// Runs `redline ARGS` in `dir`, failing the test if it has not finished within `limit` (a
/// read of a FIFO would block for ever).
fn within(env: &Env, dir: &Path, args: &[&str], stdin: &str, limit: Duration) -> Output {
    let child = spawn_in(env, dir, args, stdin);
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(limit) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: our own child, still running.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("redline {args:?} did not finish within {limit:?}");
        }
    }
}

/// Claude session `session`'s end-of-turn hook, within `limit`: a checkpointed turn that changed
/// files opens one review of the whole turn, which the hook waits for: answered Done here.
fn end_turn(env: &Env, ws: &Path, session: &str, limit: Duration) -> Output {
    let args = ["hook", "claude", "--turn-review"];
    let mut child = spawn_in(env, ws, &args, &stop_input(ws, session));
    let deadline = std::time::Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        let list = env.json(&["review", "list", "--json"]);
        let whole = list
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["kind"] == "turn");
        if let Some(review) = whole {
            env.ok(&["review", "done", &review["id"].to_string()]);
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the end-of-turn hook did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The peak memory (VmHWM, KiB) of process `pid`.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

const LIMIT: Duration = Duration::from_secs(60);
/// The checkpoint that first sees a 2 GB file never reads it (a stand-in of its size and
/// time): no longer than any other turn's end (hashing it took ~30 s on a loaded 2-core
/// machine).
const BIG_LIMIT: Duration = Duration::from_secs(20);

/// The bytes of every file under `dir` (Redline's data folder with its checkpoint stores).
fn bytes_under(dir: &Path) -> u64 {
    let mut total = 0;
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let meta = e.metadata().unwrap();
            if meta.is_dir() {
                todo.push(e.path());
            } else {
                total += meta.len();
            }
        }
    }
    total
}

#[test]
fn a_link_a_fifo_and_a_2_gb_file_are_listed_and_never_read_or_written_through() {
    let env = Env::new();
    let ws = env.ws();
    let passwd = std::fs::read("/etc/passwd").unwrap();
    std::fs::write(ws.join("link.txt"), "mine\n").unwrap();
    let child = serving(&env);

    assert_eq!(prompt(&env, &ws, "h"), "");
    std::fs::remove_file(ws.join("link.txt")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", ws.join("link.txt")).unwrap();
    let fifo = std::ffi::CString::new(ws.join("pipe").into_os_string().into_encoded_bytes());
    // SAFETY: a valid C string; mkfifo only makes the node.
    assert_eq!(unsafe { libc::mkfifo(fifo.unwrap().as_ptr(), 0o644) }, 0);
    let big = std::fs::File::create(ws.join("big.bin")).unwrap();
    big.set_len(2 << 30).unwrap();
    let home = ws.parent().unwrap().join("home");
    let stores_before = bytes_under(&home);
    let out = end_turn(&env, &ws, "h", BIG_LIMIT);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Not stored: even its zeros, compressed, would be 2 MB.
    let grown = bytes_under(&home) - stores_before;
    assert!(grown < 512 * 1024, "the stores grew by {grown} bytes");

    let out = within(&env, &ws, &["turns", "list", "--json"], "", LIMIT);
    let turns: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = turns[0]["files"].as_array().unwrap().clone();
    let of = |p: &str| files.iter().find(|f| f["path"] == p).cloned();
    assert_eq!(
        of("link.txt").unwrap()["status"],
        "typeChanged",
        "{files:?}"
    );
    // Listed as what it is, never opened (the hook above would have hung on it).
    let pipe = of("pipe").unwrap();
    assert_eq!(
        (&pipe["status"], &pipe["notAFile"]),
        (&"added".into(), &"a FIFO".into())
    );
    let big = of("big.bin").unwrap();
    assert_eq!(
        (&big["status"], &big["tooLarge"]),
        (&"added".into(), &true.into())
    );
    // Redline's own memory stayed far below the file's size.
    assert!(
        peak_kib(child.id()) < 256 * 1024,
        "{} KiB",
        peak_kib(child.id())
    );

    // Never written through: refused, the link and what it points at as they were.
    let out = within(&env, &ws, &["turns", "undo", "0", "link.txt"], "", LIMIT);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("link.txt"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read("/etc/passwd").unwrap(), passwd);
    assert!(std::fs::symlink_metadata(ws.join("link.txt"))
        .unwrap()
        .is_symlink());
    // Nor is the FIFO or the large file opened to undo them.
    for name in ["pipe", "big.bin"] {
        let out = within(&env, &ws, &["turns", "undo", "0", name], "", LIMIT);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert!(ws.join(name).exists());
    }
    stop(&env, child);
}

/// Names a shell makes trouble of, each added by the turn; and bytes that are not UTF-8.
const ODD: [&str; 5] = [
    "semi;colon.txt",
    "new\nline.txt",
    "$(touch pwned).txt",
    "trailing  ",
    "`id`.txt",
];

#[test]
fn odd_names_are_listed_and_undone_and_ignored_folders_stay_out() {
    use std::os::unix::ffi::OsStrExt;
    let env = Env::new();
    let ws = env.ws();
    let bad = std::ffi::OsStr::from_bytes(b"bad\xff\xfe.txt");
    std::fs::write(ws.join(".gitignore"), "build/\n").unwrap();
    std::fs::write(ws.join("semi;old.txt"), "a\nb\n").unwrap();
    std::fs::write(ws.join(bad), "x\n").unwrap();
    let child = serving(&env);
    let before = tree(&ws, None);

    turn(&env, &ws, "n", || {
        for name in ODD {
            std::fs::write(ws.join(name), "odd\n").unwrap();
        }
        std::fs::write(ws.join(bad), "y\n").unwrap();
        std::fs::create_dir(ws.join("build")).unwrap();
        std::fs::write(ws.join("build/out.o"), "ignored\n").unwrap();
    });
    assert!(!ws.join(".git").exists(), "no git repository here");
    let turns = list(&env, &ws);
    let mut want: Vec<(String, String)> = ODD
        .iter()
        .map(|n| ((*n).to_owned(), "added".to_owned()))
        .collect();
    // JSON holds text: a byte that is not UTF-8 shows as U+FFFD.
    want.push((bad.to_string_lossy().into_owned(), "modified".into()));
    want.sort();
    assert_eq!(statuses(&turns[0]), want);
    let shown = env.ok(&["turns", "list", ws.to_str().unwrap()]);
    assert!(shown.contains("A semi;colon.txt"), "{shown}");
    // The whole turn undone, the name that is no UTF-8 included.
    let out = undo(
        &env,
        &ws,
        &[turns[0]["id"].as_u64().unwrap().to_string().as_str()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut expected = before.clone();
    expected.insert("build/out.o".into(), b"ignored\n".to_vec());
    assert_eq!(tree(&ws, None), expected);

    // By name, through no shell: one hunk of one file, another file whole.
    turn(&env, &ws, "n", || {
        std::fs::write(ws.join("semi;old.txt"), "A\nb\nc\n").unwrap();
        std::fs::write(ws.join("$(touch pwned).txt"), "odd\n").unwrap();
    });
    let id = list(&env, &ws)[0]["id"].as_u64().unwrap().to_string();
    let out = undo(&env, &ws, &[&id, "semi;old.txt:3", "$(touch pwned).txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!ws.join("$(touch pwned).txt").exists() && !ws.join("pwned").exists());
    assert_eq!(std::fs::read(ws.join("semi;old.txt")).unwrap(), b"A\nb\n");
    stop(&env, child);
}

#[test]
fn a_turn_of_100000_new_files_lists_a_bounded_number_and_says_so() {
    let env = Env::new();
    let ws = env.ws();
    let child = serving(&env);
    turn(&env, &ws, "many", || {
        // As a shell command makes them: one `touch` run, nothing of Redline's in between.
        let made = Command::new("sh")
            .args([
                "-c",
                "mkdir gen && cd gen && seq 1 100000 | sed 's/^/f/' | xargs touch",
            ])
            .current_dir(&ws)
            .status()
            .unwrap();
        assert!(made.success());
    });
    let out = within(&env, &ws, &["turns", "list", "--json"], "", LIMIT);
    let turns: Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed = turns[0]["files"].as_array().unwrap().len() as u64;
    assert_eq!(listed, 10_000);
    assert_eq!(listed + turns[0]["unlisted"].as_u64().unwrap(), 100_000);
    let shown = env.ok(&["turns", "list", ws.to_str().unwrap()]);
    assert!(
        shown.contains("100000 file(s)")
            && shown.contains("and 90000 more file(s), not listed: a turn lists at most 10000"),
        "{}",
        &shown[..shown.len().min(300)]
    );
    stop(&env, child);
}
