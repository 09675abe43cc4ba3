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
        RemoteEnd {
            run: random_id(),
            decisions: Decisions::default(),
            beat,
        }
    }
}

/// 16 hex digits, random: a run's id, a decision's.
pub(crate) fn random_id() -> String {
    let mut bytes = [0u8; 8];
    // Without randomness the id is told apart by the clock, which is enough here: a run's only
    // has to differ from the last run's, a decision's from the ones still unanswered.
    if getrandom::fill(&mut bytes).is_err() {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        bytes = (now.as_nanos() as u64).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
