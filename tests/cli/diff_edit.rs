//! `redline diff --edit` end to end: it writes only the file the instance checked, atomically,
//! exactly the accepted bytes, and keeps the user's text when RIGHT changed meanwhile.

use super::local_review::{serving, stop};
use super::Env;
use serde_json::Value;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `redline diff LEFT RIGHT --edit --wait` and, once its `tabs` are open, lets `decide`
/// answer them; if the command ends first (refused), nothing is decided. How it ended.
fn edit_diff(
    env: &Env,
    left: &Path,
    right: &Path,
    tabs: usize,
    decide: impl FnOnce(&[Value]),
) -> Output {
    let mut differ = env
        .cmd(&["diff", left.to_str().unwrap(), right.to_str().unwrap()])
        .args(["--edit", "--wait"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if differ.try_wait().unwrap().is_some() {
            break;
        }
        let list = env.json(&["review", "list", "--json"]);
        let list = list.as_array().unwrap();
        if list.len() == tabs {
            decide(list);
            break;
        }
        assert!(Instant::now() < deadline, "the tabs never opened: {list:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    differ.wait_with_output().unwrap()
}

/// Accepts `review` with exactly `text`.
fn accept(env: &Env, review: &Value, text: &[u8]) {
    let f = env.root.join(format!("tmp/accepted-{}", review["id"]));
    std::fs::write(&f, text).unwrap();
    env.ok(&[
        "review",
        "accept",
        &review["id"].to_string(),
        "--content-file",
        f.to_str().unwrap(),
    ]);
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn left(env: &Env, text: &str) -> PathBuf {
    let p = env.root.join("tmp/left");
    std::fs::write(&p, text).unwrap();
    p
}

/// A container path is the CLI's in a container, never the command's: `redline diff` reads the
/// host's file at that literal path, so that is the path checked, and it is in no workspace.
#[test]
fn a_container_path_is_checked_as_the_host_path_it_is_and_never_written() {
    let env = Env::new();
    let ws = env.ws();
    let ws_str = ws.to_str().unwrap();
    env.ok(&["workspace", "add", ws_str]);
    env.ok(&["container", "enable", ws_str, "--address", "127.0.0.2"]);
    let srv = env.root.join("srv/app");
    env.ok(&["container", "args", ws_str, "--path", srv.to_str().unwrap()]);
    std::fs::create_dir_all(&srv).unwrap();
    let literal = srv.join("x");
    std::fs::write(&literal, "literal\n").unwrap();
    std::fs::write(ws.join("x"), "mapped\n").unwrap();
    let child = env.serve();
    let out = edit_diff(&env, &left(&env, "left\n"), &literal, 1, |list| {
        accept(&env, &list[0], b"mine\n")
    });
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no enabled workspace contains"), "{err}");
    assert_eq!(std::fs::read_to_string(&literal).unwrap(), "literal\n");
    assert_eq!(std::fs::read_to_string(ws.join("x")).unwrap(), "mapped\n");
    stop(&env, child);
}

/// RIGHT is a link into the workspace when checked; retargeted outside while under review, the
/// write still goes to the file checked, and the file outside is never touched.
#[test]
fn a_link_retargeted_while_under_review_cannot_lead_the_write_outside() {
    let env = Env::new();
    let child = serving(&env);
    let ws = env.ws();
    let inside = ws.join("inside.txt");
    std::fs::write(&inside, "same\n").unwrap();
    let outside = env.root.join("outside.txt");
    std::fs::write(&outside, "same\n").unwrap();
    let link = ws.join("link.txt");
    std::os::unix::fs::symlink(&inside, &link).unwrap();
    // A link out of the workspace is refused at once.
    let escape = ws.join("escape.txt");
    std::os::unix::fs::symlink(&outside, &escape).unwrap();
    let refused = env.run(&[
        "diff",
        left(&env, "left\n").to_str().unwrap(),
        escape.to_str().unwrap(),
        "--edit",
        "--wait",
    ]);
    assert_eq!(refused.status.code(), Some(2));

    let out = edit_diff(&env, &left(&env, "left\n"), &link, 1, |list| {
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        accept(&env, &list[0], b"mine\n");
    });
    let (stdout, err) = text(&out);
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "same\n");
    assert_eq!(out.status.code(), Some(0), "{stdout}{err}");
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), "mine\n");
    assert!(
        stdout.contains(&format!("wrote {}", inside.display())),
        "{stdout}"
    );
    stop(&env, child);
}

/// The accepted text replaces RIGHT whole (a new inode renamed over it, RIGHT's mode kept): a
/// reader sees the old text or the new one, never a truncated file.
#[test]
fn the_write_is_a_rename_over_right_keeping_its_mode() {
    let env = Env::new();
    let child = serving(&env);
    let right = env.ws().join("big.txt");
    let old = "old line\n".repeat(256 * 1024);
    std::fs::write(&right, &old).unwrap();
    std::fs::set_permissions(&right, std::fs::Permissions::from_mode(0o640)).unwrap();
    let before = std::fs::metadata(&right).unwrap();
    let new = "new line\n".repeat(256 * 1024);
    let reading = std::sync::atomic::AtomicBool::new(true);
    let (out, seen) = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut seen = Vec::new();
            while reading.load(std::sync::atomic::Ordering::Relaxed) {
                let now = std::fs::read(&right).unwrap();
                if now != old.as_bytes() && now != new.as_bytes() {
                    seen.push(now.len());
                }
            }
            seen
        });
        let out = edit_diff(&env, &left(&env, "left\n"), &right, 1, |list| {
            accept(&env, &list[0], new.as_bytes())
        });
        reading.store(false, std::sync::atomic::Ordering::Relaxed);
        (out, reader.join().unwrap())
    });
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert_eq!(
        seen,
        Vec::<usize>::new(),
        "partial files seen (their sizes)"
    );
    assert_eq!(std::fs::read(&right).unwrap(), new.as_bytes());
    let after = std::fs::metadata(&right).unwrap();
    assert_ne!(
        after.ino(),
        before.ino(),
        "replaced, not rewritten in place"
    );
    assert_eq!(after.mode() & 0o7777, 0o640);
    let mut names: Vec<_> = std::fs::read_dir(env.ws())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["big.txt", "sub"], "no temp file left behind");
    stop(&env, child);
}

