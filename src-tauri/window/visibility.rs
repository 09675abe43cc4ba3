//! Whether the review window is shown, as the core last heard it, and which shows came when.

use tokio::sync::{Mutex, MutexGuard};

/// Held while showing or hiding, so the core hears the changes in the order they happened.
#[derive(Default)]
pub struct Visibility(Mutex<State>);

#[derive(Default)]
pub struct State {
    pub shown: bool,
    /// Shows so far: a hide asked before the latest show is out of date.
    shows: u64,
}

impl Visibility {
    pub async fn shown(&self) -> bool {
        self.0.lock().await.shown
    }

    pub async fn lock(&self) -> MutexGuard<'_, State> {
        self.0.lock().await
    }

    /// A mark for a hide that is decided on a later answer (is the queue empty?): a show that
    /// comes meanwhile (a review arrived) must win over it.
    pub async fn mark(&self) -> u64 {
        self.0.lock().await.shows
    }
}

impl State {
    pub fn showing(&mut self) {
        self.shown = true;
        self.shows += 1;
    }

    /// Whether a hide asked at `mark` still holds (`None`: asked by the user, it always does).
    pub fn may_hide(&self, mark: Option<u64>) -> bool {
        mark.is_none_or(|m| m == self.shows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_show_after_a_hide_was_asked_wins_over_it() {
        let v = Visibility::default();
        let mark = v.mark().await;
        // The page asked to hide (its list emptied); before the core answered that the queue is
        // empty, a review arrived and its pop-up was shown.
        v.lock().await.showing();
        let state = v.lock().await;
        assert!(
            !state.may_hide(Some(mark)),
            "the late hide would hide the new review"
        );
        assert!(
            state.may_hide(Some(state.shows)),
            "a hide asked after the show holds"
        );
        assert!(state.may_hide(None), "the user's own hide always holds");
    }
}
