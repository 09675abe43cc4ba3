//! Another machine's reviews shown in this machine's queue: each remote review one review here
//! (its own id), opened, replaced and dropped as the remote says, within one workspace's
//! bounds; its paths are labels only, and its CLI is told by the remote, never from here.

use super::said::label;
use crate::review::original::Original;
use crate::review::quota::{MAX_QUEUED_BYTES, MAX_REVIEWS_PER_WORKSPACE};
use crate::review::{ClientInfo, Detail, Origin, Outcome, Proposal, ReadOnly, ReviewId};
use crate::review::{ReviewKind, ReviewQueue};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

/// One remote's reviews as this machine shows them.
pub(super) struct Mirror {
    remote: String,
    state: Mutex<Shown>,
}

#[derive(Default)]
struct Shown {
    /// The remote's run the reviews are of.
    run: Option<String>,
    /// By the remote's id.
    each: HashMap<ReviewId, Copy>,
}

/// One remote review shown here.
#[derive(Clone, Copy)]
struct Copy {
    here: ReviewId,
    /// The remote's revision of the proposal: an accept names it there.
    revision: u64,
    bytes: usize,
}

/// What an accept or reject of a review shown here says to the remote.
pub(super) struct Theirs {
    pub run: String,
    pub id: ReviewId,
    pub revision: u64,
}

impl Mirror {
    pub fn new(remote: &str) -> Mirror {
        Mirror {
            remote: remote.to_owned(),
            state: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Shown> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The remote's reviews as its snapshot after a hello lists them, of its run `run`: what
    /// is shown here already stays (same id), what ended meanwhile goes, the rest is added.
    pub fn reconcile(&self, queue: &ReviewQueue, run: &str, reviews: Vec<Detail>) {
        let mut shown = self.lock();
        if shown.run.as_deref() != Some(run) {
            drop_all(queue, &mut shown);
            shown.run = Some(run.to_owned());
        }
        let listed: Vec<ReviewId> = reviews.iter().map(|d| d.id).collect();
        let ended: Vec<ReviewId> = (shown.each.keys())
            .filter(|id| !listed.contains(id))
            .copied()
            .collect();
        for id in ended {
            if let Some(copy) = shown.each.remove(&id) {
                queue.dismiss(|r| r.id == copy.here);
            }
        }
        for detail in reviews {
            self.show_locked(queue, &mut shown, detail);
        }
    }

    /// A review the remote added or changed.
    pub fn show(&self, queue: &ReviewQueue, detail: Detail) {
        let mut shown = self.lock();
        self.show_locked(queue, &mut shown, detail)
    }

    fn show_locked(&self, queue: &ReviewQueue, shown: &mut Shown, detail: Detail) {
        let Some(run) = shown.run.clone() else {
            return;
        };
        let bytes = detail.original.len() + detail.proposal.len();
        let before = shown.each.get(&detail.id).copied();
        if before.is_some_and(|c| c.revision == detail.revision) {
            return;
        }
        let others = shown
            .each
            .values()
            .filter(|c| Some(c.here) != before.map(|b| b.here));
        let (count, held) = others.fold((0, 0usize), |(n, b), c| (n + 1, b + c.bytes));
        if count >= MAX_REVIEWS_PER_WORKSPACE || held.saturating_add(bytes) > MAX_QUEUED_BYTES {
            tracing::warn!(
                remote = %self.remote,
                "review {} of {} not shown: this machine shows at most {MAX_REVIEWS_PER_WORKSPACE} \
                 of a remote's reviews, {} MiB of text",
                detail.id,
                self.remote,
                MAX_QUEUED_BYTES >> 20
            );
            return;
        }
        let (id, revision) = (detail.id, detail.revision);
        let here = queue.open(self.proposal(&run, detail), Box::new(|_, _| {}));
        shown.each.insert(
            id,
            Copy {
                here,
                revision,
                bytes,
            },
        );
    }

    /// The remote's review `id` ended there (`outcome`): it ends here too.
    pub fn ended(&self, queue: &ReviewQueue, id: ReviewId, outcome: Outcome) {
        let copy = self.lock().each.remove(&id);
        if let Some(copy) = copy {
            end_here(queue, copy.here, outcome);
        }
    }

    /// The review shown here as `here` was decided and applied there: it ends here.
    pub fn decided(&self, queue: &ReviewQueue, here: ReviewId, outcome: Outcome) {
        self.lock().each.retain(|_, c| c.here != here);
        end_here(queue, here, outcome);
    }

    /// Every review shown for this remote ends here (the remote was removed).
    pub fn clear(&self, queue: &ReviewQueue) {
        drop_all(queue, &mut self.lock());
    }

    /// How many of the remote's reviews are shown here.
    pub fn len(&self) -> usize {
        self.lock().each.len()
    }

    /// The remote's review behind review `here`, as a decision names it there.
    pub fn theirs(&self, here: ReviewId) -> Option<Theirs> {
        let shown = self.lock();
        let run = shown.run.clone()?;
        let (id, copy) = shown.each.iter().find(|(_, c)| c.here == here)?;
        Some(Theirs {
            run,
            id: *id,
            revision: copy.revision,
        })
    }

    /// The review here of `detail`: its texts, its labels (`said::label`: no control character),
    /// and who proposed it in words; no process of the remote's (its pid means nothing here),
    /// no file of this machine.
    fn proposal(&self, run: &str, d: Detail) -> Proposal {
        let turn = d.kind == ReviewKind::Turn;
        let client = ClientInfo {
            name: label(&d.client.label()),
            ..ClientInfo::default()
        };
        let original = (!d.new_file).then_some(Original {
            text: d.original,
            utf8: !d.original_not_utf8,
            binary: d.original_binary,
        });
        Proposal {
            workspace: label(&d.workspace).into(),
            origin: Origin::Remote {
                remote: self.remote.clone(),
                run: run.to_owned(),
                id: d.id,
            },
            client,
            file_path: label(&d.file_path),
            path: label(&d.path).into(),
            original,
            proposal: d.proposal,
            container: d.container,
            read_only: (d.read_only).map(|said| ReadOnly::Remote {
                said: label(&said),
                turn,
                checkpointed: d.turn_id,
            }),
            can_mention: false,
            on_disk: None,
            reason_heard: d.reason_heard,
        }
    }
}

fn drop_all(queue: &ReviewQueue, shown: &mut Shown) {
    let here: Vec<ReviewId> = shown.each.drain().map(|(_, c)| c.here).collect();
    queue.dismiss(|r| here.contains(&r.id));
}

/// Ends review `here` as `outcome` (dismissed when the queue cannot end it so: an empty text).
fn end_here(queue: &ReviewQueue, here: ReviewId, outcome: Outcome) {
    if queue.resolve(here, outcome).is_err() {
        queue.dismiss(|r| r.id == here);
    }
}
