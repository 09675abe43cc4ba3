//! A workspace's roots, and the check that a tool call's path lies inside them.

pub mod config;
mod config_change;
pub mod container;
pub mod error;
pub mod remote_entry;
pub mod settings;
pub mod way_in;
use crate::error::{Error, Result};
pub use error::WorkspaceError;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// Canonical root directories; the first is the workspace's identity.
    pub roots: Vec<PathBuf>,
}

impl Workspace {
    pub fn new(root: PathBuf) -> Self {
        Workspace { roots: vec![root] }
    }

    pub fn id(&self) -> &Path {
        &self.roots[0]
    }

    /// The roots joined as CLIs expect in `workspacePath`: `:` on POSIX, `;` on Windows.
    pub fn joined(&self) -> String {
        let sep = if cfg!(windows) { ";" } else { ":" };
        self.roots
            .iter()
            .map(|r| r.to_string_lossy())
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Resolves `file_path` (symlinks and `..` included) and refuses it unless it lies in a root.
    pub fn resolve(&self, file_path: &str) -> Result<PathBuf> {
        let resolved = resolve(Path::new(file_path))?;
        // Component by component: `/ws2` is not in `/ws`, and `resolved` holds no `..`.
        if self.roots.iter().any(|r| resolved.starts_with(r)) {
            Ok(resolved)
        } else {
            Err(WorkspaceError::OutsideWorkspace {
                path: file_path.to_owned(),
                roots: self.joined(),
            }
            .into())
        }
    }

    /// The root holding `resolved` (a path `resolve` gave), the innermost if roots nest.
    pub fn root_of(&self, resolved: &Path) -> Option<&Path> {
        self.roots
            .iter()
            .filter(|r| resolved.starts_with(r))
            .max_by_key(|r| r.as_os_str().len())
            .map(PathBuf::as_path)
    }

    /// `path` relative to the root holding it, for labels.
    pub fn relative<'a>(&self, path: &'a Path) -> &'a Path {
        self.roots
            .iter()
            .find_map(|r| path.strip_prefix(r).ok())
            .unwrap_or(path)
    }
}

/// Where `file_path` (absolute) leads, its links followed as the OS will, wherever that is: for
/// a path the user named on the command line, which no workspace confines.
pub fn follow(file_path: &str) -> Result<PathBuf> {
    let path = Path::new(file_path);
    if !path.is_absolute() {
        return Err(WorkspaceError::RelativePath(file_path.to_owned()).into());
    }
    resolve_as_the_os_will(path, file_path)
}

/// Longer paths are refused outright: no OS opens them (Linux's PATH_MAX), and refusing early
/// keeps resolution cheap whatever a peer sends.
pub const MAX_PATH_BYTES: usize = 4096;
/// As Linux's MAXSYMLINKS: a chain (or loop) longer than this is refused, as the OS would.
pub const MAX_SYMLINK_HOPS: u32 = 40;

/// Resolves an absolute `path` as the OS will when something is opened there (symlinks and `..`
/// included), without confining it: the result is absolute and holds no `.`, `..` or link, so a
/// component-wise `starts_with` on it says where it really is.
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let text = path.to_string_lossy();
    if !path.is_absolute() {
        return Err(WorkspaceError::RelativePath(text.into_owned()).into());
    }
    resolve_as_the_os_will(path, &text)
}

fn bad(file_path: &str, reason: &'static str) -> WorkspaceError {
    WorkspaceError::BadPath {
        path: file_path.to_owned(),
        reason,
    }
}

