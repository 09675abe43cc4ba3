//! `redline-window`: the review window, a Tauri app that `redline` starts as a child process. It
//! shows what the core sends over the window channel and sends back what the user does; it
//! reads no workspace file itself.

// Issue 38: no function over 60 lines (clippy.toml) outside tests; tests may be long.
#![cfg_attr(not(test), warn(clippy::too_many_lines))]
// A window, not a console program: on Windows no console opens beside it (its stderr is still
// the pipe the launcher reads).
#![cfg_attr(windows, windows_subsystem = "windows")]

#[cfg(feature = "desktop")]
mod app;
#[cfg(feature = "desktop")]
mod commands;
#[cfg(feature = "desktop")]
#[path = "../display.rs"]
mod display;
#[cfg(feature = "desktop")]
mod events;
#[cfg(feature = "desktop")]
mod idle;
#[cfg(feature = "desktop")]
mod queue;
#[cfg(feature = "desktop")]
mod view;
#[cfg(feature = "desktop")]
mod visibility;
#[cfg(feature = "desktop")]
mod web_process;

#[cfg(feature = "desktop")]
fn main() -> std::process::ExitCode {
    app::main()
}

/// A headless build has no review window.
#[cfg(not(feature = "desktop"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "redline-window: this build of Redline has no review window (built without `desktop`)"
    );
    std::process::ExitCode::from(2)
}
