//! Files only the user may read: created 0600 atomically, in directories created 0700.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Creates `dir` and any missing parents with mode 0700; existing ones are left as they are.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|e| Error::io(dir, e))
}

/// Writes `bytes` to `path` so that no reader ever sees a partial file or wider permissions:
/// a 0600 temp file in the same directory, synced, then renamed over the target.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    ensure_dir(dir)?;
    let mut suffix = [0u8; 8];
    getrandom::fill(&mut suffix)
        .map_err(|e| Error::io(dir, std::io::Error::other(e.to_string())))?;
    let tmp = dir.join(format!(
        ".redline-{}.tmp",
        suffix
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    ));
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let result = (|| {
        let mut file = opts.open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn writes_0600_in_new_0700_dirs_and_replaces_atomically() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a/b/file.json");
        write(&path, b"one").unwrap();
        write(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&tmp.path().join("a")), 0o700);
        assert_eq!(mode(&tmp.path().join("a/b")), 0o700);
        let leftovers = std::fs::read_dir(tmp.path().join("a/b")).unwrap().count();
        assert_eq!(leftovers, 1, "no temp file left behind");
    }
}
