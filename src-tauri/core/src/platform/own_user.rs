//! The user this process runs as (its effective uid): the owner every private file, dir and
//! socket Redline creates or trusts must have.

pub fn own_uid() -> u32 {
    // SAFETY: geteuid cannot fail and touches no memory.
    unsafe { libc::geteuid() }
}
