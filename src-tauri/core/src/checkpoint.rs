//! A workspace's checkpoints (issue 39): every file the workspace's own ignore rules do not
//! ignore, untracked ones included, kept as git trees in a private object store outside the
//! workspace, what changed between two of them, its hunks, undoing them (`undo`), and the
//! workspace's turns (`history`). Written and read with the `git` program under an environment
//! that keeps the user's repository, settings and hooks out of it (`git`).

mod changes;
mod error;
mod git;
mod history;
mod hunks;
mod object;
mod open_file;
mod stand_in;
mod undo;
// Against the real git, which the Windows tests under Wine do not have.
#[cfg(all(test, unix))]
mod tests;

pub use changes::{ChangeKind, Delta, NotKept};
use error::CheckpointResult as Result;
pub use error::{CheckpointError, CheckpointResult};
pub use history::{Bounds, TurnRecord};
pub use hunks::{Hunk, HunkLines};
pub use object::{Checkpoint, ObjectId};
pub use open_file::FileSides;
pub use undo::{Pick, Undo};

use git::{Git, LATEST};
use std::path::{Path, PathBuf};

/// One workspace's checkpoint store: a git directory of Redline's own (`dir`), the workspace as
/// its work tree, an index of its own. The user's `.git` is never read or written through it.
pub struct Store {
    git: Git,
    workspace: PathBuf,
    latest: Option<Checkpoint>,
    /// The largest file undo reads (on disk or in the store); a larger one is refused unread.
    file_limit: u64,
    history: history::History,
    bounds: Bounds,
    /// What changed between the last pairs of trees asked for (`changes`).
    known: changes::Known,
    /// A turn ended since the history was last pruned to its bounds (`prune_if_due`).
    prune_due: bool,
    /// The files the newest checkpoint holds stand-ins of (`stand_in`), as found then.
    stand_ins: Vec<stand_in::StandIn>,
}

/// The largest file undo reads by default: as large as the review reads (32 MiB).
pub const FILE_LIMIT: u64 = 32 * 1024 * 1024;

/// Names the workspace a store belongs to, in the store: two workspaces never share one.
const OWNER: &str = "redline-workspace";

impl Store {
    /// Opens the store at `dir` for `workspace`, making it on first use. A store made for
    /// another workspace is refused.
    pub fn open(program: &Path, dir: &Path, workspace: &Path) -> Result<Store> {
        let git = Git::new(program, dir, workspace);
        git.init()?;
        own(dir, workspace)?;
        let latest = git.resolve(LATEST)?;
        let history = history::History::load(dir)?;
        let store = Store {
            git,
            workspace: workspace.to_owned(),
            latest,
            file_limit: FILE_LIMIT,
            history,
            bounds: Bounds::default(),
            known: changes::Known::default(),
            prune_due: false,
            stand_ins: stand_in::load(dir)?,
        };
        store.history.forget_stray(&store.git)?;
        Ok(store)
    }

    /// Where `workspace`'s store is kept under Redline's data folder `data`:
    /// `<data>/checkpoints/<hash of the workspace's path>`.
    pub fn dir_for(data: &Path, workspace: &Path) -> PathBuf {
        data.join("checkpoints").join(format!(
            "{:016x}",
            fnv1a(workspace.as_os_str().as_encoded_bytes())
        ))
    }

    /// Opens `workspace`'s store under Redline's data folder `data` (see `dir_for`).
    pub fn open_in(program: &Path, data: &Path, workspace: &Path) -> Result<Store> {
        Store::open(program, &Store::dir_for(data, workspace), workspace)
    }

    /// The workspace's turns, oldest first.
    pub fn turns(&self) -> &[TurnRecord] {
        self.history.turns()
    }

    pub fn turn(&self, id: u64) -> Option<&TurnRecord> {
        self.history.get(id)
    }

    /// A turn of `cli`'s `session` begins at `at` (ms since the Unix epoch): the workspace is
    /// checkpointed and the turn recorded. Nothing is pruned here: the CLI waits on this.
    pub fn begin_turn(&mut self, cli: &str, session: &str, at: u64) -> Result<TurnRecord> {
        let start = self.checkpoint()?;
        self.history.begin(&self.git, start, (cli, session), at)
    }

    /// Turn `id` ends at `at`: the workspace is checkpointed as its end. The history is pruned
    /// to its bounds later (`prune_if_due`): its `count-objects` is off the way to the turn's
    /// review.
    pub fn end_turn(&mut self, id: u64, at: u64) -> Result<TurnRecord> {
        let ended = self.end_checkpointed(id, at)?;
        self.prune_due = true;
        Ok(ended.0)
    }

    /// Prunes the history to its bounds if a turn ended since it was last pruned.
    pub fn prune_if_due(&mut self) -> Result<()> {
        if !std::mem::take(&mut self.prune_due) {
            return Ok(());
        }
        self.history.prune(&self.git, self.bounds)
    }

