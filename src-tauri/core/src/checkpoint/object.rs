//! The names git gives what a store keeps: an object id, a checkpoint's commit and tree, and a
//! path as git prints it.

/// A git object id, as git prints it.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ObjectId(pub String);

/// The workspace as it was at one moment: its tree, and the commit that keeps it (and its
/// objects) reachable in the store.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    pub commit: ObjectId,
    pub tree: ObjectId,
}

/// A path from the bytes git prints (`-z`: as they are; elsewhere than Unix, read as UTF-8).
#[cfg(unix)]
pub(super) fn path_of(bytes: &[u8]) -> std::path::PathBuf {
    use std::os::unix::ffi::OsStrExt;
    std::path::PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
pub(super) fn path_of(bytes: &[u8]) -> std::path::PathBuf {
    std::path::PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}
