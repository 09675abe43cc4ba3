//! Reviews on another machine, decided on the desktop: the remote instance's end of a bridge
//! (`redline bridge`, joined to a desktop over a command's stdio such as `ssh HOST redline
//! bridge`), its messages, and the record that applies each of the desktop's decisions once.

mod counted;
pub mod decisions;
pub mod desktop;
pub(crate) mod end;
pub mod protocol;
pub(crate) mod serve;

pub use protocol::{Fate, FromDesktop, Hello, ToDesktop, PROTOCOL};
