//! `redline-window`: the review window, a Tauri app that `redline` starts as a child process. It
//! shows what the core sends over the window channel and sends back what the user does; it
//! reads no workspace file itself.

// A window, not a console program: on Windows no console opens beside it (its stderr is still
// the pipe the launcher reads).
#![cfg_attr(windows, windows_subsystem = "windows")]

mod app;
mod commands;
mod events;
mod idle;
mod queue;
mod view;
mod visibility;
mod web_process;

fn main() -> std::process::ExitCode {
    app::main()
}
