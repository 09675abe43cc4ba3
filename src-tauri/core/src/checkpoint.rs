//! A workspace's checkpoints (issue 39): every file the workspace's own ignore rules do not
//! ignore, untracked ones included, kept as git trees in a private object store outside the
//! workspace, and what changed between two of them. Written and read with the `git` program under
//! an environment that keeps the user's repository, settings and hooks out of it (`git`).

mod changes;
mod error;
mod git;
mod hunks;
mod object;
// Against the real git, which the Windows tests under Wine do not have.
#[cfg(all(test, unix))]
mod tests;

pub use changes::{ChangeKind, Delta};
use error::CheckpointResult as Result;
pub use error::{CheckpointError, CheckpointResult};
pub use hunks::{Hunk, Lines};
pub use object::{Checkpoint, ObjectId};

use git::Git;
use std::path::Path;

/// One workspace's checkpoint store: a git directory of Redline's own (`dir`), the workspace as
/// its work tree, an index of its own. The user's `.git` is never read or written through it.
pub struct Store {
    git: Git,
    latest: Option<Checkpoint>,
}

/// The ref that keeps the newest checkpoint (and through its parents, the older ones) alive.
const LATEST: &str = "refs/redline/latest";

impl Store {
    /// Opens the store at `dir` for `workspace`, making it on first use.
    pub fn open(program: &Path, dir: &Path, workspace: &Path) -> Result<Store> {
        let git = Git::new(program, dir, workspace);
        git.init()?;
        let latest = git.resolve(LATEST)?;
        Ok(Store { git, latest })
    }

    /// Records the workspace as it is now. Unchanged since the last checkpoint: that one again,
    /// at the cost of a `git status`.
    pub fn checkpoint(&mut self) -> Result<Checkpoint> {
        let tree = self.git.snapshot()?;
        if let Some(last) = self.latest.as_ref().filter(|c| c.tree == tree) {
            return Ok(last.clone());
        }
        let parent = self.latest.as_ref().map(|c| &c.commit);
        let commit = self.git.commit(&tree, parent)?;
        self.git.set_ref(LATEST, &commit)?;
        let made = Checkpoint { commit, tree };
        self.latest = Some(made.clone());
        Ok(made)
    }

    /// What changed from `before` to `after`: every file added, deleted, modified, renamed
    /// (detected) or changed in mode, each with its lines added and removed (none for a binary).
    pub fn changes(&self, before: &Checkpoint, after: &Checkpoint) -> Result<Vec<Delta>> {
        self.git.changes(&before.tree, &after.tree)
    }

    /// The bytes `path` (relative to the workspace) had at `at`; `None`: it was not there.
    pub fn file_at(&self, at: &Checkpoint, path: &Path) -> Result<Option<Vec<u8>>> {
        self.git.blob(&at.tree, path)
    }
}
