//! The types every surface sees: statuses, the pin `redline env` prints, faults, turns, remotes.

pub mod fault;
pub mod remote_info;
pub mod status;
pub mod turns;
