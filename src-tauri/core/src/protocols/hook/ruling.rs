//! What a hook asks about and what it answers, whichever CLI ran it.

use super::patch::Change;
use serde::{Deserialize, Serialize};

/// An edit a hook asks about: the folder the CLI runs in (relative paths are from there) and
/// what it does to each file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub cwd: String,
    pub changes: Vec<FileChange>,
}

/// What an edit does to one file, in the shape its CLI's tool says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    /// One file's part of a Codex patch.
    Patch(Change),
    /// The file's whole new text (Claude's Write, Gemini's and Qwen's write_file).
    Write { path: String, text: String },
    /// A new file's text; the file must not exist (Copilot's create).
    Create { path: String, text: String },
    /// `old` replaced by `new` in the file: every one with `all`, else it must be there once
    /// (Claude's and Qwen's Edit, Gemini's replace).
    Replace {
        path: String,
        old: String,
        new: String,
        all: bool,
    },
    /// `text` put after line `after` of the file (0: before the first; past the end: at the
    /// end), as Kiro's `fs_write insert` does.
    Insert {
        path: String,
        after: usize,
        text: String,
    },
    /// `text` added at the end of the file, on a line of its own (Kiro's `fs_write append`).
    Append { path: String, text: String },
}

impl FileChange {
    /// The file it reads: the one it changes.
    pub fn path(&self) -> &str {
        match self {
            FileChange::Patch(Change::Add { path, .. })
            | FileChange::Patch(Change::Delete { path })
            | FileChange::Patch(Change::Update { path, .. })
            | FileChange::Write { path, .. }
            | FileChange::Create { path, .. }
            | FileChange::Replace { path, .. }
            | FileChange::Insert { path, .. }
            | FileChange::Append { path, .. } => path,
        }
    }

    /// Every file it reads: the one it changes and, for a move, its destination (shown
    /// against what is there, or refused if it is there).
    pub fn reads(&self) -> Vec<&str> {
        match self {
            FileChange::Patch(Change::Update {
                move_to: Some(to), ..
            }) => vec![self.path(), to],
            _ => vec![self.path()],
        }
    }
}

/// What the hook answers the CLI.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(
    // The wire keeps its first name: a `redline hook` and an instance a version apart still agree.
    tag = "verdict",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum HookRuling {
    /// Accepted as proposed.
    Allow,
    /// Accepted, to be written as the tool input Redline makes: every file of the edit, as
    /// reviewed and accepted (`edited` says which the user changed).
    AllowEdited { files: Vec<Accepted> },
    /// Rejected, or refused by Redline: `reason` is what the model reads.
    Deny { reason: String },
    /// Redline stays out of it and the CLI's own approval runs; `why` goes to the terminal.
    Pass { why: String },
}

/// One file of an accepted edit: where it was and ends up (as the CLI named them), and its text
/// before (`None`: new) and as accepted (`None`: deleted).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Accepted {
    pub path: String,
    pub to: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
    /// The user changed the proposed text.
    pub edited: bool,
}

/// What `redline hook` prints and exits with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookOutput {
    pub stdout: String,
    pub stderr: Option<String>,
    pub exit: u8,
}

impl HookOutput {
    /// Nothing said: the CLI goes on as if no hook ran.
    pub(super) fn silent(stderr: Option<String>) -> HookOutput {
        HookOutput {
            stdout: String::new(),
            stderr,
            exit: 0,
        }
    }
}
