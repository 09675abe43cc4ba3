//! The desktop's end of its links to other machines (`redline remote add`): each remote's
//! command run, and run again with a backoff when it ends; its reviews shown in this machine's
//! queue; the user's decisions carried back and applied there once (docs/remote.md).

mod asked;
mod attached;
mod far;
pub mod far_install;
mod kept;
mod mirror;
mod said;
pub mod shorthand;
mod unsettled;

pub use kept::Remotes;
