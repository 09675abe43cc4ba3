//! How a command reaches Redline: its request to the running instance (or, with none, to the
//! stored config), with the paths it names made absolute against the current directory.

use redline_core::platform::dirs::Dirs;
use redline_core::runtime::command::{self, Answer};
use redline_core::runtime::control::Request;
use redline_core::runtime::instance::World;
use redline_core::{Error, Result};
use std::path::{Path, PathBuf};

/// The request to the running instance, or with none to the stored config.
pub(crate) async fn ask(dirs: &Dirs, req: Request) -> Result<Answer> {
    command::send(dirs, req, || World::os(dirs.clone())).await
}

pub(crate) fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).map_err(|e| Error::io(p, e))
}

pub(crate) fn current_dir() -> Result<PathBuf> {
    std::env::current_dir().map_err(|e| Error::io(".", e))
}
