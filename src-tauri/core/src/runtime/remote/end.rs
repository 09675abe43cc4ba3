//! What an instance keeps for the bridges it serves: its run's id, the desktop's decisions seen,
//! and the heartbeat's spells.

use super::decisions::Decisions;
use crate::net::limits::Beat;

/// What the instance keeps for the bridges it serves: its run's id and the decisions seen.
pub struct RemoteEnd {
    /// This run of the instance (`Hello::instance`), random.
    pub run: String,
    pub decisions: Decisions,
    pub beat: Beat,
}

impl RemoteEnd {
    pub fn new(beat: Beat) -> RemoteEnd {
        let mut bytes = [0u8; 8];
        // Without randomness the run is told apart by the clock, which is enough to tell a
        // restart (the id only has to differ from the last run's).
        if getrandom::fill(&mut bytes).is_err() {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            bytes = (now.as_nanos() as u64).to_le_bytes();
        }
        RemoteEnd {
            run: bytes.iter().map(|b| format!("{b:02x}")).collect(),
            decisions: Decisions::default(),
            beat,
        }
    }
}
