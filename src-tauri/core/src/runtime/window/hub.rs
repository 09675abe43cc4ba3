//! Where the review window meets the core: the windows attached to the channel, what they said
//! (loaded, shown), and the requests to show one, kept for the next window when none is attached;
//! and the past turn the tray asked the window to open, kept until the page takes it.

use std::path::PathBuf;
use std::sync::Mutex;
use tokio::sync::{broadcast, watch};

/// What the core asks of the attached windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Show { focus: bool },
    Quit,
}

/// The windows as the core last heard of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Presence {
    /// Windows attached to the channel now.
    pub attached: usize,
    /// The newest window said its page loaded.
    pub ready: bool,
    /// The newest window is (or, once gone, was last) shown.
    pub visible: bool,
    /// Windows that ever attached: a new one is a new number, so a watcher can tell a window
    /// that came back from one that never went.
    pub generation: u64,
}

pub struct WindowHub {
    commands: broadcast::Sender<Command>,
    presence: watch::Sender<Presence>,
    /// A show asked for while no window was attached, with focus if any asker wanted it: the
    /// next window to attach gets it.
    pending: Mutex<Option<bool>>,
    /// Why the window cannot start, while it cannot (for the tray and the log).
    problem: watch::Sender<Option<String>>,
    /// The past turn the tray's *Recent turns* asked to open (workspace, turn): the page takes
    /// it when shown (`turnAsked`), so it reaches a window that was not running yet too.
    turn_asked: Mutex<Option<(PathBuf, u64)>>,
}

impl Default for WindowHub {
    fn default() -> Self {
        WindowHub {
            commands: broadcast::channel(16).0,
            presence: watch::channel(Presence::default()).0,
            pending: Mutex::new(None),
            problem: watch::channel(None).0,
            turn_asked: Mutex::new(None),
        }
    }
}

/// A window attached to the hub: it gets the commands, and is counted until dropped.
pub struct Attached<'a> {
    hub: &'a WindowHub,
    pub commands: broadcast::Receiver<Command>,
    /// A show asked for before it attached.
    pub pending: Option<bool>,
}

impl Drop for Attached<'_> {
    fn drop(&mut self) {
        self.hub.presence.send_modify(|p| {
            p.attached = p.attached.saturating_sub(1);
            if p.attached == 0 {
                p.ready = false;
            }
        });
    }
}

impl WindowHub {
    pub fn attach(&self) -> Attached<'_> {
        // Subscribed and counted before the pending show is taken: a show asked for from here
        // on is broadcast to this window rather than kept for a later one.
        let commands = self.commands.subscribe();
        self.presence.send_modify(|p| {
            p.attached += 1;
            p.ready = false;
            p.generation += 1;
        });
        let pending = self.lock_pending().take();
        Attached {
            hub: self,
            commands,
            pending,
        }
    }

    /// Asks for the window to be shown: at once by the attached windows, else by the next one.
    /// True if a window was attached to take it.
    pub fn show(&self, focus: bool) -> bool {
        let mut pending = self.lock_pending();
        if self.presence.borrow().attached > 0
            && self.commands.send(Command::Show { focus }).is_ok()
        {
            return true;
        }
        *pending = Some(focus || pending.unwrap_or(false));
        false
    }

    /// Keeps a show for the next window to attach, even while one still counts as attached: the
    /// launcher saw that one's process end before its channel did.
    pub fn keep_for_next(&self, focus: bool) {
        let mut pending = self.lock_pending();
        *pending = Some(focus || pending.unwrap_or(false));
    }

    /// A show kept for the next window, if any (a launcher decides from it whether to start one).
    pub fn show_pending(&self) -> bool {
        self.lock_pending().is_some()
    }

    /// Tells the attached windows to end (Redline is quitting).
    pub fn quit(&self) {
        let _ = self.commands.send(Command::Quit);
    }

    pub fn note_ready(&self) {
        self.presence.send_modify(|p| p.ready = true);
    }

    pub fn note_visible(&self, visible: bool) {
        self.presence.send_modify(|p| p.visible = visible);
    }

    pub fn presence(&self) -> watch::Receiver<Presence> {
        self.presence.subscribe()
    }

    /// Records why the window cannot start (`None`: it can); true if that changed.
    pub fn set_problem(&self, problem: Option<String>) -> bool {
        self.problem.send_if_modified(|p| {
            let changed = *p != problem;
            *p = problem;
            changed
        })
    }

    /// Why the review window cannot start, while it cannot.
    pub fn problem(&self) -> watch::Receiver<Option<String>> {
        self.problem.subscribe()
    }

    /// The window is to open turn `turn` of `workspace` when next shown (the newest ask wins).
    pub fn ask_turn(&self, workspace: PathBuf, turn: u64) {
        *self.turn_asked.lock().unwrap_or_else(|e| e.into_inner()) = Some((workspace, turn));
    }

    /// The turn asked to be opened, taken: the next take has none until asked again.
    pub fn take_turn(&self) -> Option<(PathBuf, u64)> {
        self.turn_asked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    fn lock_pending(&self) -> std::sync::MutexGuard<'_, Option<bool>> {
        // A panic while holding it leaves an Option: still a valid value.
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_show_with_no_window_waits_for_the_next_one_with_the_strongest_focus() {
        let hub = WindowHub::default();
        assert!(!hub.show(true));
        assert!(!hub.show(false));
        assert!(hub.show_pending());
        let a = hub.attach();
        assert_eq!(a.pending, Some(true));
        assert!(!hub.show_pending());
    }

    #[test]
    fn a_turn_asked_is_taken_once_the_newest_winning() {
        let hub = WindowHub::default();
        assert_eq!(hub.take_turn(), None);
        hub.ask_turn("/a".into(), 1);
        hub.ask_turn("/b".into(), 2);
        assert_eq!(hub.take_turn(), Some(("/b".into(), 2)));
        assert_eq!(hub.take_turn(), None);
    }

    #[test]
    fn an_attached_window_gets_the_show_and_is_counted_until_dropped() {
        let hub = WindowHub::default();
        let mut a = hub.attach();
        assert_eq!(a.pending, None);
        assert!(hub.show(false));
        assert_eq!(
            a.commands.try_recv().ok(),
            Some(Command::Show { focus: false })
        );
        hub.note_ready();
        hub.note_visible(true);
        let p = *hub.presence().borrow();
        assert_eq!(
            (p.attached, p.ready, p.visible, p.generation),
            (1, true, true, 1)
        );
        drop(a);
        let p = *hub.presence().borrow();
        assert_eq!((p.attached, p.ready, p.visible), (0, false, true));
        assert!(!hub.show(false));
    }
}
