//! The main thread as the Tokio side reaches it: the tray's objects live there (they are not
//! `Send`, and GTK and AppKit want their own thread), so the rest hands it events.

use crate::outcome::Outcome;
use redline_core::surfaces::menu::Item;
use redline_core::Error;
use tao::event_loop::EventLoopProxy;
use tokio::sync::oneshot;

/// What the main thread's event loop is handed.
pub enum Event {
    /// The menu for the current state, and whether reviews wait (the icon's badge).
    Menu { items: Vec<Item>, pending: bool },
    /// Something that must start on the main thread (a dialog, the clipboard).
    Run(Box<dyn FnOnce() + Send>),
    /// Redline has stopped, or never started (a second launch): the loop ends with this.
    Done(Result<Outcome, Error>),
}

#[derive(Clone)]
pub struct MainThread(EventLoopProxy<Event>);

impl MainThread {
    pub fn new(proxy: EventLoopProxy<Event>) -> Self {
        MainThread(proxy)
    }

    /// Hands `event` to the loop; dropped once the loop has ended (nothing is left to show it).
    pub fn send(&self, event: Event) {
        let _ = self.0.send_event(event);
    }

    /// Runs `f` on the main thread and returns what it gave; `None` once the loop has ended.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        self.send(Event::Run(Box::new(move || {
            let _ = tx.send(f());
        })));
        rx.await.ok()
    }
}
