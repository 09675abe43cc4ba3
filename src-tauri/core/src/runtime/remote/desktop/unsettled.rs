//! The decisions sent to a remote and not answered yet: written again on each new link to the
//! same run of its Redline until it says what became of them, settled as gone when it restarted.

use crate::review::{Outcome, ReviewError, ReviewId};
use crate::runtime::remote::end::random_id;
use crate::runtime::remote::protocol::{Call, Fate, FromDesktop};
use std::sync::Mutex;
use tokio::sync::{oneshot, Notify};

/// Decisions a remote may leave unanswered at once: past it a new one is refused (busy).
pub(super) const MAX_UNSETTLED: usize = 256;

/// A decision sent, and what to do when its answer comes.
struct Sent {
    decision: String,
    /// The remote's run it was made against.
    run: String,
    call: Call,
    /// The review here, and how it ends here when the remote applies it.
    desktop: ReviewId,
    outcome: Outcome,
    /// The link it was last written on (0: none yet).
    written_on: u64,
    /// Whoever waits for the answer (a command, the window), while they wait.
    told: Option<oneshot::Sender<Fate>>,
}

/// A decision answered: the review here it was about, and its end.
pub(super) struct Answered {
    pub desktop: ReviewId,
    pub outcome: Outcome,
    pub fate: Fate,
}

#[derive(Default)]
pub(super) struct Unsettled {
    sent: Mutex<Vec<Sent>>,
    added: Notify,
}

impl Unsettled {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Sent>> {
        self.sent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps `call`, made against run `run` for review `desktop` here, until it is answered;
    /// its answer comes on the receiver.
    pub fn push(
        &self,
        run: &str,
        call: Call,
        desktop: ReviewId,
        outcome: Outcome,
    ) -> Result<oneshot::Receiver<Fate>, ReviewError> {
        let (tx, rx) = oneshot::channel();
        {
            let mut sent = self.lock();
            if sent.len() >= MAX_UNSETTLED {
                return Err(ReviewError::QueueFull {
                    file: format!("review {desktop}"),
                    bound: crate::review::QueueBound::Unanswered(MAX_UNSETTLED),
                });
            }
            sent.push(Sent {
                decision: random_id(),
                run: run.to_owned(),
                call,
                desktop,
                outcome,
                written_on: 0,
                told: Some(tx),
            });
        }
        self.added.notify_one();
        Ok(rx)
    }

    /// Resolves once a decision was added since the last call (or before the first).
    pub async fn added(&self) {
        self.added.notified().await
    }

    /// The lines to write on link `link`, whose remote runs as `run`: each decision not yet
    /// written on it. Those made against another run are answered gone (returned).
    pub fn to_write(&self, link: u64, run: &str) -> (Vec<FromDesktop>, Vec<Answered>) {
        let mut sent = self.lock();
        let (stale, kept): (Vec<Sent>, Vec<Sent>) = sent.drain(..).partition(|s| s.run != run);
        *sent = kept;
        let lines = (sent.iter_mut())
            .filter(|s| s.written_on != link)
            .map(|s| {
                s.written_on = link;
                FromDesktop::Decide {
                    decision: s.decision.clone(),
                    instance: s.run.clone(),
                    call: s.call.clone(),
                }
            })
            .collect();
        drop(sent);
        let why = "Redline on that machine restarted before it answered: the review there is gone";
        let gone = stale
            .into_iter()
            .map(|s| s.answer(Fate::Gone { why: why.into() }));
        (lines, gone.collect())
    }

    /// Decision `decision` answered `fate`; `None` when it is none of these (answered before).
    pub fn settle(&self, decision: &str, fate: Fate) -> Option<Answered> {
        let mut sent = self.lock();
        let at = sent.iter().position(|s| s.decision == decision)?;
        let s = sent.remove(at);
        drop(sent);
        Some(s.answer(fate))
    }

    /// Every decision, answered gone with `why` (the remote was removed).
    pub fn drop_all(&self, why: &str) -> Vec<Answered> {
        let sent: Vec<Sent> = self.lock().drain(..).collect();
        let fate = || Fate::Gone { why: why.into() };
        sent.into_iter().map(|s| s.answer(fate())).collect()
    }
}

impl Sent {
    fn answer(mut self, fate: Fate) -> Answered {
        if let Some(told) = self.told.take() {
            let _ = told.send(fate.clone());
        }
        Answered {
            desktop: self.desktop,
            outcome: self.outcome,
            fate,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surfaces::action::ReviewReject;

    fn reject(id: ReviewId) -> Call {
        Call::ReviewReject(ReviewReject {
            id,
            reason: None,
            comments: None,
        })
    }

    #[test]
    fn a_decision_is_written_once_per_link_until_answered_and_another_run_s_are_gone() {
        let u = Unsettled::default();
        let mut told = u.push("run1", reject(4), 1, Outcome::Rejected).unwrap();
        let mut stale = u.push("run0", reject(5), 2, Outcome::Rejected).unwrap();
        let (lines, gone) = u.to_write(1, "run1");
        assert_eq!(lines.len(), 1);
        assert_eq!(gone.len(), 1);
        assert!(matches!(stale.try_recv(), Ok(Fate::Gone { .. })));
        // Not again on the same link; again on the next one, with the same decision id.
        assert!(u.to_write(1, "run1").0.is_empty());
        let again = u.to_write(2, "run1").0;
        assert_eq!(again, lines);
        let FromDesktop::Decide { decision, .. } = &lines[0] else {
            panic!("{lines:?}")
        };
        let answered = u.settle(decision, Fate::AppliedBefore).unwrap();
        assert_eq!((answered.desktop, answered.outcome), (1, Outcome::Rejected));
        assert_eq!(told.try_recv().unwrap(), Fate::AppliedBefore);
        assert!(u.settle(decision, Fate::Applied).is_none());
    }

    #[test]
    fn past_the_bound_a_decision_is_refused_busy() {
        let u = Unsettled::default();
        for id in 0..MAX_UNSETTLED as u64 {
            u.push("r", reject(id), id, Outcome::Rejected).unwrap();
        }
        let e = u.push("r", reject(0), 0, Outcome::Rejected).unwrap_err();
        assert_eq!(e.code(), crate::error::FaultCode::Busy);
        assert_eq!(u.drop_all("removed").len(), MAX_UNSETTLED);
    }
}
