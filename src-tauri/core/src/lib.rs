//! Redline core.
