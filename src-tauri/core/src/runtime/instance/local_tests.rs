//! The instance's own bounds on local reviews, whatever process sends them.

use super::*;
use crate::platform::dirs::Dirs;
use crate::runtime::instance::{Instance, World};
use std::sync::Arc;

async fn instance(root: &std::path::Path) -> Arc<Instance> {
    let dirs = Dirs::under(root);
    Instance::start(World {
        pid: 4242,
        ..World::isolated(dirs)
    })
    .await
    .unwrap()
}

fn file(path: PathBuf, right: &str) -> DiffFile {
    DiffFile {
        path,
        left: None,
        right: Some(right.into()),
    }
}

/// What the command checks, the instance checks again: any local process may send requests.
#[tokio::test]
async fn the_instance_bounds_what_any_local_request_opens() {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let ws = root.join("ws");
    std::fs::create_dir(&ws).unwrap();
    let i = instance(&root).await;
    i.workspaces().add(&ws, false).await.unwrap();
    let propose = |file: PathBuf, content: String| Propose {
        file,
        content,
        wait: false,
    };
    let big = "x".repeat(MAX_PROPOSAL_BYTES + 1);
    let err = i.propose_local(propose(ws.join("a"), big), None).await;
    assert_eq!(err.err().unwrap().code(), crate::error::FaultCode::TooLarge);
    let err = i.propose_local(propose(root.join("a"), "x".into()), None);
    assert_eq!(
        err.await.err().unwrap().code(),
        crate::error::FaultCode::NotInWorkspace
    );
    let escape = ws.join("../a");
    let err = i.propose_local(propose(escape, "x".into()), None);
    assert_eq!(
        err.await.err().unwrap().code(),
        crate::error::FaultCode::NotInWorkspace
    );

    let diff = |files: Vec<DiffFile>, edit: bool| Diff {
        shown_as: None,
        root: root.clone(),
        files,
        edit,
        wait: false,
    };
    let many = (0..=MAX_DIFF_FILES)
        .map(|n| file(root.join(n.to_string()), "x"))
        .collect();
    assert_eq!(
        i.diff_local(diff(many, false), None)
            .await
            .err()
            .unwrap()
            .code(),
        crate::error::FaultCode::Busy
    );
    let half = "x".repeat(MAX_DIFF_BYTES / 2 + 1);
    let heavy = vec![file(root.join("a"), &half), file(root.join("b"), &half)];
    let err = i.diff_local(diff(heavy, false), None).await;
    assert_eq!(err.err().unwrap().code(), crate::error::FaultCode::TooLarge);
    let outside = vec![file(root.join("a"), "x")];
    let err = i.diff_local(diff(outside, true), None).await;
    assert_eq!(
        err.err().unwrap().code(),
        crate::error::FaultCode::NotInWorkspace
    );
    assert!(i.reviews().list().is_empty(), "nothing refused was opened");

    // Accepted: read-only unless edited inside a workspace, removed files always.
    let opened = i
        .diff_local(
            diff(
                vec![
                    file(ws.join("kept"), "x"),
                    DiffFile {
                        path: ws.join("gone"),
                        left: Some("y".into()),
                        right: None,
                    },
                ],
                true,
            ),
            None,
        )
        .await
        .unwrap();
    let read_only: Vec<_> = opened
        .ids()
        .iter()
        .map(|id| i.reviews().review(*id).unwrap().read_only.clone())
        .collect();
    assert_eq!(read_only, [None, Some(ReadOnly::DiffRemoved)]);
    assert_eq!(
        i.reviews()
            .review(opened.ids()[1])
            .unwrap()
            .detail()
            .read_only
            .as_deref(),
        Some("This file is not in RIGHT: there is nothing to edit.")
    );
    assert_eq!(i.reviews().dismiss_local(opened.ids()), 2);
    i.shutdown().await;
}

/// `git difftool -d`'s right tree holds links into the work tree: "changed on disk?" reads the
/// file the link leads to, editable or not, instead of refusing the link and saying "changed".
#[cfg(unix)]
#[tokio::test]
async fn the_disk_check_of_a_dir_diff_follows_its_links_into_the_work_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    let ws = root.join("ws");
    std::fs::create_dir_all(ws.join("src")).unwrap();
    let work = ws.join("src/a.rs");
    std::fs::write(&work, "fn a() {}\n").unwrap();
    let right = root.join("difftool/right");
    std::fs::create_dir_all(right.join("src")).unwrap();
    std::os::unix::fs::symlink(&work, right.join("src/a.rs")).unwrap();
    let i = instance(&root).await;
    i.workspaces().add(&ws, false).await.unwrap();
    let mut ids = Vec::new();
    for edit in [true, false] {
        let d = Diff {
            shown_as: None,
            root: right.clone(),
            files: vec![DiffFile {
                path: right.join("src/a.rs"),
                left: Some("fn old() {}\n".into()),
                right: Some("fn a() {}\n".into()),
            }],
            edit,
            wait: false,
        };
        ids.extend(i.diff_local(d, None).await.unwrap().ids().to_vec());
    }
    for id in &ids {
        assert!(
            !i.reviews().disk_changed(*id).unwrap(),
            "unchanged, review {id}"
        );
    }
    std::fs::write(&work, "fn b() {}\n").unwrap();
    for id in &ids {
        assert!(
            i.reviews().disk_changed(*id).unwrap(),
            "changed, review {id}"
        );
    }
    i.shutdown().await;
}
