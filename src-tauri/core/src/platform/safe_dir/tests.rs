//! Real folders in a temp dir, some given to a real second user (`redline-test-b`, made by
//! `useradd` when the tests run as root).

use super::*;
use crate::platform::runtime_dir::tests::other_user;
use std::os::unix::fs::PermissionsExt;

fn mkdir(p: &Path, mode: u32) {
    std::fs::create_dir_all(p).unwrap();
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn give(p: &Path, uid: u32) {
    std::os::unix::fs::lchown(p, Some(uid), None).unwrap();
}

/// A shared temp folder like `/tmp`: root's (or ours), sticky, open to all.
fn shared(tmp: &Path) -> PathBuf {
    let dir = tmp.join("shared");
    mkdir(&dir, 0o1777);
    dir
}

#[test]
fn creates_the_missing_folders_0700_beneath_a_sticky_shared_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let ide = shared(tmp.path()).join("gemini/ide");
    prepare(&ide).unwrap();
    for dir in [ide.parent().unwrap(), ide.as_path()] {
        let meta = std::fs::symlink_metadata(dir).unwrap();
        assert_eq!(meta.mode() & 0o7777, 0o700, "{}", dir.display());
    }
    // Taken as it is the second time.
    prepare(&ide).unwrap();
}

/// Finding 6: another user made `$TMPDIR/gemini` first, open to all; they could move `ide`
/// away once Redline wrote there and plant their own.
#[test]
fn a_parent_made_first_by_another_user_is_refused_and_nothing_is_created_in_it() {
    let Some(other) = other_user() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let gemini = shared(tmp.path()).join("gemini");
    mkdir(&gemini, 0o777);
    give(&gemini, other);
    let ide = gemini.join("ide");
    let refused = prepare(&ide).unwrap_err();
    assert_eq!(
        refused,
        Unsafe {
            folder: ide.clone(),
            at: gemini.clone(),
            problem: Problem::OtherOwner { uid: other },
        }
    );
    assert!(!ide.exists(), "a folder was created in another user's");
    assert_eq!(
        refused.to_string(),
        format!(
            "{} is in {}, which belongs to another user (uid {other}): another user could swap \
             what is there, so nothing private is put there",
            ide.display(),
            gemini.display()
        )
    );
    // Closed to others, it is still theirs: they may rename what is in it.
    std::fs::set_permissions(&gemini, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        prepare(&ide).unwrap_err().problem,
        Problem::OtherOwner { uid: other }
    );
    // And an `ide` already there, ours, does not make it safe.
    std::fs::create_dir(&ide).unwrap();
    assert_eq!(prepare(&ide).unwrap_err().at, gemini);
    assert_eq!(check_above(&ide.join("x")).unwrap_err().at, gemini);
}

#[test]
fn a_parent_open_to_writes_and_not_sticky_is_refused_even_if_ours() {
    let tmp = tempfile::tempdir().unwrap();
    let open = tmp.path().join("open");
    mkdir(&open, 0o777);
    let ide = open.join("gemini/ide");
    let refused = prepare(&ide).unwrap_err();
    assert_eq!(
        (refused.at, refused.problem),
        (open.clone(), Problem::Writable { mode: 0o777 })
    );
    assert!(!open.join("gemini").exists());
    mkdir(&open, 0o775);
    assert_eq!(
        prepare(&ide).unwrap_err().problem,
        Problem::Writable { mode: 0o775 }
    );
    mkdir(&open, 0o755);
    prepare(&ide).unwrap();
    // The folder itself, open to writes by others, is refused even if sticky.
    mkdir(&ide, 0o1777);
    let refused = prepare(&ide).unwrap_err();
    assert_eq!(
        (refused.at, refused.problem),
        (ide, Problem::Writable { mode: 0o1777 })
    );
}

#[test]
fn a_sticky_folder_of_another_user_is_refused() {
    let Some(other) = other_user() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let theirs = tmp.path().join("theirs");
    mkdir(&theirs, 0o1777);
    give(&theirs, other);
    let refused = prepare(&theirs.join("gemini/ide")).unwrap_err();
    assert_eq!(
        (refused.at, refused.problem),
        (theirs, Problem::OtherOwner { uid: other })
    );
}

#[test]
fn links_are_followed_and_their_folders_and_owners_checked() {
    let Some(other) = other_user() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let shared = shared(tmp.path());
    let real = tmp.path().join("real");
    mkdir(&real, 0o700);
    // `~/.claude -> real`: a link of ours in a safe folder, to a safe folder.
    let home = tmp.path().join("home");
    mkdir(&home, 0o700);
    std::os::unix::fs::symlink(&real, home.join(".claude")).unwrap();
    prepare(&home.join(".claude/ide")).unwrap();
    assert!(real.join("ide").is_dir());
    // Another user's link in a sticky folder: they can point it elsewhere at any time.
    let link = shared.join("gemini");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    give(&link, other);
    let refused = prepare(&link.join("ide")).unwrap_err();
    assert_eq!(
        (refused.at, refused.problem),
        (link, Problem::OtherUsersLink { uid: other })
    );
    // A link of ours to a folder in another user's folder: that folder is checked.
    let theirs = tmp.path().join("theirs");
    mkdir(&theirs.join("sub"), 0o755);
    give(&theirs, other);
    let relative = home.join(".qwen");
    std::os::unix::fs::symlink("../theirs/sub", &relative).unwrap();
    let refused = prepare(&relative.join("ide")).unwrap_err();
    assert_eq!(
        (refused.at, refused.problem),
        (theirs, Problem::OtherOwner { uid: other })
    );
}

#[test]
fn a_file_on_the_way_is_not_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("file");
    std::fs::write(&file, b"").unwrap();
    let refused = prepare(&file.join("ide")).unwrap_err();
    assert_eq!((refused.at, refused.problem), (file, Problem::NotDirectory));
}
