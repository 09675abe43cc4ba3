//! Generates the Tauri context (desktop builds only); the app's commands are declared here so
//! that each gets an `allow-…` permission and only the capabilities in `src-tauri/capabilities/`
//! grant them.

// Issue 38: no function over 60 lines (clippy.toml) outside tests; tests may be long.
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

#[cfg(feature = "desktop")]
const COMMANDS: &[&str] = &[
    "reviews_list",
    "review_update",
    "review_accept",
    "review_reject",
    "review_open_in_editor",
    "review_disk_changed",
    "review_mention",
    "review_select",
    "review_shown",
    "settings_get",
    "settings_set",
    "window_hide",
    "window_close_answer",
    "welcome",
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
