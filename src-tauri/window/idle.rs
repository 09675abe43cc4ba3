//! The idle spell: a window hidden with no review pending for long enough ends its process, and
//! so gives back all of WebKit's memory (its web and network processes end with ours). The
//! launcher starts a new one when a review may come.

use crate::queue;
use crate::visibility::Visibility;
use std::time::Duration;
use tauri::{AppHandle, Manager};
use tokio::sync::watch;

/// Something happened that restarts the countdown (a show, a hide, a review added or resolved).
pub struct Idle(watch::Sender<u64>);

impl Default for Idle {
    fn default() -> Self {
        Idle(watch::channel(0).0)
    }
}

impl Idle {
    pub fn stir(&self) {
        self.0.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// How long a hidden, idle window is kept (`REDLINE_WINDOW_IDLE_SECS` overrides it, for
/// benchmarks, tests and users who want it sooner).
fn spell() -> Duration {
    let secs = std::env::var("REDLINE_WINDOW_IDLE_SECS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(10 * 60);
    Duration::from_secs(secs)
}

/// Ends the process (status 0: a release, not a failure) once the window has been hidden with
/// no review pending for the idle spell. Every stir starts the spell again.
pub async fn count_down(app: AppHandle) {
    let spell = spell();
    let mut stirred = app.state::<Idle>().0.subscribe();
    loop {
        stirred.mark_unchanged();
        let quiet = tokio::select! {
            changed = stirred.changed() => {
                if changed.is_err() {
                    return;
                }
                false
            }
            () = tokio::time::sleep(spell) => true,
        };
        if !quiet {
            continue;
        }
        let released = !app.state::<Visibility>().shown().await && queue::is_empty(&app).await;
        // A review or a show that came while the core was asked wins over the release.
        if released && !stirred.has_changed().unwrap_or(true) {
            tracing::info!(
                secs = spell.as_secs(),
                "review window idle: ending until the next review"
            );
            app.exit(0);
            return;
        }
        // Shown, or a review waits: nothing to count until the next show, hide or review.
        if stirred.changed().await.is_err() {
            return;
        }
    }
}
