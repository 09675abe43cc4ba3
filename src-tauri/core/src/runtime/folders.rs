//! Copilot CLI's folder locks, in one place. Copilot CLI connects by itself only from a folder a
//! discovery file (its lock) names exactly, so each of its sessions started in a subfolder of a
//! workspace gets a lock of its own, written while the session lives:
//! - `sessions`: the folders the CLIs' sessions run in, read off their records;
//! - `locks`: the locks one workspace keeps (`FolderLocks`, held by its companion);
//! - `follow`: the task that looks at the sessions and has each workspace keep its locks.

mod follow;
mod locks;
mod sessions;

pub(crate) use follow::follow;
pub(crate) use locks::FolderLocks;
pub(crate) use sessions::inside;
