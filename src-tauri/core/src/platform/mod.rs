//! What Redline needs from the OS, injected where tests need another: clock, process table and
//! the process behind a connection (with the npm package it runs), keyring and tokens, signals,
//! private files and the folders that may hold them, small files a peer planted, children run to a deadline, directories and whose
//! the runtime dir is, opening a file beneath a root, and writing files in a folder opened
//! beneath one; the desktop app's log and session when it runs in the background; on Windows,
//! users as SIDs and named pipes only this user may open.

pub mod background;
pub(crate) mod beneath;
pub mod bundle_id;
pub(crate) mod child;
pub mod clock;
pub mod dirs;
pub mod display;
pub mod error;
pub(crate) mod file_uri;
pub(crate) mod folder;
pub mod keyring;
mod lookups;
#[cfg(unix)]
pub mod own_user;
pub(crate) mod package;
pub mod peer;
pub(crate) mod private_file;
#[cfg(windows)]
pub(crate) mod private_pipe;
pub mod process;
#[cfg(unix)]
pub mod runtime_dir;
#[cfg(unix)]
pub(crate) mod safe_dir;
pub mod shell_word;
#[cfg(windows)]
pub(crate) mod sid;
pub(crate) mod small_file;
pub mod stop;
pub mod tcp_owner;
pub(crate) mod token;

pub use error::PlatformError;