    /// Turn `id` ends at `at`, the workspace checkpointed as its end (also the store's newest).
    /// A turn mostly changes something: the status `checkpoint` asks first would read every
    /// changed file once more, for the `add` after it to read them again; and the refs of the
    /// turn's end and of the newest checkpoint are moved in one git process.
    fn end_checkpointed(&mut self, id: u64, at: u64) -> Result<(TurnRecord, Checkpoint)> {
        if self.turn(id).is_none() {
            return Err(CheckpointError::NoSuchTurn(id));
        }
        self.git.sync_excludes()?;
        let (now, new) = self.record_unset()?;
        let latest = [(LATEST, &now.commit)];
        let with: &[(&str, &ObjectId)] = if new { &latest } else { &[] };
        let ended = self.history.end(&self.git, id, (now.clone(), at), with)?;
        self.latest = Some(now.clone());
        Ok((ended, now))
    }

    /// Turn `id` ends and the next turn of `cli`'s `session` begins at `at`, from one checkpoint:
    /// the workspace as `id` left it is where the next one starts (a prompt with no end hook
    /// before it: the turn was interrupted). Nothing is pruned here: the CLI waits on this.
    pub fn end_and_begin(
        &mut self,
        id: u64,
        (cli, session): (&str, &str),
        at: u64,
    ) -> Result<(TurnRecord, TurnRecord)> {
        let (ended, now) = self.end_checkpointed(id, at)?;
        let begun = self.history.begin(&self.git, now, (cli, session), at)?;
        Ok((ended, begun))
    }

    /// Sets how much history is kept from the next turn's end on, pruning nothing now (a turn's
    /// start may be waiting on this store).
    pub fn keep_within(&mut self, bounds: Bounds) {
        self.bounds = bounds;
    }

    /// Sets how much history is kept, pruning at once what is past it.
    pub fn set_bounds(&mut self, bounds: Bounds) -> Result<()> {
        self.bounds = bounds;
        self.history.prune(&self.git, bounds)
    }

    /// Sets the largest file undo reads.
    pub fn set_file_limit(&mut self, bytes: u64) {
        self.file_limit = bytes;
    }

    /// The largest file undo reads.
    pub fn file_limit(&self) -> u64 {
        self.file_limit
    }

    /// The size in bytes of every file `at` holds, by path relative to the workspace (read
    /// from the store: no file is opened).
    pub fn sizes(&self, at: &Checkpoint) -> Result<Vec<(PathBuf, u64)>> {
        self.git.sizes(&at.tree)
    }

    /// Records the workspace as it is now. Unchanged since the last checkpoint: that one again,
    /// at the cost of one `git status` in the store.
    pub fn checkpoint(&mut self) -> Result<Checkpoint> {
        self.git.sync_excludes()?;
        if let Some(last) = &self.latest {
            // A status that fails says nothing: the whole `add` below then runs, and tells why.
            // Git's status never looks at a stand-in's file: each is asked here (a `lstat`).
            let kept = |s: &stand_in::StandIn| s.holds(&self.workspace);
            if self.git.unchanged().unwrap_or(false) && self.stand_ins.iter().all(kept) {
                return Ok(last.clone());
            }
        }
        self.record()
    }

    /// Records the workspace as it is now, without asking first whether it changed: the same
    /// tree as the last checkpoint is that one again.
    fn record(&mut self) -> Result<Checkpoint> {
        let (made, new) = self.record_unset()?;
        if new {
            self.git.set_ref(LATEST, &made.commit)?;
            self.latest = Some(made.clone());
        }
        Ok(made)
    }

    /// As `record`, but `LATEST` is left for the caller to move (and `latest` to set) when
    /// the checkpoint is a new one (`true`).
    fn record_unset(&mut self) -> Result<(Checkpoint, bool)> {
        let now = self.git.stand_ins(self.file_limit)?;
        let tree = self.snapshot(now)?;
        if let Some(last) = self.latest.as_ref().filter(|c| c.tree == tree) {
            return Ok((last.clone(), false));
        }
        // No parent: what keeps a checkpoint alive is a turn's ref (or `LATEST`), so a pruned
        // turn's objects go.
        let commit = self.git.commit(&tree, None)?;
        Ok((Checkpoint { commit, tree }, true))
    }

    /// The workspace into the store's index and a tree, with `now`'s stand-ins. The list kept
    /// beside the store holds the old ones too until the index holds the new: a kill between
    /// leaves no stand-in in the index that the next checkpoint would not clear.
    fn snapshot(&mut self, now: Vec<stand_in::StandIn>) -> Result<ObjectId> {
        let dir = self.git.dir();
        if now != self.stand_ins {
            let mut both = self.stand_ins.clone();
            both.extend(now.iter().cloned());
            stand_in::save(dir, &both)?;
        }
        let tree = self.git.snapshot(&self.stand_ins, &now)?;
        if now != self.stand_ins {
            stand_in::save(dir, &now)?;
            self.stand_ins = now;
        }
        Ok(tree)
    }

