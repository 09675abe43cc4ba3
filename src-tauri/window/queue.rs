//! The core's review queue as the window asks about it: the window keeps no copy, so it asks.

use redline_core::runtime::window::link::Link;
use redline_core::surfaces::action::ReviewsList;
use tauri::{AppHandle, Manager};

/// Whether the core holds no pending review. A core that cannot answer counts as none: the
/// window then hides or lets go rather than waiting on it (its going ends this process anyway).
pub async fn is_empty(app: &AppHandle) -> bool {
    // As JSON: only whether the list is empty matters, not the reviews' texts.
    match app.state::<Link>().forward(ReviewsList {}.into()).await {
        Ok(serde_json::Value::Array(reviews)) => reviews.is_empty(),
        Ok(_) => true,
        Err(e) => {
            tracing::warn!("cannot list the pending reviews: {}", e.message);
            true
        }
    }
}
