//! The names git gives what a store keeps: an object id, and a checkpoint's commit and tree.

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