/// Resolves `path` the way the OS will when the CLI writes it: component by component, following
/// every symlink of the part that exists (with a bound on hops). Past the first missing component
/// nothing can be a link yet; a `..` there undoes that missing component, as it will once the CLI
/// has created the folders, and the walk carries on through what exists. Each component is looked
/// at once, so the cost is linear in the path's length.
fn resolve_as_the_os_will(path: &Path, file_path: &str) -> Result<PathBuf> {
    if file_path.len() > MAX_PATH_BYTES {
        return Err(bad(file_path, "the path is longer than any OS allows").into());
    }
    let mut base = PathBuf::new();
    // Components still to walk, the next one last.
    let mut pending: Vec<OsString> = Vec::new();
    push_components(path, &mut base, &mut pending);
    let mut missing: Vec<OsString> = Vec::new();
    let mut hops = 0;
    while let Some(c) = pending.pop() {
        if c == ".." {
            if missing.pop().is_none() {
                base.pop();
            }
            continue;
        }
        if !missing.is_empty() {
            missing.push(c);
            continue;
        }
        let candidate = base.join(&c);
        match std::fs::symlink_metadata(&candidate) {
            Ok(m) if m.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Err(bad(file_path, "too many levels of symbolic links").into());
                }
                let target = std::fs::read_link(&candidate).map_err(|e| Error::io(path, e))?;
                if target.as_os_str().len() > MAX_PATH_BYTES {
                    return Err(bad(file_path, "a symbolic link on the way is too long").into());
                }
                if cfg!(target_os = "linux") && points_into_proc(&base, &target) {
                    // procfs links (/proc/self/environ, /proc/self/fd/N, cwd, root) name
                    // objects, not files in the workspace.
                    return Err(
                        bad(file_path, "a symbolic link on the way points into /proc").into(),
                    );
                }
                push_components(&target, &mut base, &mut pending);
            }
            Ok(_) => base = candidate,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing.push(c),
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    // The walked part exists and holds no links; canonicalising it once more only normalises
    // case and short names on Windows and macOS, as the roots were.
    let mut resolved = dunce::canonicalize(&base).map_err(|e| Error::io(path, e))?;
    resolved.extend(missing);
    Ok(resolved)
}

/// Queues `p`'s components for the walk; an absolute `p` restarts it from its root.
fn push_components(p: &Path, base: &mut PathBuf, pending: &mut Vec<OsString>) {
    let mut rest = Vec::new();
    let mut restarted = false;
    for c in p.components() {
        match c {
            Component::Prefix(_) => {
                *base = PathBuf::from(c.as_os_str());
                restarted = true;
            }
            Component::RootDir => {
                if !restarted {
                    // A rooted target without a drive keeps the current drive (Windows).
                    let drive = base
                        .components()
                        .next()
                        .filter(|d| matches!(d, Component::Prefix(_)));
                    *base = drive
                        .map(|d| PathBuf::from(d.as_os_str()))
                        .unwrap_or_default();
                }
                base.push(c.as_os_str());
            }
            Component::CurDir => {}
            Component::ParentDir | Component::Normal(_) => rest.push(c.as_os_str().to_owned()),
        }
    }
    pending.extend(rest.into_iter().rev());
}

