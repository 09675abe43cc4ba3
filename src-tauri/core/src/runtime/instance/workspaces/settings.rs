//! The settings saved with the workspaces' config: the review window's choices and whether the
//! welcome was shown.

use super::Workspaces;
use crate::error::Result;
use crate::workspace::settings::Settings;

impl Workspaces {
    /// Read without the workspaces' lock: a pop-up asks for them on every review, and must not
    /// wait behind a surface listing the status (the tray's menu, on the same review's event).
    pub async fn settings(&self) -> Settings {
        self.settings
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// True once per config: on the desktop app's first launch, which shows the welcome page.
    /// Saved before the page shows, so a launch that ends while showing it is not welcomed again.
    pub async fn first_launch(&self) -> Result<bool> {
        let mut state = self.state.lock().await;
        if state.config.welcomed {
            return Ok(false);
        }
        state.config.welcomed = true;
        self.save(&state)?;
        Ok(true)
    }

    /// Saves `settings`; a value out of range is refused and nothing saved.
    pub async fn set_settings(&self, settings: Settings) -> Result<()> {
        settings.history.check()?;
        let mut state = self.state.lock().await;
        state.config.settings = settings.clone();
        self.save(&state)?;
        *self.settings.write().unwrap_or_else(|e| e.into_inner()) = settings;
        Ok(())
    }
}
