//! What doctor finds, as `redline doctor --json` prints it: each CLI's verdict and its one fix.

use super::install::Installed;
use super::probe::Probe;
use serde::Serialize;
use std::path::PathBuf;

/// Where the fix is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FixPlace")]
pub enum Place {
    /// In a terminal (this shell).
    Shell,
    /// Inside the CLI, at its prompt.
    Cli,
    /// Not one command that works from here: what to do, in a sentence (e.g. from the home
    /// folder, where `workspace add` is refused: go into a project first).
    Advice,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    pub command: String,
    #[serde(rename = "where")]
    pub place: Place,
}

impl Fix {
    /// The fix inside a sentence: a command in backticks, advice as it is.
    pub fn said(&self) -> String {
        match self.place {
            Place::Advice => self.command.clone(),
            Place::Shell | Place::Cli => format!("`{}`", self.command),
        }
    }
}

/// Every outcome, with a stable code for scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Connects,
    NotInstalled,
    VersionKnownBad,
    NotRunning,
    Container,
    NoWorkspace,
    WorkspaceOff,
    FileElsewhere,
    FileMissing,
    FileSkipped,
    Shadowed,
    ContainerHost,
    TokenRefused,
    Unreachable,
    Unexpected,
    IdeDisabled,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CliReport {
    pub id: String,
    pub name: String,
    pub installed: Option<Installed>,
    pub verdict: Verdict,
    /// True if the CLI will connect (or is not installed, so cannot fail).
    pub ok: bool,
    /// Why, in a sentence.
    pub reason: String,
    pub fix: Option<Fix>,
    /// The discovery file the CLI would use.
    pub file: Option<PathBuf>,
    pub port: Option<u16>,
    pub probe: Option<Probe>,
    pub notes: Vec<String>,
}

/// A CLI Redline reviews through its pre-edit hook: installed, and whether the hook is there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookReport {
    pub id: String,
    pub name: String,
    pub installed: Option<Installed>,
    /// The hook config the CLI reads.
    pub file: PathBuf,
    /// Redline's hook command in it, if there is one.
    pub hook: Option<String>,
    pub reason: String,
    pub fix: Option<Fix>,
    /// It has an IDE protocol too (its line above): the hook is an option, not its only way.
    pub ide_protocol: bool,
}

/// A CLI that asks an IDE for context on a channel of its own (Codex CLI's `/ide on`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextReport {
    pub id: String,
    pub name: String,
    pub installed: Option<Installed>,
    /// It gets Redline's answer (or is not installed).
    pub ok: bool,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceFound {
    pub path: PathBuf,
    pub on: bool,
    pub port: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub dir: PathBuf,
    pub redline_pid: Option<u32>,
    pub workspace: Option<WorkspaceFound>,
    pub container: bool,
    pub clis: Vec<CliReport>,
    /// The CLIs Redline reviews through their pre-edit hooks (they do not count for `ok`: a
    /// hook is the user's choice).
    pub hooks: Vec<HookReport>,
    /// The CLIs that ask an IDE for context themselves (they do not count for `ok` either:
    /// context is a help, not what makes a CLI work with Redline).
    pub context: Vec<ContextReport>,
    /// At least one CLI is installed and every installed one will connect: `redline doctor`
    /// exits 0.
    pub ok: bool,
}

/// A fix typed in the shell.
pub(super) fn shell(command: impl Into<String>) -> Option<Fix> {
    Some(Fix {
        command: command.into(),
        place: Place::Shell,
    })
}

/// A fix that is not one command that works from here: what to do instead.
pub(super) fn advice(text: impl Into<String>) -> Option<Fix> {
    Some(Fix {
        command: text.into(),
        place: Place::Advice,
    })
}

pub(super) use crate::platform::shell_word::quote;
