//! A user's config file replaced with an edited text of itself, atomically, keeping what the
//! user set on it: its mode and owner, and a link to it (the link's target gets the change).

use crate::discovery::DiscoveryError;
use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Writes `text` over `file` (through a link), or creates it private (0600) when it is not there.
pub(super) fn write(file: &Path, text: &[u8]) -> Result<()> {
    let target = super::hook_entry::through(file)?;
    let meta = match std::fs::metadata(&target) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return crate::platform::private_file::write(&target, text)
        }
        Err(e) => return Err(Error::io(&target, e)),
    };
    let dir = target.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile_in(dir)?;
    let result = (|| -> std::io::Result<()> {
        keep(&tmp.1, &meta)?;
        tmp.1.write_all(text)?;
        tmp.1.sync_all()?;
        std::fs::rename(&tmp.0, &target)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp.0);
        return Err(DiscoveryError::HookConfig {
            path: target.clone(),
            why: format!("it could not be replaced keeping its mode and owner ({e})"),
        }
        .into());
    }
    Ok(())
}

/// A new, empty file in `dir` only this user may open yet.
fn tempfile_in(dir: &Path) -> Result<(std::path::PathBuf, std::fs::File)> {
    let mut suffix = [0u8; 8];
    getrandom::fill(&mut suffix)
        .map_err(|e| Error::io(dir, std::io::Error::other(e.to_string())))?;
    let name: String = suffix.iter().map(|b| format!("{b:02x}")).collect();
    let path = dir.join(format!(".redline-{name}.tmp"));
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let file = opts.open(&path).map_err(|e| Error::io(&path, e))?;
    Ok((path, file))
}

/// Gives `tmp` the original's owner, then its mode (after the owner: a change of owner may
/// clear set-id bits).
#[cfg(unix)]
fn keep(tmp: &std::fs::File, meta: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let own = tmp.metadata()?;
    if (own.uid(), own.gid()) != (meta.uid(), meta.gid()) {
        std::os::unix::fs::fchown(tmp, Some(meta.uid()), Some(meta.gid()))?;
    }
    tmp.set_permissions(std::fs::Permissions::from_mode(meta.mode() & 0o7777))
}

/// Windows: the new file inherits the folder's ACL, as the original did.
#[cfg(not(unix))]
fn keep(_: &std::fs::File, _: &std::fs::Metadata) -> std::io::Result<()> {
    Ok(())
}
