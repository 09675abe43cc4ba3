//! A workspace's roots, and the check that a tool call's path lies inside them.

use crate::error::{Error, Result};
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
        let path = Path::new(file_path);
        if !path.is_absolute() {
            return Err(Error::RelativePath(file_path.to_owned()));
        }
        let resolved = resolve_existing_prefix(path)?;
        if self.roots.iter().any(|r| resolved.starts_with(r)) {
            Ok(resolved)
        } else {
            Err(Error::OutsideWorkspace {
                path: file_path.to_owned(),
                roots: self.joined(),
            })
        }
    }

    /// `path` relative to the root holding it, for labels.
    pub fn relative<'a>(&self, path: &'a Path) -> &'a Path {
        self.roots
            .iter()
            .find_map(|r| path.strip_prefix(r).ok())
            .unwrap_or(path)
    }
}

/// Canonicalises the longest existing ancestor of `path` and appends the rest, whose
/// components do not exist and so cannot be symlinks: `..` among them is applied lexically.
fn resolve_existing_prefix(path: &Path) -> Result<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut rest: Vec<Component<'_>> = Vec::new();
    let components: Vec<Component<'_>> = path.components().collect();
    let mut split = components.len();
    loop {
        match dunce::canonicalize(&existing) {
            Ok(mut base) => {
                rest.extend(components[split..].iter().copied());
                for c in rest {
                    match c {
                        Component::ParentDir => {
                            base.pop();
                        }
                        Component::Normal(s) => base.push(s),
                        _ => {}
                    }
                }
                return Ok(base);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && split > 1 => {
                split -= 1;
                existing = components[..split].iter().collect();
            }
            Err(e) => return Err(Error::io(path, e)),
        }
    }
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
        assert_eq!(w.resolve(&escape).unwrap_err().code(), "outside_workspace");
        let new_escape = format!("{}/nope/../../outside.txt", root.display());
        assert_eq!(
            w.resolve(&new_escape).unwrap_err().code(),
            "outside_workspace"
        );
        std::fs::create_dir(t.path().join("secret")).unwrap();
        std::os::unix::fs::symlink(t.path().join("secret"), root.join("link")).unwrap();
        let via_link = format!("{}/link/x.txt", root.display());
        assert_eq!(
            w.resolve(&via_link).unwrap_err().code(),
            "outside_workspace"
        );
        let sibling = format!("{}-other/x", root.display());
        assert_eq!(w.resolve(&sibling).unwrap_err().code(), "outside_workspace");
        assert_eq!(w.resolve("src/a.rs").unwrap_err().code(), "relative_path");
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
