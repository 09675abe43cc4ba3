//! The changes `redline workspace …`, `redline container …` and `redline remote …` make to the stored workspaces,
//! written once: the running instance makes them (then starts or stops servers), and so does a
//! command when no instance runs (`runtime::command`).

use super::config::{canonical_dir, refuse_broad, Config};
use super::container::{self, Containers, Interfaces};
use super::remote_entry::RemoteEntry;
use super::WorkspaceError;
use crate::error::Result;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

impl Config {
    /// Adds the folder `path` names (made canonical), enabled; `/`, the home folder or a folder
    /// around other workspaces only with `force`. Its path as stored.
    pub fn add_folder(&mut self, path: &Path, force: bool, home: &Path) -> Result<PathBuf> {
        let path = canonical_dir(path)?;
        if !force {
            refuse_broad(&path, home, &self.workspaces)?;
        }
        self.add(path.clone())?;
        Ok(path)
    }

    /// Removes the workspace `path` names. Its path as it was stored.
    pub fn remove_named(&mut self, path: &Path) -> Result<PathBuf> {
        let path = self.known_path(path)?;
        self.remove(&path)?;
        Ok(path)
    }

    /// Turns the workspace `path` names on or off. Its path as stored.
    pub fn set_enabled(&mut self, path: &Path, enabled: bool) -> Result<PathBuf> {
        let path = self.known_path(path)?;
        if let Some(entry) = self.find_mut(&path) {
            entry.enabled = enabled;
        }
        Ok(path)
    }

    /// What the containers of the workspace `path` names become: on (listening on `address`,
    /// else the bridge's), or off. Its path as stored, and the setting; nothing changes yet.
    pub async fn containers_turned(
        &self,
        path: &Path,
        on: bool,
        address: Option<Ipv4Addr>,
        interfaces: &dyn Interfaces,
    ) -> Result<(PathBuf, Option<Containers>)> {
        let path = self.known_path(path)?;
        if !on {
            return Ok((path, None));
        }
        let now = self.find(&path).and_then(|e| e.containers.as_ref());
        let next = container::turned_on(now, address, interfaces).await?;
        Ok((path, Some(next)))
    }

    /// Sets the containers of the stored workspace `path`; whether that changed them.
    pub fn set_containers(&mut self, path: &Path, next: Option<Containers>) -> bool {
        match self.find_mut(path) {
            Some(entry) if entry.containers != next => {
                entry.containers = next;
                true
            }
            _ => false,
        }
    }
}

impl Config {
    /// The remote named `name`.
    pub fn remote(&self, name: &str) -> Option<&RemoteEntry> {
        self.remotes.iter().find(|r| r.name == name)
    }

    /// Adds `entry`; refused when its name is taken.
    pub fn add_remote(&mut self, entry: RemoteEntry) -> Result<(), WorkspaceError> {
        if self.remote(&entry.name).is_some() {
            return Err(WorkspaceError::RemoteExists(entry.name));
        }
        self.remotes.push(entry);
        Ok(())
    }

    /// Removes the remote `name`, returned.
    pub fn remove_remote(&mut self, name: &str) -> Result<RemoteEntry, WorkspaceError> {
        let at = self.remotes.iter().position(|r| r.name == name);
        let at = at.ok_or_else(|| WorkspaceError::NoSuchRemote(name.to_owned()))?;
        Ok(self.remotes.remove(at))
    }
}