fn points_into_proc(base: &Path, target: &Path) -> bool {
    let proc_ = Path::new("/proc");
    target.starts_with(proc_) || (target.is_relative() && base.starts_with(proc_))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn ws() -> (tempfile::TempDir, Workspace) {
        let tmp = tempfile::tempdir().unwrap();
        let root = dunce::canonicalize(tmp.path()).unwrap().join("ws");
        std::fs::create_dir_all(root.join("src")).unwrap();
        (tmp, Workspace::new(root))
    }

    #[test]
    fn accepts_paths_inside_including_new_files() {
        let (_t, w) = ws();
        let root = w.id().to_owned();
        std::fs::write(root.join("src/a.rs"), "x").unwrap();
        let p = format!("{}/src/a.rs", root.display());
        assert_eq!(w.resolve(&p).unwrap(), root.join("src/a.rs"));
        let new = format!("{}/new/dir/b.rs", root.display());
        assert_eq!(w.resolve(&new).unwrap(), root.join("new/dir/b.rs"));
        let dotted = format!("{}/src/../src/a.rs", root.display());
        assert_eq!(w.resolve(&dotted).unwrap(), root.join("src/a.rs"));
    }

    #[test]
    fn refuses_dotdot_symlink_relative_and_sibling_escapes() {
        let (t, w) = ws();
        let root = w.id().to_owned();
        let escape = format!("{}/../outside.txt", root.display());
        assert_eq!(
            w.resolve(&escape).unwrap_err().code(),
            crate::error::FaultCode::OutsideWorkspace
        );
        let new_escape = format!("{}/nope/../../outside.txt", root.display());
        assert_eq!(
            w.resolve(&new_escape).unwrap_err().code(),
            crate::error::FaultCode::OutsideWorkspace
        );
        std::fs::create_dir(t.path().join("secret")).unwrap();
        std::os::unix::fs::symlink(t.path().join("secret"), root.join("link")).unwrap();
        let via_link = format!("{}/link/x.txt", root.display());
        assert_eq!(
            w.resolve(&via_link).unwrap_err().code(),
            crate::error::FaultCode::OutsideWorkspace
        );
        let sibling = format!("{}-other/x", root.display());
        assert_eq!(
            w.resolve(&sibling).unwrap_err().code(),
            crate::error::FaultCode::OutsideWorkspace
        );
        assert_eq!(
            w.resolve("src/a.rs").unwrap_err().code(),
            crate::error::FaultCode::RelativePath
        );
    }

    #[test]
    fn a_dotdot_after_a_missing_folder_does_not_skip_a_link_out() {
        let (t, w) = ws();
        let root = w.id().to_owned();
        std::fs::write(t.path().join("secret.txt"), "s").unwrap();
        std::fs::create_dir(t.path().join("secret")).unwrap();
        std::os::unix::fs::symlink(t.path().join("secret.txt"), root.join("flink")).unwrap();
        std::os::unix::fs::symlink(t.path().join("secret"), root.join("dlink")).unwrap();
        std::os::unix::fs::symlink("/proc/self/environ", root.join("env")).unwrap();
        std::os::unix::fs::symlink("/proc/self/cwd", root.join("cwd")).unwrap();
        for p in [
            "does-not-exist/../flink",
            "does-not-exist/../dlink/x.txt",
            "a/b/../../flink",
            "does-not-exist/../env",
            "env",
            "cwd/x",
        ] {
            let p = format!("{}/{p}", root.display());
            let err = w.resolve(&p).unwrap_err();
            assert!(
                matches!(
                    err.code(),
                    crate::error::FaultCode::OutsideWorkspace | crate::error::FaultCode::BadPath
                ),
                "{p}: {err}"
            );
            assert!(err.to_string().contains(&p), "the message names the path");
        }
        // Inside stays inside, however it is spelt.
        std::fs::write(root.join("src/a.rs"), "x").unwrap();
        std::os::unix::fs::symlink("src", root.join("rel")).unwrap();
        let via = format!("{}/nope/../rel/a.rs", root.display());
        assert_eq!(w.resolve(&via).unwrap(), root.join("src/a.rs"));
        let new = format!("{}/nope/deeper/../new.rs", root.display());
        assert_eq!(w.resolve(&new).unwrap(), root.join("nope/new.rs"));
    }

    #[test]
    fn a_dangling_link_resolves_to_where_a_write_would_land() {
        let (t, w) = ws();
        let root = w.id().to_owned();
        std::os::unix::fs::symlink(t.path().join("created-outside"), root.join("dangling"))
            .unwrap();
        let p = format!("{}/dangling", root.display());
        assert_eq!(
            w.resolve(&p).unwrap_err().code(),
            crate::error::FaultCode::OutsideWorkspace
        );
        std::os::unix::fs::symlink(root.join("src/new.rs"), root.join("inside")).unwrap();
        let p = format!("{}/inside", root.display());
        assert_eq!(w.resolve(&p).unwrap(), root.join("src/new.rs"));
    }

    #[test]
    fn link_loops_and_overlong_paths_are_refused_with_the_path() {
        let (_t, w) = ws();
        let root = w.id().to_owned();
        std::os::unix::fs::symlink(root.join("b"), root.join("a")).unwrap();
        std::os::unix::fs::symlink(root.join("a"), root.join("b")).unwrap();
        let p = format!("{}/a/x", root.display());
        assert_eq!(
            w.resolve(&p).unwrap_err().code(),
            crate::error::FaultCode::BadPath
        );
        // 60 KB: refused before any file system work (the old resolver took seconds).
        let long = format!("{}/{}", root.display(), "a/".repeat(30_000));
        let err = w.resolve(&long).unwrap_err();
        assert_eq!(err.code(), crate::error::FaultCode::BadPath);
        // Right at the limit, a deep path of missing folders still resolves.
        let base = format!("{}/", root.display());
        let deep = format!("{base}{}", "d/".repeat((MAX_PATH_BYTES - base.len()) / 2));
        assert!(w.resolve(&deep).unwrap().starts_with(&root));
    }

    #[test]
    fn joins_roots_with_the_os_delimiter() {
        let w = Workspace {
            roots: vec!["/a".into(), "/b".into()],
        };
        assert_eq!(w.joined(), "/a:/b");
        assert_eq!(w.relative(Path::new("/b/c/d")), Path::new("c/d"));
    }
}
