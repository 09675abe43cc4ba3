//! What taking Codex's socket or pipe came to.

use std::path::PathBuf;

/// What taking Codex's socket or pipe came to.
#[derive(Debug)]
pub enum Binding<B> {
    /// Ours: served until stop, then removed.
    Bound(B),
    /// Something else answers on it: it is left alone.
    Held(PathBuf),
    /// Not served, and why (said once in the log).
    Refused(String),
}
