//! How a command reaches Redline: its request to the running instance, or with none to the
//! stored config.

use redline_core::platform::dirs::Dirs;
use redline_core::runtime::command::{self, Answer};
use redline_core::runtime::instance::World;
use redline_core::surfaces::action::Act;
use redline_core::Result;

/// The action to the running instance, or with none to the stored config; its reply typed.
pub(crate) async fn ask<A: Act>(dirs: &Dirs, req: A) -> Result<Answer<A::Reply>> {
    command::send(dirs, req, || World::os(dirs.clone())).await
}
