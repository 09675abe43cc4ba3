//! The folders discovery files go in, checked with every folder above them (another user who
//! can move one away could plant a file naming their own port), and `status` listing only the
//! files still there as written. Real folders in temp dirs, and a real second user.

#![cfg(unix)]

use crate::common::{dirs_in, start};
use redline_core::clients;
use redline_core::doctor::{self, Verdict};
use redline_core::runtime::instance::{Instance, World};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A real second user's uid (`useradd`, once); `None` when the tests do not run as root.
fn other_user() -> Option<u32> {
    // SAFETY: geteuid cannot fail and touches no memory.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: needs root to create a second user");
        return None;
    }
    let uid = || {
        let out = std::process::Command::new("id")
            .args(["-u", "redline-test-b"])
            .output()
            .ok()?;
        String::from_utf8(out.stdout)
            .ok()?
            .trim()
            .parse::<u32>()
            .ok()
    };
    if let Some(u) = uid() {
        return Some(u);
    }
    let _ = std::process::Command::new("useradd")
        .args(["--system", "--no-create-home", "--shell", "/bin/false"])
        .arg("redline-test-b")
        .status();
    Some(uid().expect("useradd redline-test-b"))
}

/// As that user: `mkdir -m 777 dir` (through `setpriv`, so the folder is theirs as they would
/// make it), in a folder they can reach.
fn mkdir_as(uid: u32, dir: &Path) {
    let ok = std::process::Command::new("setpriv")
        .args([
            format!("--reuid={uid}"),
            format!("--regid={uid}"),
            "--clear-groups".to_owned(),
        ])
        .args(["mkdir", "-m", "777"])
        .arg(dir)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkdir as uid {uid}");
}

/// Finding 6: another user made `$TMPDIR/gemini` (0777) before Redline started. Before the fix
/// Redline created `gemini/ide` in it and wrote its file there.
#[tokio::test]
async fn a_gemini_folder_made_first_by_another_user_gets_no_file_and_status_and_doctor_say_why() {
    let Some(other) = other_user() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    // The temp dir is private: open the way for the other user, and make `tmp` a `/tmp`.
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
    let dirs = dirs_in(&root);
    std::fs::create_dir(&dirs.tmp).unwrap();
    std::fs::set_permissions(&dirs.tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let gemini = dirs.tmp.join("gemini");
    mkdir_as(other, &gemini);
    let ws = root.join("ws");
    std::fs::create_dir(&ws).unwrap();
    let instance = Instance::start(World::isolated(dirs.clone()))
        .await
        .unwrap();
    instance.workspaces().add(&ws, false).await.unwrap();
    let status = instance.status().await;
    let w = &status.workspaces[0];
    let ide = dirs.discovery(&clients::GEMINI);
    assert!(
        !w.discovery_files.iter().any(|f| f.starts_with(&gemini)),
        "{:?}",
        w.discovery_files
    );
    assert!(!ide.exists(), "nothing was made in another user's folder");
    assert_eq!(w.discovery_failures.len(), 1, "{:?}", w.discovery_failures);
    let why = &w.discovery_failures[0];
    let expected = format!(
        "{} is in {}, which belongs to another user (uid {other})",
        ide.display(),
        gemini.display()
    );
    assert!(why.starts_with(&ide.display().to_string()), "{why}");
    assert!(why.contains(&expected), "{why}");
    // The others were written as ever.
    assert_eq!(w.discovery_files.len(), 4, "{:?}", w.discovery_files);
    // doctor, from a shell with the same environment, says the same.
    crate::doctor::install(&root, "gemini", "@google/gemini-cli", "0.61.0");
    crate::doctor::enable_ide_mode(&root);
    let env = [
        ("PATH", root.join("bin")),
        ("HOME", dirs.home.clone()),
        ("TMPDIR", dirs.tmp.clone()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_string_lossy().into_owned()))
    .collect();
    std::fs::create_dir_all(root.join("fsroot")).unwrap();
    let facts = doctor::Facts {
        dir: ws.clone(),
        env,
        dirs: dirs.clone(),
        // SAFETY: getuid cannot fail and touches no memory.
        uid: Some(unsafe { libc::getuid() }),
        procs: std::sync::Arc::new(redline_core::platform::process::OsProcessTable),
        ancestors: vec![],
        root: root.join("fsroot"),
        redline: Some(status.clone()),
        config: Default::default(),
        case_insensitive: false,
        clis: clients::served().collect(),
    };
    let report = doctor::diagnose(&facts).await;
    let g = report.clis.iter().find(|c| c.id == "gemini").unwrap();
    assert_eq!(g.verdict, Verdict::FileMissing, "{}", g.reason);
    assert!(
        g.notes.iter().any(|n| n.contains(&expected)),
        "{:?}",
        g.notes
    );
    instance.shutdown().await;
}

/// `status` lists a file only while it is there as Redline wrote it: one moved away with its
/// folder (and another planted in its place) or removed is said to be gone, never listed.
#[tokio::test]
async fn status_never_lists_a_file_moved_away_replaced_or_removed() {
    let f = start().await;
    let w = &f.instance.status().await.workspaces[0];
    assert!(w.discovery_gone.is_empty());
    let gemini = w
        .discovery_files
        .iter()
        .find(|p| p.starts_with(f.dirs.discovery(&clients::GEMINI)))
        .unwrap()
        .clone();
    let qwen = w
        .discovery_files
        .iter()
        .find(|p| p.starts_with(f.dirs.discovery(&clients::QWEN)))
        .unwrap()
        .clone();
    // `gemini/ide` moved away, a new one planted with a file of the same name.
    let ide = gemini.parent().unwrap();
    std::fs::rename(ide, ide.with_file_name("moved")).unwrap();
    std::fs::create_dir(ide).unwrap();
    std::fs::write(&gemini, br#"{"port":1,"authToken":"x"}"#).unwrap();
    std::fs::remove_file(&qwen).unwrap();
    let w = &f.instance.status().await.workspaces[0];
    assert!(
        !w.discovery_files.contains(&gemini),
        "{:?}",
        w.discovery_files
    );
    assert!(
        !w.discovery_files.contains(&qwen),
        "{:?}",
        w.discovery_files
    );
    assert!(w.discovery_files.iter().all(|p| p.exists()));
    assert_eq!(
        w.discovery_gone,
        vec![
            format!(
                "{}: replaced by another file since Redline wrote it",
                gemini.display()
            ),
            format!("{}: removed since Redline wrote it", qwen.display()),
        ]
    );
    // Turning the workspace off removes its own files, never the one planted in their place.
    f.instance
        .workspaces()
        .set_enabled(&f.ws, false)
        .await
        .unwrap();
    assert!(gemini.exists(), "another's file was removed");
    f.instance.shutdown().await;
}