/// RIGHT changed while under review: it is left as it is now, and the accepted text goes to a
/// file beside it that the command names (never over an existing one), exit 2.
#[test]
fn right_changed_meanwhile_keeps_the_accepted_text_beside_it() {
    let env = Env::new();
    let child = serving(&env);
    let right = env.ws().join("notes.txt");
    std::fs::write(&right, "read\n").unwrap();
    let taken = env.ws().join("notes.txt.redline-accepted");
    std::fs::write(&taken, "someone else's\n").unwrap();
    let out = edit_diff(&env, &left(&env, "left\n"), &right, 1, |list| {
        std::fs::write(&right, "changed meanwhile\n").unwrap();
        accept(&env, &list[0], b"mine\n");
    });
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        std::fs::read_to_string(&right).unwrap(),
        "changed meanwhile\n"
    );
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "someone else's\n");
    let kept = env.ws().join("notes.txt.redline-accepted-2");
    assert!(
        err.contains("changed while it was under review") && err.contains(kept.to_str().unwrap()),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine\n");
    stop(&env, child);
}

/// `git difftool -d`'s right tree holds links into the work tree: the accepted text goes to the
/// work tree's file, and the link stays a link.
#[test]
fn a_dir_diff_right_linked_into_the_work_tree_writes_the_work_tree_file() {
    let env = Env::new();
    let child = serving(&env);
    let work = env.ws().join("src/a.rs");
    std::fs::create_dir_all(work.parent().unwrap()).unwrap();
    std::fs::write(&work, "fn a() {}\n").unwrap();
    let (l, r) = (env.root.join("tmp/dd/left"), env.root.join("tmp/dd/right"));
    std::fs::create_dir_all(l.join("src")).unwrap();
    std::fs::create_dir_all(r.join("src")).unwrap();
    std::fs::write(l.join("src/a.rs"), "fn old() {}\n").unwrap();
    std::os::unix::fs::symlink(&work, r.join("src/a.rs")).unwrap();
    let out = edit_diff(&env, &l, &r, 1, |list| {
        accept(&env, &list[0], b"fn mine() {}\n")
    });
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert_eq!(std::fs::read_to_string(&work).unwrap(), "fn mine() {}\n");
    let link = std::fs::symlink_metadata(r.join("src/a.rs")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is left a link");
    stop(&env, child);
}

/// An accept of RIGHT as it is never rewrites it, whatever its bytes (CRLF, a BOM, no final
/// newline); an edited accept writes exactly the accepted bytes.
#[test]
fn an_unedited_accept_leaves_right_untouched_and_an_edit_is_written_byte_for_byte() {
    let env = Env::new();
    let child = serving(&env);
    let right = env.ws().join("win.txt");
    let bytes = b"\xef\xbb\xbfone\r\ntwo\r\nno newline";
    std::fs::write(&right, bytes).unwrap();
    let before = std::fs::metadata(&right).unwrap();
    let out = edit_diff(&env, &left(&env, "one\ntwo\n"), &right, 1, |list| {
        env.ok(&["review", "accept", &list[0]["id"].to_string()]);
    });
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert!(!text(&out).0.contains("wrote"), "{:?}", text(&out));
    assert_eq!(std::fs::read(&right).unwrap(), bytes);
    let after = std::fs::metadata(&right).unwrap();
    assert_eq!(
        (after.ino(), after.mtime(), after.mtime_nsec()),
        (before.ino(), before.mtime(), before.mtime_nsec())
    );

    let edited = b"\xef\xbb\xbfone\r\ntwo, edited\r\nstill no newline";
    let out = edit_diff(&env, &left(&env, "one\ntwo\n"), &right, 1, |list| {
        accept(&env, &list[0], edited)
    });
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert_eq!(std::fs::read(&right).unwrap(), edited);
    stop(&env, child);
}
