//! The runtime dir, where the control socket lives, is this user's own and private: checked
//! before a command sends anything through it, created 0700 (or refused) before a server listens.
//
// Without XDG_RUNTIME_DIR it is `$TMPDIR/redline-<uid>`, a name any local user can create first.
// A squatter's directory would carry our requests (open files, selections) to their socket and
// their answers (text `redline diff --edit` writes) back to us.

use crate::error::{DirProblem, Error, Result};
use crate::platform::own_user::own_uid;
use crate::platform::PlatformError;
use std::fs::Metadata;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// What is wrong with `meta` (from lstat) as the runtime dir of user `own`, if anything.
fn problem(meta: &Metadata, own: u32) -> Option<DirProblem> {
    if meta.file_type().is_symlink() {
        Some(DirProblem::Symlink)
    } else if !meta.is_dir() {
        Some(DirProblem::NotDirectory)
    } else if meta.uid() != own {
        Some(DirProblem::OtherOwner { uid: meta.uid() })
    } else if meta.mode() & 0o077 != 0 {
        Some(DirProblem::OpenMode {
            mode: meta.mode() & 0o7777,
        })
    } else {
        None
    }
}

/// Every folder above `dir` is the user's or root's and closed to others (a sticky `/tmp`
/// aside): otherwise another user could move the runtime dir away and put theirs in its place.
fn check_above(dir: &Path) -> Result<()> {
    use crate::platform::safe_dir::Problem;
    let Err(e) = crate::platform::safe_dir::check_above(dir) else {
        return Ok(());
    };
    let problem = match e.problem {
        Problem::OtherOwner { uid } | Problem::OtherUsersLink { uid } => {
            DirProblem::OtherOwner { uid }
        }
        Problem::Writable { mode } => DirProblem::WritableAbove { mode },
        Problem::NotDirectory => DirProblem::NotDirectory,
        Problem::TooManyLinks | Problem::Unreadable { .. } => {
            return Err(Error::io(&e.at, std::io::Error::other(e.to_string())))
        }
    };
    Err(PlatformError::RuntimeDir {
        path: e.at,
        problem,
    }
    .into())
}

fn refuse(dir: &Path, problem: DirProblem) -> PlatformError {
    PlatformError::RuntimeDir {
        path: dir.to_path_buf(),
        problem,
    }
}

/// A command's check before it connects: `dir` is a directory (not a symlink to one), ours, and
/// closed to everyone else. Absent, no instance can be running (`Error::NotRunning`).
pub fn check(dir: &Path) -> Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) => match problem(&meta, own_uid()) {
            None => check_above(dir),
            Some(p) => Err(refuse(dir, p).into()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::NotRunning),
        Err(e) => Err(Error::io(dir, e)),
    }
}

/// A server's preparation before it listens: creates `dir` 0700, or takes the existing one only if
/// it is ours. Ours but open to others is tightened to 0700 (and said in the log); anyone else's
/// is refused and left exactly as it is.
pub fn prepare(dir: &Path) -> Result<()> {
    if let Some(parent) = dir.parent() {
        check_above(dir)?;
        crate::platform::private_file::ensure_dir(parent)?;
    }
    check_above(dir)?;
    // mkdir either creates it (then it is ours) or fails: an existing one is never taken as is.
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(Error::io(dir, e)),
    }
    let meta = std::fs::symlink_metadata(dir).map_err(|e| Error::io(dir, e))?;
    match problem(&meta, own_uid()) {
        None => Ok(()),
        Some(DirProblem::OpenMode { mode }) => {
            tighten(dir)?;
            tracing::warn!(
                "{} was open to other users (mode {mode:o}): tightened to 700",
                dir.display()
            );
            Ok(())
        }
        Some(p) => Err(refuse(dir, p).into()),
    }
}

