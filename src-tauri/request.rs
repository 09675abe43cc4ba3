//! How a command reaches Redline: its request to the running instance, or with none to the
//! stored config.

use redline_core::platform::dirs::Dirs;
use redline_core::runtime::command::{self, Answer};
use redline_core::runtime::control::Request;
use redline_core::runtime::instance::World;
use redline_core::Result;

/// The request to the running instance, or with none to the stored config.
pub(crate) async fn ask(dirs: &Dirs, req: Request) -> Result<Answer> {
    command::send(dirs, req, || World::os(dirs.clone())).await
}
