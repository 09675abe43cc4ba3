//! The locks one workspace keeps for the Copilot CLI sessions running in its subfolders: its
//! companion holds them, rewrites them with a new token and removes them when it stops.

use crate::discovery::{self, Announcement};
use crate::platform::dirs::Dirs;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The lock written for each folder, by folder.
#[derive(Default)]
pub(crate) struct FolderLocks {
    locks: BTreeMap<PathBuf, PathBuf>,
}

impl FolderLocks {
    /// Keeps one lock for each of `folders` (subfolders of the workspace where a session runs),
    /// announcing `a`, and none for any other: a lock is only ever added or removed, never
    /// replaced, as replacing a lock disconnects every session connected through it. Nothing is
    /// written while no socket serves Copilot CLI.
    pub(crate) fn set(&mut self, folders: &BTreeSet<PathBuf>, a: &Announcement<'_>, dirs: &Dirs) {
        if a.socket.is_none() {
            return;
        }
        let gone: Vec<PathBuf> = (self.locks.keys())
            .filter(|f| !folders.contains(*f))
            .cloned()
            .collect();
        for folder in gone {
            if let Some(lock) = self.locks.remove(&folder) {
                discovery::remove(&[lock]);
            }
        }
        let new: Vec<&PathBuf> = (folders.iter())
            .filter(|f| !self.locks.contains_key(*f))
            .collect();
        for folder in new {
            let written = discovery::write_folder_lock(dirs, a, folder).files;
            if let Some(lock) = written.into_iter().next() {
                tracing::info!("Copilot CLI lock for {}", folder.display());
                self.locks.insert(folder.clone(), lock);
            }
        }
    }

    /// Writes every lock again, announcing `a` (a new token).
    pub(crate) fn renew(&mut self, a: &Announcement<'_>, dirs: &Dirs) {
        let folders: BTreeSet<PathBuf> = self.locks.keys().cloned().collect();
        self.set(&BTreeSet::new(), a, dirs);
        self.set(&folders, a, dirs);
    }

    /// The locks still there as written, for the status.
    pub(crate) fn present(&self) -> impl Iterator<Item = PathBuf> + '_ {
        (self.locks.values())
            .filter(|l| l.symlink_metadata().is_ok())
            .cloned()
    }

    /// Removes every lock (the workspace stops).
    pub(crate) fn remove_all(&self) {
        discovery::remove(&self.locks.values().cloned().collect::<Vec<_>>());
    }
}