    /// What changed from `before` to `after`: every file added, deleted, modified, renamed
    /// (detected) or changed in mode, each with its lines added and removed (none for a binary).
    pub fn changes(&self, before: &Checkpoint, after: &Checkpoint) -> Result<Vec<Delta>> {
        let trees = (&before.tree, &after.tree);
        self.known.get_or(trees, || {
            let mut changes = self.git.changes(&before.tree, &after.tree)?;
            self.git.mark_stand_ins(&mut changes)?;
            Ok(changes)
        })
    }

    /// The unified diff from `before` to `after` (git style, renames named), of every file or
    /// of `path` (relative to the workspace) alone.
    pub fn patch(
        &self,
        before: &Checkpoint,
        after: &Checkpoint,
        path: Option<&Path>,
    ) -> Result<Vec<u8>> {
        let Some(path) = path else {
            return self.git.patch(&before.tree, &after.tree, &[]);
        };
        // A rename shows only when both its names are asked for.
        let renames = self.renames(before, after)?;
        let from = renames.iter().find(|(to, _)| to == path).map(|(_, f)| f);
        let paths: Vec<&Path> = std::iter::once(path)
            .chain(from.map(PathBuf::as_path))
            .collect();
        self.git.patch(&before.tree, &after.tree, &paths)
    }

    /// `path`'s hunks from `before` to `after`: each contiguous run of changed lines.
    pub fn hunks(&self, before: &Checkpoint, after: &Checkpoint, path: &Path) -> Result<Vec<Hunk>> {
        Ok(self.open_file(before, after, path)?.hunks)
    }

    /// `path` from `before` to `after` (a turn's start and end), opened: both sides' bytes, read
    /// within the bound undo reads, and its hunks (as `hunks`); refused as `hunks` refuses.
    pub fn open_file(
        &self,
        before: &Checkpoint,
        after: &Checkpoint,
        path: &Path,
    ) -> Result<FileSides> {
        let changes = self.changes(before, after)?;
        let renames: Vec<(PathBuf, PathBuf)> = (changes.iter())
            .filter_map(|d| Some((d.path.clone(), d.from.clone()?)))
            .collect();
        // The change gives both sides' modes: the two are read in one git process.
        let modes = changes.iter().find(|d| d.path == path).map(|d| d.modes);
        open_file::opened(&self.scope(before, after, &renames), path, modes)
    }

    /// Undoes `files` of the change from `before` to `after` (a turn's start and end), back to
    /// their bytes and modes at `before`. Refused, naming the file and writing nothing, when
    /// any file is no longer what `after` holds (or is a link, no regular file, too large); the
    /// paths written or removed.
    pub fn undo(
        &self,
        before: &Checkpoint,
        after: &Checkpoint,
        files: &[Undo],
    ) -> Result<Vec<PathBuf>> {
        let renames = self.renames(before, after)?;
        undo::run(&self.scope(before, after, &renames), files)
    }

    /// Undoes every file changed from `before` to `after`, as `undo` does.
    pub fn undo_all(&self, before: &Checkpoint, after: &Checkpoint) -> Result<Vec<PathBuf>> {
        let files: Vec<Undo> = self
            .changes(before, after)?
            .into_iter()
            .map(|d| Undo {
                path: d.path,
                pick: Pick::Whole,
            })
            .collect();
        self.undo(before, after, &files)
    }

    /// Where each file the change moved came from: `(to, from)`.
    fn renames(&self, before: &Checkpoint, after: &Checkpoint) -> Result<Vec<(PathBuf, PathBuf)>> {
        Ok(self
            .changes(before, after)?
            .into_iter()
            .filter_map(|d| Some((d.path, d.from?)))
            .collect())
    }

    fn scope<'a>(
        &'a self,
        before: &'a Checkpoint,
        after: &'a Checkpoint,
        renames: &'a [(PathBuf, PathBuf)],
    ) -> undo::UndoScope<'a> {
        undo::UndoScope {
            git: &self.git,
            root: &self.workspace,
            start: &before.tree,
            end: &after.tree,
            renames,
            limit: self.file_limit,
        }
    }

    /// The bytes `path` (relative to the workspace) had at `at`; `None`: it was not there. A
    /// file the checkpoint did not store (`NotKept`) gives its stand-in's line.
    pub fn file_at(&self, at: &Checkpoint, path: &Path) -> Result<Option<Vec<u8>>> {
        self.git.blob(&at.tree, path)
    }
}

/// Records `workspace` as the owner of the store at `dir`, or refuses when another one is.
fn own(dir: &Path, workspace: &Path) -> Result<()> {
    let file = dir.join(OWNER);
    let mine = workspace.as_os_str().as_encoded_bytes();
    match std::fs::read(&file) {
        Ok(theirs) if theirs == mine => Ok(()),
        Ok(theirs) => Err(CheckpointError::OtherWorkspace(
            dir.to_owned(),
            PathBuf::from(String::from_utf8_lossy(&theirs).into_owned()),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(&file, mine).map_err(|e| CheckpointError::Store(file, e))
        }
        Err(e) => Err(CheckpointError::Store(file, e)),
    }
}

/// FNV-1a, 64 bits: a stable name for a path (a collision is caught by `own`).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
