//! The running Redline: each workspace's servers, the instance, the control channel, and the one
//! path every command takes (to the running instance, or to the stored config when none runs).

mod action;
pub(crate) mod bridge;
pub mod command;
pub mod companion;
pub mod control;
pub mod editor;
pub mod editor_command;
pub(crate) mod folders;
pub mod instance;
pub(crate) mod line;
pub mod remote;
pub mod serving;
pub mod stdio_channel;
pub mod window;
