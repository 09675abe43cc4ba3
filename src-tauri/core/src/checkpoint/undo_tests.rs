//! Undo against the real git and real files: whole files and hunks back byte for byte with their
//! modes, and the hostile cases refused with nothing written.

use super::super::{Checkpoint, CheckpointError, Pick, Store, Undo};
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

struct Ws {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    store: Store,
}

fn workspace(files: &[(&str, &[u8])]) -> Ws {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    fs::create_dir_all(&root).unwrap();
    for (name, bytes) in files {
        write(&root, name, bytes);
    }
    let store = Store::open(Path::new("git"), &tmp.path().join("store"), &root).unwrap();
    Ws {
        _tmp: tmp,
        root,
        store,
    }
}

fn write(root: &Path, name: &str, bytes: &[u8]) {
    let path = root.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

fn chmod(root: &Path, name: &str, mode: u32) {
    fs::set_permissions(root.join(name), fs::Permissions::from_mode(mode)).unwrap();
}

/// The checkpoints either side of `turn`'s changes.
fn turn(ws: &mut Ws, change: impl FnOnce(&Path)) -> (Checkpoint, Checkpoint) {
    let before = ws.store.checkpoint().unwrap();
    change(&ws.root);
    (before, ws.store.checkpoint().unwrap())
}

/// Every file (bytes and exec bit) and link (target) under `dir`.
fn files(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, bool)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = fs::symlink_metadata(&p).unwrap();
            let rel = p.strip_prefix(dir).unwrap().to_owned();
            if meta.is_symlink() {
                let target = fs::read_link(&p).unwrap().into_os_string().into_vec();
                out.insert(rel, (target, false));
            } else if meta.is_dir() {
                stack.push(p);
            } else if meta.is_file() {
                let exec = meta.permissions().mode() & 0o100 != 0;
                out.insert(rel, (fs::read(&p).unwrap(), exec));
            }
        }
    }
    out
}

fn whole(path: &str) -> Undo {
    Undo {
        path: PathBuf::from(path),
        pick: Pick::Whole,
    }
}

#[test]
fn a_whole_turn_undone_is_the_workspace_as_it_was() {
    let mut ws = workspace(&[
        ("crlf.txt", b"\xEF\xBB\xBFone\r\ntwo\r\nthree"),
        ("gone/deep/old.sh", b"echo old\n"),
        ("run.sh", b"echo\n"),
        (
            "old_name.rs",
            b"fn a() {}\nfn b() {}\nfn c() {}\nfn d() {}\n",
        ),
    ]);
    chmod(&ws.root, "gone/deep/old.sh", 0o755);
    let was = files(&ws.root);
    let (before, after) = turn(&mut ws, |root| {
        write(root, "crlf.txt", b"one\r\ntwo\nthree\n");
        fs::remove_dir_all(root.join("gone")).unwrap();
        chmod(root, "run.sh", 0o755);
        fs::rename(root.join("old_name.rs"), root.join("new_name.rs")).unwrap();
        write(root, "new/made.txt", b"made by a shell\n");
    });
    assert_ne!(files(&ws.root), was);
    let mut done = ws.store.undo_all(&before, &after).unwrap();
    done.sort();
    assert_eq!(done.len(), 6, "{done:?}");
    assert_eq!(files(&ws.root), was);
    // Undone again: nothing is what the turn's end shows any more.
    let again = ws.store.undo_all(&before, &after).unwrap_err();
    assert!(matches!(again, CheckpointError::Changed(_)), "{again}");
}