/// chmod 700 through a descriptor opened without following a link, re-checked as ours: the path
/// may have changed since it was looked at, and another user's directory is never touched.
fn tighten(dir: &Path) -> Result<()> {
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(dir);
    let handle = match opened {
        Ok(h) => h,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(refuse(dir, DirProblem::Symlink).into())
        }
        Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => {
            return Err(refuse(dir, DirProblem::NotDirectory).into())
        }
        Err(e) => return Err(Error::io(dir, e)),
    };
    let meta = handle.metadata().map_err(|e| Error::io(dir, e))?;
    if meta.uid() != own_uid() {
        return Err(refuse(dir, DirProblem::OtherOwner { uid: meta.uid() }).into());
    }
    handle
        .set_permissions(std::fs::Permissions::from_mode(0o700))
        .map_err(|e| Error::io(dir, e))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::PathBuf;

    fn mode(p: &Path) -> u32 {
        std::fs::symlink_metadata(p).unwrap().mode() & 0o7777
    }

    fn refused(r: Result<()>) -> (PathBuf, DirProblem) {
        match r {
            Err(Error::Platform(PlatformError::RuntimeDir { path, problem })) => (path, problem),
            other => panic!("expected a refused runtime dir, got {other:?}"),
        }
    }

    /// A real second user's uid (created once, idempotently); `None` when not root.
    pub(crate) fn other_user() -> Option<u32> {
        if own_uid() != 0 {
            eprintln!("skipped: needs root to create a second user and chown to it");
            return None;
        }
        let name = "redline-test-b";
        let uid = |name: &str| {
            let out = std::process::Command::new("id")
                .args(["-u", name])
                .output()
                .ok()?;
            String::from_utf8(out.stdout)
                .ok()?
                .trim()
                .parse::<u32>()
                .ok()
        };
        if let Some(u) = uid(name) {
            return Some(u);
        }
        // Another test may create it at the same moment: whoever wins, it then exists.
        let _ = std::process::Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/bin/false",
                name,
            ])
            .status();
        Some(uid(name).expect("useradd redline-test-b"))
    }

    #[test]
    fn an_absent_dir_means_no_instance_and_the_server_creates_it_private() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("redline-1000");
        assert!(matches!(check(&dir), Err(Error::NotRunning)));
        prepare(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        check(&dir).unwrap();
        // A second server start takes its own dir as it is.
        prepare(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
    }

    #[test]
    fn an_own_dir_open_to_others_is_refused_by_commands_and_tightened_by_the_server() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (path, problem) = refused(check(&dir));
        assert_eq!(path, dir);
        assert_eq!(problem, DirProblem::OpenMode { mode: 0o755 });
        let message = refuse(&dir, problem).to_string();
        assert!(
            message.starts_with(&format!(
                "{} is open to other users (mode 755",
                dir.display()
            )),
            "{message}"
        );
        prepare(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        check(&dir).unwrap();
    }

    #[test]
    fn a_symlink_is_refused_even_to_an_own_private_dir_and_its_target_is_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("elsewhere");
        std::fs::create_dir(&target).unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755)).unwrap();
        let dir = tmp.path().join("run");
        std::os::unix::fs::symlink(&target, &dir).unwrap();
        assert_eq!(refused(check(&dir)).1, DirProblem::Symlink);
        assert_eq!(refused(prepare(&dir)).1, DirProblem::Symlink);
        assert_eq!(mode(&target), 0o755, "the link's target was changed");
        let file = tmp.path().join("file");
        std::fs::write(&file, b"").unwrap();
        assert_eq!(refused(check(&file)).1, DirProblem::NotDirectory);
        assert_eq!(refused(prepare(&file)).1, DirProblem::NotDirectory);
    }

    /// `$TMPDIR` itself another user's (or open to all and not sticky): the runtime dir in it,
    /// ours as it may be, could be moved away and replaced. Refused, naming the folder above.
    #[test]
    fn a_folder_above_that_another_user_can_write_to_is_refused() {
        let Some(other) = other_user() else { return };
        let tmp = tempfile::tempdir().unwrap();
        let above = tmp.path().join("tmp");
        std::fs::create_dir(&above).unwrap();
        std::fs::set_permissions(&above, std::fs::Permissions::from_mode(0o777)).unwrap();
        let dir = above.join("redline-0");
        let (path, problem) = refused(prepare(&dir));
        assert_eq!(
            (path, problem),
            (above.clone(), DirProblem::WritableAbove { mode: 0o777 })
        );
        assert!(!dir.exists(), "made in a folder others can write to");
        std::fs::set_permissions(&above, std::fs::Permissions::from_mode(0o1777)).unwrap();
        prepare(&dir).unwrap();
        check(&dir).unwrap();
        std::os::unix::fs::chown(&above, Some(other), None).unwrap();
        let (path, problem) = refused(check(&dir));
        assert_eq!(
            (path, problem),
            (above.clone(), DirProblem::OtherOwner { uid: other })
        );
        assert_eq!(refused(prepare(&dir)).0, above);
    }

    /// The squatted `/tmp/redline-<uid>`: another user made it first, open to all.
    #[test]
    fn another_users_dir_is_refused_in_one_line_and_never_chmodded() {
        let Some(other) = other_user() else { return };
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("redline-0");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::os::unix::fs::chown(&dir, Some(other), None).unwrap();
        let (_, problem) = refused(check(&dir));
        assert_eq!(problem, DirProblem::OtherOwner { uid: other });
        let message = prepare(&dir).unwrap_err().to_string();
        assert_eq!(
            message,
            format!(
                "{} belongs to another user (uid {other}): refusing to use it; set \
                 XDG_RUNTIME_DIR to a directory of your own, or have it removed",
                dir.display()
            )
        );
        assert_eq!(mode(&dir), 0o777, "another user's dir was changed");
        // Closed, it is refused all the same: whose it is decides, not its mode.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(
            refused(check(&dir)).1,
            DirProblem::OtherOwner { uid: other }
        );
        assert_eq!(
            refused(prepare(&dir)).1,
            DirProblem::OtherOwner { uid: other }
        );
    }
}
