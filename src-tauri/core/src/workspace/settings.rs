//! What the user chose about the review window, persisted with the workspaces.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How a new review gets the user's attention.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PopupMode {
    /// Pop up and take focus.
    Focus,
    /// Pop up without taking focus, so typing in the terminal is never stolen.
    #[default]
    NoFocus,
    /// Only the tray badge.
    TrayOnly,
}

impl PopupMode {
    /// How a new review pops up: with focus or without; `None` when it only waits in the tray.
    pub fn pop_up(self) -> Option<bool> {
        match self {
            PopupMode::Focus => Some(true),
            PopupMode::NoFocus => Some(false),
            PopupMode::TrayOnly => None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[serde(default)]
    pub popup: PopupMode,
    /// Keep the window open when the last review is answered.
    #[serde(default)]
    pub keep_open: bool,
    /// The command "Open in editor" runs (`code --wait`, `nvim`); `None` or blank: `$VISUAL`,
    /// else `$EDITOR`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub editor: Option<String>,
}

impl Settings {
    /// The editor chosen in the settings, when one is (a blank one is not).
    pub fn editor(&self) -> Option<&str> {
        self.editor
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
    }
}
