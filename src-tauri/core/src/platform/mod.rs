//! What Redline needs from the OS, injected so tests use temp dirs and real sockets: clock, process table, keyring and tokens, signals, private files, directories.

pub(crate) mod beneath;
pub mod clock;
pub mod dirs;
pub(crate) mod file_uri;
pub mod keyring;
pub mod peer;
pub(crate) mod private_file;
pub mod process;
pub mod stop;
pub(crate) mod token;
