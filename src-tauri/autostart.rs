//! "Start at login": the OS's login item for `redline`, written as tauri-plugin-autostart 2.x
//! wrote it (same name, same path, a LaunchAgent on macOS), so an entry a user enabled with an
//! older Redline still reads as enabled and is the one turned off.

use auto_launch::{AutoLaunch, AutoLaunchBuilder, MacOSLaunchMode};

/// The name the plugin took: the app's `productName` (tauri.conf.json).
const APP_NAME: &str = "Redline";

fn login_item() -> Result<AutoLaunch, String> {
    let exe = std::env::current_exe().map_err(|e| format!("where redline runs from: {e}"))?;
    // As the plugin: the AppImage itself on Linux (the mounted exe goes at unmount), the
    // resolved path on macOS, the path as started elsewhere (Windows' canonical form would
    // write a `\\?\` path into the registry).
    let appimage = std::env::var_os("APPIMAGE").filter(|_| cfg!(target_os = "linux"));
    let path = match appimage {
        Some(image) => std::path::PathBuf::from(image),
        None if cfg!(target_os = "macos") => exe.canonicalize().unwrap_or(exe),
        None => exe,
    };
    AutoLaunchBuilder::new()
        .set_app_name(APP_NAME)
        .set_app_path(&path.display().to_string())
        .set_args(&[] as &[&str])
        .set_macos_launch_mode(MacOSLaunchMode::LaunchAgent)
        .build()
        .map_err(|e| e.to_string())
}

/// Whether Redline starts at login (false if that cannot be read).
pub fn is_enabled() -> bool {
    login_item().and_then(|l| l.is_enabled().map_err(|e| e.to_string())) == Ok(true)
}

/// Turns starting at login on if it is off, off if it is on.
pub fn toggle() -> Result<(), String> {
    let item = login_item()?;
    let result = if item.is_enabled().unwrap_or(false) {
        match item.disable() {
            // Already gone: off is what was asked.
            Err(auto_launch::Error::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    } else {
        item.enable()
    };
    result.map_err(|e| format!("start at login: {e}"))
}
