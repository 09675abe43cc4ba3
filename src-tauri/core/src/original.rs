//! Reads the file a proposal would replace: the "before" side of every protocol's review.

use crate::error::{Error, Result};
use std::path::Path;

/// The file's text, or `None` when it does not exist yet (a new-file review). `file_path` is the
/// path as the CLI sent it, for messages; `path` is the resolved, confined one.
pub async fn read(path: &Path, file_path: &str) -> Result<Option<String>> {
    let owned = path.to_path_buf();
    let read = tokio::task::spawn_blocking(move || std::fs::read(&owned))
        .await
        .map_err(|e| Error::io(path, std::io::Error::other(e)))?;
    match read {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(Some(text)),
            Err(_) => Err(Error::NotText(file_path.to_owned())),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(_) if path.is_dir() => Err(Error::IsDirectory(file_path.to_owned())),
        Err(e) => Err(Error::io(path, e)),
    }
}
