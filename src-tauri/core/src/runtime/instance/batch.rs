//! A batch of reviews one request opened (a hook's edit, a turn's files, a `redline propose` or
//! `redline diff`), waiting for their decisions: the one type hooks, turns and local commands use.

use super::reviews::Reviews;
use crate::review::{Outcome, Reply, Review, ReviewId};
use std::future::Future;
use tokio::sync::mpsc;

/// How one review of the batch ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    /// Its place in the batch: the order the reviews were opened in.
    pub index: usize,
    pub outcome: Outcome,
    /// The final text (with the user's edits).
    pub text: String,
    /// Why the user rejected it, when they said and whoever asked can hear it.
    pub reason: Option<String>,
}

/// The reviews of one request and their decisions to come.
pub struct Batch {
    ids: Vec<ReviewId>,
    /// Lent to each review's reply; dropped when the batch starts waiting, so that the reviews
    /// going without a word (Redline stopping) end the wait instead of holding it.
    tx: Option<mpsc::UnboundedSender<Decided>>,
    rx: mpsc::UnboundedReceiver<Decided>,
    /// Replies handed out: the index of the next review.
    lent: usize,
}

impl Default for Batch {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Batch {
            ids: Vec::new(),
            tx: Some(tx),
            rx,
            lent: 0,
        }
    }
}

impl Batch {
    /// The reply for the batch's next review: it hands the decision to the batch.
    pub fn reply(&mut self) -> Reply {
        let index = self.lent;
        self.lent += 1;
        let tx = self.tx.clone();
        Box::new(move |r: &Review, outcome| {
            let reason = r.reason.clone().filter(|_| r.reason_heard);
            if let Some(tx) = tx {
                let _ = tx.send(Decided {
                    index,
                    outcome,
                    text: r.current.clone(),
                    reason,
                });
            }
        })
    }

    /// The review the last `reply` went to was opened as `id`.
    pub fn opened(&mut self, id: ReviewId) {
        self.ids.push(id);
    }

    /// The review ids, in the order they were opened.
    pub fn ids(&self) -> &[ReviewId] {
        &self.ids
    }

    /// The next decision, in the order the user makes them; `None` once every review went
    /// without one (Redline stopping).
    pub async fn next(&mut self) -> Option<Decided> {
        self.tx = None;
        self.rx.recv().await
    }

    /// Every review's end, in the order they were opened; a review that went without a word
    /// counts as dismissed.
    pub async fn all(mut self) -> Vec<Decided> {
        let mut ends: Vec<Option<Decided>> = vec![None; self.lent];
        while ends.iter().any(Option::is_none) {
            let Some(d) = self.next().await else { break };
            if let Some(slot) = ends.get_mut(d.index) {
                *slot = Some(d);
            }
        }
        ends.into_iter()
            .enumerate()
            .map(|(index, d)| {
                d.unwrap_or(Decided {
                    index,
                    outcome: Outcome::Dismissed,
                    text: String::new(),
                    reason: None,
                })
            })
            .collect()
    }

    /// `decided`, unless `gone` comes first (whoever asked went away: Ctrl-C, a hook's timeout);
    /// either way the batch's reviews go, and `None` says it went away.
    pub async fn until<V>(
        ids: &[ReviewId],
        reviews: &Reviews,
        decided: impl Future<Output = V>,
        gone: impl Future<Output = ()>,
        asker: &str,
    ) -> Option<V> {
        tokio::select! {
            v = decided => {
                reviews.dismiss_local(ids);
                Some(v)
            }
            () = gone => {
                let n = reviews.dismiss_local(ids);
                tracing::info!("{asker} went away: {n} review(s) withdrawn");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::{ClientInfo, Origin, Proposal, ReviewQueue};
    use std::path::PathBuf;

    fn proposal(name: &str) -> Proposal {
        Proposal {
            workspace: PathBuf::from("/ws"),
            origin: Origin::Propose { run: 1 },
            client: ClientInfo::default(),
            file_path: format!("/ws/{name}"),
            path: PathBuf::from(format!("/ws/{name}")),
            original: None,
            proposal: format!("{name}\n"),
            container: false,
            read_only: None,
            can_mention: false,
            reason_heard: true,
            on_disk: None,
        }
    }

    #[tokio::test]
    async fn decisions_come_back_in_the_order_opened_and_a_review_gone_unheard_is_dismissed() {
        let queue = ReviewQueue::new(std::sync::Arc::new(crate::platform::clock::SystemClock));
        let mut batch = Batch::default();
        for name in ["a", "b", "c"] {
            let id = queue.open(proposal(name), batch.reply());
            batch.opened(id);
        }
        let (a, c) = (batch.ids()[0], batch.ids()[2]);
        queue.reject(c, Some("not c".into())).unwrap();
        queue.accept(a, None, None).unwrap();
        // b's reply is dropped unanswered, as when Redline stops.
        drop(queue);

        let ends = batch.all().await;
        let outcomes: Vec<_> = ends.iter().map(|d| (d.index, d.outcome)).collect();
        assert_eq!(
            outcomes,
            [
                (0, Outcome::Accepted),
                (1, Outcome::Dismissed),
                (2, Outcome::Rejected)
            ]
        );
        assert_eq!(ends[0].text, "a\n");
        assert_eq!(ends[2].reason.as_deref(), Some("not c"));
    }
}
