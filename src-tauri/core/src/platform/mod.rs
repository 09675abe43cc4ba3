//! What Redline needs from the OS, injected where tests need another: clock, process table and
//! the process behind a connection, keyring and tokens, signals, private files, directories and whose
//! the runtime dir is, opening a file beneath a root.

pub(crate) mod beneath;
pub mod bundle_id;
pub mod clock;
pub mod dirs;
pub(crate) mod file_uri;
pub mod keyring;
pub mod peer;
pub(crate) mod private_file;
pub mod process;
#[cfg(unix)]
pub mod runtime_dir;
pub mod stop;
pub(crate) mod token;
