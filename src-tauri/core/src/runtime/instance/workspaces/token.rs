//! A workspace's token: rotated on request, read for the tray's "Copy token".

use super::Workspaces;
use crate::error::Result;
use std::path::Path;

impl Workspaces {
    /// Rotates the token of workspace `path`, or of the innermost one holding it.
    pub async fn rotate_token(&self, path: &Path) -> Result<()> {
        let mut state = self.state.lock().await;
        let path = (state.config.known_path(path)).or_else(|_| state.config.innermost(path))?;
        let token = self.world.tokens.rotate(&path.to_string_lossy())?;
        if let Some(c) = state.companions.get_mut(&path) {
            c.rotate(token, &self.world.dirs);
        }
        self.changed.send_replace(());
        Ok(())
    }

    /// A workspace's token, for the tray's "Copy token".
    pub async fn token(&self, path: &Path) -> Result<String> {
        let state = self.state.lock().await;
        let path = state.config.known_path(path)?;
        let token = match state.companions.get(&path) {
            Some(c) => c.token(),
            None => self.world.tokens.token_for(&path.to_string_lossy())?,
        };
        Ok(token.expose().to_owned())
    }

    /// Where the tokens are kept, as the status says it.
    pub(super) fn token_store(&self) -> &'static str {
        if self.world.tokens.state().available {
            "keyring"
        } else {
            "memory"
        }
    }
}
