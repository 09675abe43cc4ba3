//! What every server shares whatever its protocol: the accept loop and its caps (and, on Windows,
//! its named-pipe listener), the Host check, the limits.

pub(crate) mod accept;
pub(crate) mod host;
pub mod limits;
#[cfg(windows)]
pub(crate) mod pipe_accept;
