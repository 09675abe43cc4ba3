//! What every server shares whatever its protocol: the accept loop and its caps, the Host check,
//! the limits.

pub(crate) mod accept;
pub(crate) mod host;
pub mod limits;
