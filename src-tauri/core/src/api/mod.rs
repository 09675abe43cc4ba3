//! The types every surface sees: statuses, the pin `redline env` prints, faults, turns.

pub mod fault;
pub mod status;
pub mod turns;
