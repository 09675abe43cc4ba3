//! The tray menu's items as data, and what a click on one does.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a menu item does when clicked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Action {
    OpenReviews,
    ToggleWorkspace {
        path: PathBuf,
    },
    ToggleContainers {
        path: PathBuf,
    },
    AddWorkspace,
    RemoveWorkspace {
        path: PathBuf,
    },
    CopyToken {
        path: PathBuf,
    },
    RotateToken {
        path: PathBuf,
    },
    OpenFolder {
        path: PathBuf,
    },
    ToggleAutostart,
    Quit,
    /// A checkpoint of the workspace now (`redline turns checkpoint`).
    CheckpointNow {
        path: PathBuf,
    },
    /// One of the workspace's recent turns: opens the review window.
    OpenTurn {
        path: PathBuf,
        id: u64,
    },
}

impl Action {
    /// A menu item id that maps back to the action.
    pub fn id(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_id(id: &str) -> Option<Action> {
        serde_json::from_str(id).ok()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Action {
        label: String,
        action: Action,
    },
    Check {
        label: String,
        checked: bool,
        action: Action,
    },
    /// A line to read, not to click.
    Note(String),
    Submenu {
        label: String,
        items: Vec<Item>,
    },
    Separator,
}

/// A path as the menu names it: its last component.
pub(super) fn name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned())
}
