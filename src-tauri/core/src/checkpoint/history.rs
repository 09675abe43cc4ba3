//! A workspace's turns: each one's start and end checkpoints, kept alive in the store by a ref of
//! its own (`refs/redline/turns/<id>`) and listed in a small index file beside the store,
//! replaced whole (0600) at every change, so a Redline killed at any moment loses nothing it
//! had answered for. Bounded: the oldest turns go, with their refs and the objects only they
//! held, past a number of turns or the store's size.

use super::error::{CheckpointError, CheckpointResult as Result};
use super::git::Git;
use super::object::{Checkpoint, ObjectId};
use crate::platform::folder::{Folder, Perms};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One turn of a CLI in the workspace, as the history keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Given in order, never reused (not even after the turns before it were pruned).
    pub id: u64,
    pub cli: String,
    pub session: String,
    /// Milliseconds since the Unix epoch, by the caller's clock.
    pub started: u64,
    pub ended: Option<u64>,
    /// The workspace as the turn found it.
    pub start: Checkpoint,
    /// The workspace as the turn left it; `None` while it runs.
    pub end: Option<Checkpoint>,
}

/// How much history a workspace keeps: past either bound the oldest turns go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub turns: usize,
    /// The bytes of the store's own objects (what it borrows from the user's repository is not
    /// counted, and never pruned).
    pub bytes: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            turns: 200,
            bytes: 1 << 30,
        }
    }
}

/// The index file, in the store's folder.
const INDEX: &str = "redline-turns.json";

/// Where each turn's ref lives.
const REFS: &str = "refs/redline/turns/";

fn turn_ref(id: u64) -> String {
    format!("{REFS}{id}")
}

/// The index as written: the next id, and the turns, oldest first.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct History {
    next: u64,
    turns: Vec<TurnRecord>,
    #[serde(skip)]
    dir: PathBuf,
}

impl History {
    /// The index in the store's folder `dir`; none yet: an empty history.
    pub fn load(dir: &Path) -> Result<History> {
        let file = dir.join(INDEX);
        let mut history = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice::<History>(&bytes)
                .map_err(|e| CheckpointError::History(file.clone(), e.to_string()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => History::default(),
            Err(e) => return Err(CheckpointError::History(file, e.to_string())),
        };
        history.dir = dir.to_owned();
        Ok(history)
    }

    /// Replaces the index whole: a reader (or a restart after a kill) sees the old one or this.
    fn save(&self) -> Result<()> {
        let file = self.dir.join(INDEX);
        let failed = |e: std::io::Error| CheckpointError::History(file.clone(), e.to_string());
        let bytes = serde_json::to_vec(self).map_err(|e| failed(std::io::Error::other(e)))?;
        let (folder, name) = Folder::holding(&self.dir, Path::new(INDEX)).map_err(failed)?;
        folder
            .replace_as(&name, &bytes, Perms::Exact(0o600))
            .map_err(failed)
    }
}

impl History {
    /// The turns, oldest first.
    pub fn turns(&self) -> &[TurnRecord] {
        &self.turns
    }

    pub fn get(&self, id: u64) -> Option<&TurnRecord> {
        self.turns.iter().find(|t| t.id == id)
    }

    /// Records a turn that began at `start`: its ref first, then the index (a kill in between
    /// leaves a stray ref, which `forget_stray` removes at the next open).
    pub fn begin(
        &mut self,
        git: &Git,
        start: Checkpoint,
        (cli, session): (&str, &str),
        at: u64,
    ) -> Result<TurnRecord> {
        let id = self.next;
        git.set_ref(&turn_ref(id), &start.commit)?;
        let turn = TurnRecord {
            id,
            cli: cli.to_owned(),
            session: session.to_owned(),
            started: at,
            ended: None,
            start,
            end: None,
        };
        self.next = id + 1;
        self.turns.push(turn.clone());
        self.save()?;
        Ok(turn)
    }

    /// Records turn `id`'s end at `now`. Its ref then holds a commit of the end's tree whose
    /// parent is the start, so the one ref keeps both alive. `with`: refs set with it, in the
    /// same git process (the store's newest checkpoint, when `now` is a new one).
    pub fn end(
        &mut self,
        git: &Git,
        id: u64,
        (now, at): (Checkpoint, u64),
        with: &[(&str, &ObjectId)],
    ) -> Result<TurnRecord> {
        let start = self
            .get(id)
            .ok_or(CheckpointError::NoSuchTurn(id))?
            .start
            .clone();
        let commit = git.commit(&now.tree, Some(&start.commit))?;
        let name = turn_ref(id);
        let mut refs = vec![(name.as_str(), &commit)];
        refs.extend_from_slice(with);
        git.set_refs(&refs)?;
        let turn = self
            .turns
            .iter_mut()
            .find(|t| t.id == id)
            .ok_or(CheckpointError::NoSuchTurn(id))?;
        turn.ended = Some(at);
        turn.end = Some(Checkpoint {
            commit,
            tree: now.tree,
        });
        let ended = turn.clone();
        self.save()?;
        Ok(ended)
    }

    /// Drops the oldest turns past `bounds` (the newest is always kept), then the objects no
    /// turn, the newest checkpoint or the store's index holds any more.
    pub fn prune(&mut self, git: &Git, bounds: Bounds) -> Result<()> {
        let over = self.turns.len().saturating_sub(bounds.turns.max(1));
        if over > 0 {
            self.drop_oldest(git, over)?;
        }
        while self.turns.len() > 1 && git.own_bytes()? > bounds.bytes {
            // A tenth at a time: a git prune walks every object, so not one per turn.
            let some = (self.turns.len() / 10).max(1);
            self.drop_oldest(git, some.min(self.turns.len() - 1))?;
        }
        Ok(())
    }

    /// Forgets the `n` oldest turns: the index first (a kill after it leaves stray refs, which
    /// the next open removes), their refs, then the objects only they held.
    fn drop_oldest(&mut self, git: &Git, n: usize) -> Result<()> {
        let gone: Vec<TurnRecord> = self.turns.drain(..n).collect();
        self.save()?;
        for t in &gone {
            git.delete_ref(&turn_ref(t.id))?;
        }
        git.prune()
    }

    /// Removes the turn refs the index does not list (left by a kill between the two writes).
    pub fn forget_stray(&self, git: &Git) -> Result<()> {
        for name in git.refs(REFS)? {
            let listed = name
                .strip_prefix(REFS)
                .and_then(|id| id.parse::<u64>().ok())
                .is_some_and(|id| self.get(id).is_some());
            if !listed {
                git.delete_ref(&name)?;
            }
        }
        Ok(())
    }
}

#[cfg(all(test, unix))]
#[path = "history_tests.rs"]
mod tests;
