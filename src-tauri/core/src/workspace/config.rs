//! The persisted list of workspaces.

use crate::error::{Error, Result};
use crate::platform::private_file;
use crate::workspace::WorkspaceError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceEntry {
    pub path: PathBuf,
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
    /// Sent to CLIs as `workspaceState.isTrusted` only when the user set it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted: Option<bool>,
    /// Containers may reach this workspace's server (off, absent, by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containers: Option<crate::workspace::container::Containers>,
}

fn enabled_by_default() -> bool {
    true
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    #[serde(default)]
    pub workspaces: Vec<WorkspaceEntry>,
    #[serde(default)]
    pub settings: crate::workspace::settings::Settings,
    /// The desktop app has shown its welcome page on a launch: later launches start in the tray.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub welcomed: bool,
    /// The machines whose reviews this desktop shows (`redline remote add`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remotes: Vec<crate::workspace::remote_entry::RemoteEntry>,
}

impl Config {
    /// Reads the config; a missing file is an empty config.
    pub fn load(path: &Path) -> Result<Config> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                WorkspaceError::Config {
                    path: path.to_owned(),
                    message: e.to_string(),
                }
                .into()
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(Error::io(path, e)),
        }
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        let mut bytes = serde_json::to_vec_pretty(self).map_err(|e| WorkspaceError::Config {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        bytes.push(b'\n');
        private_file::write(path, &bytes)
    }

    pub fn find(&self, path: &Path) -> Option<&WorkspaceEntry> {
        self.workspaces.iter().find(|w| w.path == path)
    }

    pub fn find_mut(&mut self, path: &Path) -> Option<&mut WorkspaceEntry> {
        self.workspaces.iter_mut().find(|w| w.path == path)
    }

    /// A workspace's container settings, to change; an error when containers are off there.
    pub fn containers_mut(
        &mut self,
        path: &Path,
    ) -> Result<&mut crate::workspace::container::Containers> {
        self.find_mut(path)
            .ok_or_else(|| WorkspaceError::NoSuchWorkspace(path.to_owned()))?
            .containers
            .as_mut()
            .ok_or_else(|| WorkspaceError::ContainersOff(path.to_owned()).into())
    }

    /// The config's spelling of a user-given workspace path: as given, or canonical (the
    /// directory may no longer exist on disk, so canonical form is only a second try).
    pub fn known_path(&self, path: &Path) -> Result<PathBuf> {
        if self.find(path).is_some() {
            return Ok(path.to_owned());
        }
        match dunce::canonicalize(path) {
            Ok(p) if self.find(&p).is_some() => Ok(p),
            _ => Err(WorkspaceError::NoSuchWorkspace(path.to_owned()).into()),
        }
    }

    /// The configured workspace holding `path` (the innermost one).
    pub fn innermost(&self, path: &Path) -> Result<PathBuf> {
        let resolved = dunce::canonicalize(path).map_err(|e| Error::io(path, e))?;
        self.workspaces
            .iter()
            .filter(|w| resolved.starts_with(&w.path))
            .max_by_key(|w| w.path.as_os_str().len())
            .map(|w| w.path.clone())
            .ok_or(WorkspaceError::NotInWorkspace(resolved).into())
    }

    /// Adds a workspace (enabled); the path must already be canonical.
    pub fn add(&mut self, path: PathBuf) -> Result<()> {
        if self.find(&path).is_some() {
            return Err(WorkspaceError::WorkspaceExists(path).into());
        }
        self.workspaces.push(WorkspaceEntry {
            path,
            enabled: true,
            trusted: None,
            containers: None,
        });
        Ok(())
    }

    pub fn remove(&mut self, path: &Path) -> Result<()> {
        let before = self.workspaces.len();
        self.workspaces.retain(|w| w.path != path);
        if self.workspaces.len() == before {
            return Err(WorkspaceError::NoSuchWorkspace(path.to_owned()).into());
        }
        Ok(())
    }
}

/// Why `path` (canonical) is too broad to serve without `--force`: the whole filesystem, the
/// home folder (every project in it, dotfiles and keys too), or a folder around other
/// workspaces (a CLI in one of them would find two servers, and reviews would go to either).
pub fn too_broad(path: &Path, home: &Path, workspaces: &[WorkspaceEntry]) -> Option<String> {
    if path.parent().is_none() {
        return Some("the root of the filesystem: every file on it would be open to review".into());
    }
    if dunce::canonicalize(home).is_ok_and(|h| h == path) {
        return Some(
            "your home folder: every project, dotfile and key in it would be open to review".into(),
        );
    }
    let inside: Vec<String> = workspaces
        .iter()
        .filter(|w| w.path != path && w.path.starts_with(path))
        .map(|w| w.path.display().to_string())
        .collect();
    (!inside.is_empty()).then(|| format!("around other workspaces ({})", inside.join(", ")))
}

/// `too_broad` as the error a user reads: what, why, and how to add it anyway.
pub fn refuse_broad(path: &Path, home: &Path, workspaces: &[WorkspaceEntry]) -> Result<()> {
    match too_broad(path, home, workspaces) {
        None => Ok(()),
        Some(why) => Err(Error::Usage(format!(
            "{} is {why}; to add it anyway: redline workspace add --force {}",
            path.display(),
            path.display()
        ))),
    }
}

/// The canonical form of a user-given workspace path: absolute, symlinks resolved, a directory.
pub fn canonical_dir(path: &Path) -> Result<PathBuf> {
    let canonical = dunce::canonicalize(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => WorkspaceError::NoFolder(path.to_owned()).into(),
        _ => Error::io(path, e),
    })?;
    if !canonical.is_dir() {
        return Err(Error::io(
            path,
            std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
        ));
    }
    Ok(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_duplicates_and_unknowns() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("redline/config.json");
        assert_eq!(Config::load(&file).unwrap(), Config::default());
        let mut c = Config::default();
        c.add("/a".into()).unwrap();
        assert!(matches!(
            c.add("/a".into()),
            Err(Error::Workspace(WorkspaceError::WorkspaceExists(_)))
        ));
        c.save(&file).unwrap();
        let loaded = Config::load(&file).unwrap();
        assert_eq!(loaded, c);
        assert!(loaded.workspaces[0].enabled);
        let mut loaded = loaded;
        assert!(matches!(
            loaded.remove(Path::new("/b")),
            Err(Error::Workspace(WorkspaceError::NoSuchWorkspace(_)))
        ));
        loaded.remove(Path::new("/a")).unwrap();
        assert!(loaded.workspaces.is_empty());
    }

    #[test]
    fn a_broken_file_is_a_clear_error() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("config.json");
        std::fs::write(&file, "{not json").unwrap();
        let err = Config::load(&file).unwrap_err();
        assert_eq!(err.code(), crate::error::FaultCode::Config);
        assert!(err.to_string().contains("config.json"));
    }
}
