//! The running Redline: each workspace's servers, the instance, the control channel.

pub(crate) mod bridge;
pub mod companion;
pub mod control;
pub mod instance;
