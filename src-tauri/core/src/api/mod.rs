//! The types every surface sees: statuses, the pin `redline env` prints, faults.

pub mod fault;
pub mod status;
