//! Generates the Tauri context (desktop builds only); the app's commands are declared here so
//! that each gets an `allow-…` permission and only the capabilities in `src-tauri/capabilities/`
//! grant them.

// Issue 38: no function over 60 lines (clippy.toml) outside tests; tests may be long.
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

#[cfg(feature = "desktop")]
const COMMANDS: &[&str] = &[
    // Every action the page may ask (the action list's `Page` ones), by name.
    "call",
    // The window's own: they act on the window or the user's screen before asking the core.
    "window_hide",
    "window_close_answer",
    "workspace_add",
];

#[cfg(not(feature = "desktop"))]
fn main() {}

#[cfg(feature = "desktop")]
fn main() {
    let attrs = tauri_build::Attributes::new()
        .capabilities_path_pattern("src-tauri/capabilities/*.json")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attrs) {
        panic!("tauri-build: {e:#}");
    }
}
