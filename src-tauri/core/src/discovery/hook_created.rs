//! The CLI configs `redline hooks install` created (no file was there), recorded in Redline's
//! config directory, so `uninstall` removes such a file once it holds nothing but what install
//! put in it, and never removes a file the user had before install, whatever it holds.

use super::hook_config;
use crate::clients::HookCli;
use crate::discovery::DiscoveryError;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The record: a JSON list of the configs' paths, in Redline's config directory.
fn record_file(config_dir: &Path) -> PathBuf {
    config_dir.join("hook-configs-created.json")
}

fn read(config_dir: &Path) -> Result<Vec<PathBuf>> {
    let at = record_file(config_dir);
    match std::fs::read(&at) {
        // A record that is not a list of paths is no record: no file is removed on its word.
        Ok(bytes) => Ok(serde_json::from_slice(&bytes).unwrap_or_default()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(vec![]),
        Err(e) => Err(Error::io(&at, e)),
    }
}

fn write(config_dir: &Path, files: &[PathBuf]) -> Result<()> {
    let at = record_file(config_dir);
    let text = serde_json::to_vec_pretty(files).map_err(|e| DiscoveryError::HookConfig {
        path: at.clone(),
        why: e.to_string(),
    })?;
    crate::platform::private_file::write(&at, &text)
}

/// Notes that install created `file` (it was not there before).
pub fn record(config_dir: &Path, file: &Path) -> Result<()> {
    let mut files = read(config_dir)?;
    if !files.iter().any(|f| f == file) {
        files.push(file.to_owned());
        write(config_dir, &files)?;
    }
    Ok(())
}

/// After `uninstall` took Redline's hook out of `file`: removes the file if install created it
/// and it holds nothing else, and forgets it either way (what is left in it now is the user's).
/// True: the file was removed.
pub fn forget(config_dir: &Path, site: &HookCli, file: &Path) -> Result<bool> {
    let mut files = read(config_dir)?;
    let Some(i) = files.iter().position(|f| f == file) else {
        return Ok(false);
    };
    let empty = hook_config::holds_nothing_else(site, file)?;
    if empty {
        std::fs::remove_file(file).map_err(|e| Error::io(file, e))?;
    }
    files.remove(i);
    write(config_dir, &files)?;
    Ok(empty)
}
