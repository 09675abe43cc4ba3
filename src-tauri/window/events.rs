//! The core's events, carried out in the window: reviews passed to the page as the core wrote
//! them, shows, and the end (told to quit, or the core went).

use crate::idle::Idle;
use crate::view;
use redline_core::runtime::window::link::Event;
use redline_core::runtime::window::message::Down;
use tauri::{AppHandle, Emitter, Manager};
use tokio::sync::mpsc;

/// Reads the link's events until the core says quit or goes; then ends the process with 0: a
/// window without its core has nothing to show, and neither is a failure of the window.
pub async fn forward(app: AppHandle, mut events: mpsc::Receiver<Event>) {
    while let Some(event) = events.recv().await {
        match event {
            Down::Added { review } => {
                app.state::<Idle>().stir();
                let _ = app.emit("review-added", review);
            }
            Down::Updated { review } => {
                let _ = app.emit("review-updated", review);
            }
            Down::Resolved { resolved } => {
                // The last review answered while hidden: the idle spell counts from here.
                app.state::<Idle>().stir();
                let _ = app.emit("review-resolved", resolved);
            }
            Down::Show { focus } => {
                view::show(&app, focus).await;
                // A window already on screen gets no focus or visibility event from a show: the
                // page hears it here, and checks again what it shows (`redline` run again).
                let _ = app.emit("shown", ());
            }
            Down::WorkspacesChanged => {
                let _ = app.emit("workspaces-changed", ());
            }
            Down::Quit => {
                tracing::info!("Redline is quitting: the review window ends");
                app.exit(0);
                return;
            }
            // Replies are the link's business; it never hands one out as an event.
            Down::Reply { .. } => {}
        }
    }
    tracing::info!("Redline closed the window channel: the review window ends");
    app.exit(0);
}
