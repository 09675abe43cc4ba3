//! The desktop's decisions a remote instance has seen, by id, so that one sent again (the link
//! dropped before its answer came back, and the desktop repeats it) is applied at most once.

use super::protocol::Fate;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Decisions remembered: past it the oldest are forgotten. A desktop repeats a decision only
/// until it hears the answer, so only the last few links' worth matter.
pub const REMEMBERED: usize = 1024;

/// The longest decision id taken: a desktop's ids are short; a longer one is a fault.
pub const MAX_ID: usize = 128;

type Cell = Arc<OnceCell<Fate>>;

/// Each decision id seen, with what it came to once settled.
#[derive(Default)]
pub struct Decisions {
    seen: Mutex<Seen>,
}

#[derive(Default)]
struct Seen {
    by_id: HashMap<String, Cell>,
    order: VecDeque<String>,
}

impl Decisions {
    /// Settles decision `id` with `apply`, unless it was settled before (or is being settled
    /// on another link now: then its outcome once known, as `AppliedBefore` if it applied).
    pub async fn settle<F>(&self, id: &str, apply: F) -> Fate
    where
        F: Future<Output = Fate>,
    {
        let cell = self.cell(id);
        let mut ran = false;
        let settled = cell
            .get_or_init(|| async {
                ran = true;
                apply.await
            })
            .await
            .clone();
        match settled {
            Fate::Applied if !ran => Fate::AppliedBefore,
            other => other,
        }
    }

    /// The cell of `id`, made (and the oldest forgotten past `REMEMBERED`) if new.
    fn cell(&self, id: &str) -> Cell {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(cell) = seen.by_id.get(id) {
            return cell.clone();
        }
        if seen.order.len() >= REMEMBERED {
            if let Some(old) = seen.order.pop_front() {
                seen.by_id.remove(&old);
            }
        }
        let cell = Cell::default();
        seen.by_id.insert(id.to_owned(), cell.clone());
        seen.order.push_back(id.to_owned());
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn a_decision_sent_again_is_applied_once() {
        let d = Decisions::default();
        let runs = AtomicUsize::new(0);
        let apply = || async {
            runs.fetch_add(1, Ordering::SeqCst);
            Fate::Applied
        };
        assert_eq!(d.settle("a", apply()).await, Fate::Applied);
        assert_eq!(d.settle("a", apply()).await, Fate::AppliedBefore);
        assert_eq!(d.settle("b", apply()).await, Fate::Applied);
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn the_same_decision_on_two_links_at_once_runs_once() {
        let d = Decisions::default();
        let (go, wait) = tokio::sync::oneshot::channel::<()>();
        // Polled in order: the first holds the decision, the second waits on it, then the first
        // is let go.
        let first = d.settle("a", async {
            let _ = wait.await;
            Fate::Applied
        });
        let second = d.settle("a", async { panic!("applied twice") });
        let release = async {
            let _ = go.send(());
        };
        let (one, two, ()) = tokio::join!(first, second, release);
        assert_eq!((one, two), (Fate::Applied, Fate::AppliedBefore));
    }

    #[tokio::test]
    async fn a_gone_decision_stays_gone_and_old_ones_are_forgotten() {
        let d = Decisions::default();
        let gone = Fate::Gone {
            why: "closed".into(),
        };
        assert_eq!(d.settle("g", async { gone.clone() }).await, gone);
        assert_eq!(d.settle("g", async { Fate::Applied }).await, gone);
        for i in 0..REMEMBERED {
            d.settle(&i.to_string(), async { Fate::Applied }).await;
        }
        assert_eq!(d.settle("g", async { Fate::Applied }).await, Fate::Applied);
    }
}