#[test]
fn one_hunk_of_a_crlf_file_gets_back_exactly_its_bytes() {
    let old = b"\xEF\xBB\xBFa\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng";
    let mut ws = workspace(&[("f.txt", old)]);
    chmod(&ws.root, "f.txt", 0o640);
    let (before, after) = turn(&mut ws, |root| {
        write(
            root,
            "f.txt",
            b"\xEF\xBB\xBFa\r\nB\r\nc\r\nd\r\ne\r\nF\nG\n",
        );
        chmod(root, "f.txt", 0o640);
    });
    let hunks = ws.store.hunks(&before, &after, Path::new("f.txt")).unwrap();
    assert_eq!(hunks.len(), 2, "{hunks:?}");
    let last = hunks.iter().find(|h| h.covers(7)).unwrap();
    let undo = Undo {
        path: PathBuf::from("f.txt"),
        pick: Pick::Hunks(vec![*last]),
    };
    ws.store.undo(&before, &after, &[undo]).unwrap();
    let got = fs::read(ws.root.join("f.txt")).unwrap();
    assert_eq!(got, b"\xEF\xBB\xBFa\r\nB\r\nc\r\nd\r\ne\r\nf\r\ng");
    let mode = fs::metadata(ws.root.join("f.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640, "the file's mode is kept");
    // The first hunk still applies against a file that is no longer the turn's end: refused.
    let first = Undo {
        path: PathBuf::from("f.txt"),
        pick: Pick::Hunks(vec![hunks[0]]),
    };
    let err = ws.store.undo(&before, &after, &[first]).unwrap_err();
    assert!(matches!(err, CheckpointError::Changed(_)), "{err}");
}

#[test]
fn a_file_changed_since_the_turn_refuses_the_whole_set_and_writes_nothing() {
    let mut ws = workspace(&[("a.txt", b"a\n"), ("b.txt", b"b\n"), ("x.sh", b"x\n")]);
    let (before, after) = turn(&mut ws, |root| {
        write(root, "a.txt", b"A\n");
        write(root, "b.txt", b"B\n");
        write(root, "x.sh", b"X\n");
    });
    write(&ws.root, "b.txt", b"B, edited by the user since\n");
    chmod(&ws.root, "x.sh", 0o755);
    let now = files(&ws.root);
    for set in [
        vec![whole("a.txt"), whole("b.txt")],
        vec![whole("a.txt"), whole("x.sh")],
    ] {
        let err = ws.store.undo(&before, &after, &set).unwrap_err();
        let named = set[1].path.clone();
        assert!(
            matches!(&err, CheckpointError::Changed(p) if *p == named),
            "{err}"
        );
        assert!(err.to_string().contains(named.to_str().unwrap()), "{err}");
        assert_eq!(files(&ws.root), now, "something was written");
    }
}

#[test]
fn a_link_the_turn_made_is_never_written_through() {
    let mut ws = workspace(&[("a.txt", b"a\n"), ("sub/f.txt", b"inside\n")]);
    let outside = ws.root.parent().unwrap().join("outside");
    write(&outside, "f.txt", b"SECRET\n");
    let (before, after) = turn(&mut ws, |root| {
        fs::remove_file(root.join("a.txt")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("a.txt")).unwrap();
        fs::remove_dir_all(root.join("sub")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("sub")).unwrap();
    });
    let passwd = fs::read("/etc/passwd").ok();
    let err = ws
        .store
        .undo(&before, &after, &[whole("a.txt")])
        .unwrap_err();
    assert!(matches!(err, CheckpointError::NotAFile(..)), "{err}");
    let err = ws
        .store
        .undo(&before, &after, &[whole("sub/f.txt")])
        .unwrap_err();
    assert!(matches!(err, CheckpointError::NotBeneath(_)), "{err}");
    assert!(ws.store.undo_all(&before, &after).is_err());
    assert_eq!(fs::read(outside.join("f.txt")).unwrap(), b"SECRET\n");
    assert_eq!(fs::read("/etc/passwd").ok(), passwd);
    assert!(fs::symlink_metadata(ws.root.join("a.txt"))
        .unwrap()
        .is_symlink());
}

#[test]
fn a_fifo_is_never_opened() {
    let mut ws = workspace(&[("f.txt", b"f\n"), ("g.txt", b"g\n")]);
    let (before, after) = turn(&mut ws, |root| {
        fs::remove_file(root.join("f.txt")).unwrap();
        let c = std::ffi::CString::new(root.join("f.txt").into_os_string().into_vec()).unwrap();
        // SAFETY: a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        write(root, "g.txt", b"G\n");
    });
    let (tx, rx) = std::sync::mpsc::channel();
    let (store, b, a) = (ws.store, before, after);
    std::thread::spawn(move || {
        let got = store.undo(&b, &a, &[whole("g.txt"), whole("f.txt")]);
        tx.send(got.map_err(|e| e.to_string())).unwrap();
    });
    let got = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("undo blocked: it opened the FIFO");
    let err = got.unwrap_err();
    assert!(err.contains("FIFO") && err.contains("f.txt"), "{err}");
    assert_eq!(fs::read(ws.root.join("g.txt")).unwrap(), b"G\n");
}

#[test]
fn a_file_past_the_bound_is_refused_unread() {
    let mut ws = workspace(&[("big.txt", b"small\n"), ("huge.bin", b"tiny\n")]);
    ws.store.set_file_limit(1024);
    let (before, after) = turn(&mut ws, |root| {
        write(root, "big.txt", &b"x\n".repeat(2048));
        write(root, "huge.bin", b"still tiny\n");
    });
    let err = ws
        .store
        .undo(&before, &after, &[whole("big.txt")])
        .unwrap_err();
    assert!(
        matches!(err, CheckpointError::TooLarge { size: 4096, .. }),
        "{err}"
    );
    // Grown to 3 GiB (sparse) since: refused by its size, never read.
    let f = fs::OpenOptions::new()
        .write(true)
        .open(ws.root.join("huge.bin"))
        .unwrap();
    f.set_len(3 << 30).unwrap();
    ws.store.set_file_limit(super::super::FILE_LIMIT);
    let err = ws
        .store
        .undo(&before, &after, &[whole("huge.bin")])
        .unwrap_err();
    assert!(matches!(err, CheckpointError::TooLarge { .. }), "{err}");
}

#[test]
fn names_a_shell_would_split_are_undone_whole_and_by_hunk() {
    use std::os::unix::ffi::OsStrExt;
    let names: Vec<PathBuf> = [
        &b"semi;colon $(touch pwned).rs"[..],
        b"new\nline.txt",
        b"bad-\xff\xfe.txt",
    ]
    .iter()
    .map(|n| PathBuf::from(std::ffi::OsStr::from_bytes(n)))
    .collect();
    let mut ws = workspace(&[]);
    for n in &names {
        fs::write(ws.root.join(n), "one\ntwo\nthree\nfour\nfive\n").unwrap();
    }
    let was = files(&ws.root);
    let (before, after) = turn(&mut ws, |root| {
        for n in &names {
            fs::write(root.join(n), "ONE\ntwo\nthree\nfour\nFIVE\n").unwrap();
        }
    });
    for (i, n) in names.iter().enumerate() {
        let pick = match i {
            0 => Pick::Whole,
            _ => Pick::Hunks(ws.store.hunks(&before, &after, n).unwrap()),
        };
        let path = ws.root.join(n); // absolute, inside the workspace
        ws.store
            .undo(&before, &after, &[Undo { path, pick }])
            .unwrap();
    }
    assert_eq!(files(&ws.root), was);
    assert!(!ws.root.join("pwned").exists());
}

#[test]
fn what_undo_cannot_take_is_refused() {
    let mut ws = workspace(&[("a.txt", b"a\nb\n"), ("bin", b"\x00\x01")]);
    let (before, after) = turn(&mut ws, |root| {
        write(root, "a.txt", b"a\nB\n");
        write(root, "bin", b"\x00\x02");
        write(root, "added.txt", b"new\n");
    });
    let undo = |path: &str, pick: Pick| {
        let path = PathBuf::from(path);
        ws.store
            .undo(&before, &after, &[Undo { path, pick }])
            .unwrap_err()
    };
    let mut foreign = ws.store.hunks(&before, &after, Path::new("a.txt")).unwrap();
    foreign[0].after.first += 5;
    let err = undo("a.txt", Pick::Hunks(foreign));
    assert!(matches!(err, CheckpointError::NoSuchHunk(_)), "{err}");
    let err = undo("bin", Pick::Hunks(vec![]));
    assert!(matches!(err, CheckpointError::NotText(_)), "{err}");
    let err = undo("added.txt", Pick::Hunks(vec![]));
    assert!(matches!(err, CheckpointError::NotBothSides(_)), "{err}");
    for outside in ["../a.txt", "/etc/passwd", ""] {
        let err = undo(outside, Pick::Whole);
        assert!(matches!(err, CheckpointError::NotInWorkspace(_)), "{err}");
    }
}
