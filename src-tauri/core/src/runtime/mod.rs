//! The running Redline: each workspace's servers, the instance, the control channel.

pub mod bridge;
pub mod command;
pub mod companion;
pub mod control;
pub mod instance;
pub mod serving;
