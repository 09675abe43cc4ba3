//! The locks a companion writes for Copilot CLI sessions running in a subfolder of its
//! workspace: Copilot CLI connects by itself only from a folder a lock names exactly.

use super::Companion;
use crate::discovery;
use crate::platform::dirs::Dirs;
use std::collections::BTreeSet;
use std::path::PathBuf;

impl Companion {
    /// Keeps one Copilot CLI lock for each of `folders` (subfolders of the workspace where a
    /// session runs) and none for any other: a lock is only ever added or removed, never
    /// replaced, as replacing a lock disconnects every session connected through it. Nothing is
    /// written while no socket serves Copilot CLI.
    pub fn set_folders(&mut self, folders: &BTreeSet<PathBuf>, dirs: &Dirs) {
        if self.with_announcement(|a| a.socket.is_none()) {
            return;
        }
        let gone: Vec<PathBuf> = self
            .folder_locks
            .keys()
            .filter(|f| !folders.contains(*f))
            .cloned()
            .collect();
        for folder in gone {
            if let Some(lock) = self.folder_locks.remove(&folder) {
                discovery::remove(&[lock]);
            }
        }
        let written: Vec<(PathBuf, PathBuf)> = self.with_announcement(|a| {
            folders
                .iter()
                .filter(|folder| !self.folder_locks.contains_key(*folder))
                .filter_map(|folder| {
                    let lock = discovery::write_folder_lock(dirs, a, folder)
                        .files
                        .into_iter()
                        .next()?;
                    Some((folder.clone(), lock))
                })
                .collect()
        });
        for (folder, lock) in written {
            tracing::info!("Copilot CLI lock for {}", folder.display());
            self.folder_locks.insert(folder, lock);
        }
    }
}
