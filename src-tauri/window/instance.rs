//! The core's running instance as the desktop app holds it (Tauri-managed state): how the tray,
//! the window and the event forwarders reach it.

use redline_core::runtime::instance::Instance;
use std::sync::Arc;
use tauri::{AppHandle, Manager};

pub(crate) fn instance(app: &AppHandle) -> Arc<Instance> {
    app.state::<Arc<Instance>>().inner().clone()
}
