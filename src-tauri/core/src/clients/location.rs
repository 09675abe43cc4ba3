//! Where a CLI keeps a file or directory, as data: resolved on this machine or inside a
//! container.

use std::path::{Path, PathBuf};

/// A directory (or file) a CLI resolves: `var` if set, else `default` under `base`; then `sub`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// The variable that overrides the CLI's home, e.g. `QWEN_HOME`.
    pub var: Option<&'static str>,
    pub base: Base,
    /// `/`-separated, under `base`; empty for `base` itself.
    pub default: &'static str,
    /// `/`-separated, under the resolved home.
    pub sub: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The user's home directory.
    Home,
    /// Node's `os.tmpdir()`.
    NodeTmpdir,
}

/// Where a container's CLI has Node's `os.tmpdir()` (unless the image sets `TMPDIR`).
pub const CONTAINER_TMPDIR: &str = "/tmp";

impl Location {
    /// The path on this machine, for a home directory, Node's tmpdir and the set variables.
    pub fn resolve(
        &self,
        home: &Path,
        tmp: &Path,
        var: &dyn Fn(&str) -> Option<PathBuf>,
    ) -> PathBuf {
        let base = self.var.and_then(var).unwrap_or_else(|| {
            let root = match self.base {
                Base::Home => home,
                Base::NodeTmpdir => tmp,
            };
            join(root, self.default)
        });
        join(&base, self.sub)
    }

    /// The path inside a container whose home is `home`, as a string (the host may be Windows).
    pub fn in_container(&self, home: &str) -> String {
        let root = match self.base {
            Base::Home => home.trim_end_matches('/'),
            Base::NodeTmpdir => CONTAINER_TMPDIR,
        };
        [root, self.default, self.sub]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("/")
    }
}

fn join(base: &Path, rel: &str) -> PathBuf {
    rel.split('/')
        .filter(|p| !p.is_empty())
        .fold(base.to_path_buf(), |p, part| p.join(part))
}
