//! Whether the review window is shown, as the core last heard it.

/// Held while showing or hiding, so the core hears the changes in the order they happened.
#[derive(Default)]
pub struct Visibility(pub tokio::sync::Mutex<bool>);

impl Visibility {
    pub async fn shown(&self) -> bool {
        *self.0.lock().await
    }
}
