//! Redline's core: the IDE-companion servers AI coding CLIs connect to, their discovery files and
//! tokens, and the review queue. Knows nothing of Tauri; tested without a display.

pub mod accept;
mod beneath;
pub mod bindings;
pub mod bridge;
pub mod bundle_id;
pub mod clients;
pub mod clock;
pub mod companion;
pub mod config;
pub mod container;
pub mod context;
pub mod control;
pub mod diff;
pub mod dirs;
pub mod discovery;
pub mod doctor;
pub mod error;
pub mod file_uri;
pub mod host;
pub mod http;
pub mod instance;
pub mod jsonrpc;
pub mod keyring;
pub mod limits;
pub mod mcp;
pub mod menu;
pub mod original;
pub mod peer;
pub mod private_file;
pub mod process;
pub mod quota;
pub mod registry;
pub mod review;
pub mod selection;
pub mod service;
pub mod settings;
pub mod shell;
pub mod stop;
pub mod token;
pub mod workspace;
pub mod ws;

pub use error::{Error, Result};
