//! The selection debounce: changes closer together than `DEBOUNCE` go out once, the latest.

use crate::review::selection::DEBOUNCE;
use tokio::sync::watch;
use tokio::time::Instant;

/// The connection's latest selection, handed out at most once per `DEBOUNCE`.
pub(super) struct Debounce<T> {
    latest: watch::Receiver<Option<T>>,
    /// When the first change not yet handed out is due; `None` while none waits.
    due: Option<Instant>,
}

impl<T: Clone> Debounce<T> {
    pub fn new(latest: watch::Receiver<Option<T>>) -> Self {
        Debounce { latest, due: None }
    }

    /// The latest selection, `DEBOUNCE` after the first change since the last one handed out.
    /// Cancel-safe: what it waits for lives in `self`, so a `select!` may drop it at any await.
    pub async fn next(&mut self) -> T {
        loop {
            match self.due {
                None => {
                    if self.latest.changed().await.is_err() {
                        // The connection's entry is gone: no selection comes any more.
                        std::future::pending::<()>().await;
                    }
                    self.due = Some(Instant::now() + DEBOUNCE);
                }
                Some(at) => {
                    tokio::time::sleep_until(at).await;
                    self.due = None;
                    if let Some(latest) = self.latest.borrow_and_update().clone() {
                        return latest;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn changes_within_the_window_go_out_once_the_latest() {
        let (tx, rx) = watch::channel(None);
        let mut debounce = Debounce::new(rx);
        let start = Instant::now();
        for n in 1..=3 {
            tx.send(Some(n)).unwrap();
        }
        assert_eq!(debounce.next().await, 3);
        assert!(start.elapsed() >= DEBOUNCE, "held for the window");
        // Nothing new, nothing out; a change afterwards opens a new window.
        let none = tokio::time::timeout(DEBOUNCE * 2, debounce.next()).await;
        assert!(none.is_err(), "{none:?}");
        tx.send(Some(4)).unwrap();
        let again = Instant::now();
        assert_eq!(debounce.next().await, 4);
        assert!(again.elapsed() >= DEBOUNCE);
    }

    #[tokio::test]
    async fn a_wait_dropped_midway_keeps_its_due_time() {
        let (tx, rx) = watch::channel(None);
        let mut debounce = Debounce::new(rx);
        tx.send(Some("a")).unwrap();
        // As `select!` drops it when another branch wins first.
        match tokio::time::timeout(Duration::from_millis(1), debounce.next()).await {
            Err(_) => assert!(debounce.due.is_some(), "the change is still due"),
            // A machine stalled past the window: it went out, as it should.
            Ok(v) => assert_eq!(v, "a"),
        }
        if debounce.due.is_some() {
            assert_eq!(debounce.next().await, "a");
        }
        assert!(debounce.due.is_none());
        tx.send(None).unwrap();
        let skipped = tokio::time::timeout(DEBOUNCE * 2, debounce.next()).await;
        assert!(skipped.is_err(), "no selection is nothing to send");
    }
}
