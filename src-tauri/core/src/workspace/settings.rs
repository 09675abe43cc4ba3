//! What the user chose about the review window, persisted with the workspaces.

use crate::workspace::error::WorkspaceError;
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
    /// How much turn history each workspace keeps.
    #[serde(default)]
    pub history: HistoryBounds,
}

/// How much turn history each workspace keeps (issue 39): the newest `turns`, within `mib` MiB
/// of its checkpoint store's own objects; older turns are pruned with their objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct HistoryBounds {
    pub turns: u32,
    pub mib: u32,
}

impl Default for HistoryBounds {
    fn default() -> Self {
        HistoryBounds {
            turns: 200,
            mib: 1024,
        }
    }
}

impl HistoryBounds {
    /// The most turns a workspace may be set to keep: each is a ref and a line of its index.
    pub const MAX_TURNS: u32 = 100_000;
    /// The most MiB (1 TiB).
    pub const MAX_MIB: u32 = 1 << 20;

    /// Refuses a value out of range, saying the range.
    pub fn check(&self) -> Result<(), WorkspaceError> {
        if !(1..=Self::MAX_TURNS).contains(&self.turns) {
            return Err(WorkspaceError::BadSetting(format!(
                "turns kept must be 1 to {}, not {}",
                Self::MAX_TURNS,
                self.turns
            )));
        }
        if !(1..=Self::MAX_MIB).contains(&self.mib) {
            return Err(WorkspaceError::BadSetting(format!(
                "the history's size must be 1 to {} MiB, not {}",
                Self::MAX_MIB,
                self.mib
            )));
        }
        Ok(())
    }
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
