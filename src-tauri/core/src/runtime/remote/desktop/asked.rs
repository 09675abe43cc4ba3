//! The calls asked of a remote's instance on its link and not answered yet (its workspaces, a
//! turn review's files and undo): each answered by its reply, or failed when the link ends (a
//! call is never sent again on the next link: an undo must not run twice).

use crate::runtime::remote::protocol::{Call, FromDesktop};
use crate::runtime::window::message::Returned;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};
use tokio::sync::{oneshot, Notify};

/// Calls one remote may have unanswered at once (as many as its instance carries out at once).
pub(super) const MAX_ASKED: usize = 32;

#[derive(Default)]
pub(super) struct Asked {
    state: Mutex<State>,
    added: Notify,
}

#[derive(Default)]
struct State {
    next: u64,
    unsent: VecDeque<(u64, Call)>,
    waiting: HashMap<u64, oneshot::Sender<Returned>>,
}

impl Asked {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `call`, to be written on the link; its answer comes on the receiver (dropped unanswered
    /// when the link ends). `None` past `MAX_ASKED`.
    pub fn push(&self, call: Call) -> Option<oneshot::Receiver<Returned>> {
        let (tx, rx) = oneshot::channel();
        {
            let mut s = self.lock();
            if s.waiting.len() >= MAX_ASKED {
                return None;
            }
            s.next += 1;
            let id = s.next;
            s.unsent.push_back((id, call));
            s.waiting.insert(id, tx);
        }
        self.added.notify_one();
        Some(rx)
    }

    /// Resolves once a call was added since the last call (or before the first).
    pub async fn added(&self) {
        self.added.notified().await
    }

    /// The calls not yet written, as lines.
    pub fn unsent(&self) -> Vec<FromDesktop> {
        let unsent: Vec<(u64, Call)> = self.lock().unsent.drain(..).collect();
        unsent
            .into_iter()
            .map(|(id, call)| FromDesktop::Call { id, call })
            .collect()
    }

    /// The reply to call `id` (one that is no call's is dropped).
    pub fn answered(&self, id: u64, answer: Returned) {
        if let Some(tx) = self.lock().waiting.remove(&id) {
            let _ = tx.send(answer);
        }
    }

    /// The link ended: every call still waiting fails.
    pub fn drop_all(&self) {
        let mut s = self.lock();
        s.unsent.clear();
        s.waiting.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surfaces::action::WorkspaceList;

    #[test]
    fn each_call_is_written_once_answered_by_its_id_and_failed_when_the_link_ends() {
        let a = Asked::default();
        let mut one = a.push(WorkspaceList {}.into()).unwrap();
        let mut two = a.push(WorkspaceList {}.into()).unwrap();
        let lines = a.unsent();
        assert_eq!(lines.len(), 2);
        assert!(a.unsent().is_empty());
        let FromDesktop::Call { id, .. } = &lines[1] else {
            panic!("{lines:?}")
        };
        a.answered(*id, Returned::Ok(serde_json::json!([])));
        a.answered(99, Returned::Ok(serde_json::Value::Null));
        assert_eq!(two.try_recv().unwrap(), Returned::Ok(serde_json::json!([])));
        a.drop_all();
        assert!(one.try_recv().is_err(), "failed with the link");
        for _ in 0..MAX_ASKED {
            assert!(a.push(WorkspaceList {}.into()).is_some());
        }
        assert!(a.push(WorkspaceList {}.into()).is_none());
    }
}
