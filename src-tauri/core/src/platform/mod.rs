//! What Redline needs from the OS, injected so tests use temp dirs and real sockets: clock, process table, keyring and tokens, signals, private files, directories.

pub mod beneath;
pub mod bundle_id;
pub mod clock;
pub mod dirs;
pub mod file_uri;
pub mod keyring;
pub mod peer;
pub mod private_file;
pub mod process;
pub mod stop;
pub mod token;
