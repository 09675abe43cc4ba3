//! What the surfaces show, as data: the tray menu, `redline env`, the review window's TypeScript
//! types.

pub mod action;
pub mod bindings;
pub mod diff_pair;
pub mod diff_write;
pub mod editor_jump;
pub mod error;
pub mod menu;
pub mod shell;

pub use error::SurfaceError;
