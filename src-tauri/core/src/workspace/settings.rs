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

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[serde(default)]
    pub popup: PopupMode,
    /// Keep the window open when the last review is answered.
    #[serde(default)]
    pub keep_open: bool,
}
