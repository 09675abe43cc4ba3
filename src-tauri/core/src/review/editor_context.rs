//! One workspace's latest editor state: who set it, and a signal for the context push to follow.

use crate::review::editor::EditorState;
use std::sync::Mutex;
use tokio::sync::watch;

/// Who set the editor state: an editor channel's id, or none for one-shot commands (whose
/// state stays until replaced, as no channel closing can clear it).
pub type Owner = Option<u64>;

pub struct EditorContext {
    state: Mutex<Option<(Owner, EditorState)>>,
    changed: watch::Sender<u64>,
}

impl Default for EditorContext {
    fn default() -> Self {
        EditorContext {
            state: Mutex::new(None),
            changed: watch::channel(0).0,
        }
    }
}

impl EditorContext {
    pub fn get(&self) -> Option<EditorState> {
        self.lock().as_ref().map(|(_, s)| s.clone())
    }

    /// Replaces the state; false if it was the same.
    pub fn set(&self, owner: Owner, state: EditorState) -> bool {
        let mut slot = self.lock();
        if slot.as_ref().is_some_and(|(_, s)| s.files == state.files) {
            return false;
        }
        *slot = Some((owner, state));
        drop(slot);
        self.changed.send_modify(|n| *n += 1);
        true
    }

    /// Who set the state, if there is one.
    pub fn owner(&self) -> Option<Owner> {
        self.lock().as_ref().map(|(o, _)| *o)
    }

    /// The editor channel `owner` closed: its state goes, unless another editor's replaced it.
    /// Returns the state that went.
    pub fn clear(&self, owner: u64) -> Option<EditorState> {
        let mut slot = self.lock();
        if slot.as_ref().is_some_and(|(o, _)| *o == Some(owner)) {
            let gone = slot.take().map(|(_, s)| s);
            drop(slot);
            self.changed.send_modify(|n| *n += 1);
            return gone;
        }
        None
    }

    /// Wakes when the state changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(Owner, EditorState)>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}
