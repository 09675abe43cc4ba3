//! Redline's core: the IDE-companion servers AI coding CLIs connect to, their discovery files and
//! tokens, and the review queue. Knows nothing of Tauri; tested without a display.
//!
//! Layers, lowest first; a module imports only from the layers below it (docs/architecture.md).

// Issue 38: no function over 60 lines (clippy.toml) outside tests; tests may be long.
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

pub(crate) mod error;

pub mod clients;
pub mod platform;

pub mod api;
pub mod workspace;

pub mod checkpoint;

pub mod review;

pub mod discovery;
pub mod net;

pub mod protocols;

pub mod doctor;
pub mod surfaces;

pub mod runtime;

pub use error::{ControlFailure, Error, FaultCode, Result};
