//! Pre-edit hooks: a CLI's hook input read into the files its edit touches, and the user's
//! decision put back in that CLI's words (`redline hook` carries both over the control socket).

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
mod edit_tool;
pub mod gemini;
pub mod kiro;
pub mod opencode;
mod own_patch;
pub mod patch;
pub mod patched;
pub mod plan;
pub mod qwen;
pub mod turn;
mod verdict;

pub use verdict::{Accepted, Edit, FileChange, HookOutput, HookVerdict};

use crate::clients::HookSite;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A CLI whose pre-edit hook runs `redline hook`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HookCli {
    Codex,
    Claude,
    Gemini,
    Qwen,
    Copilot,
    Kiro,
    Cursor,
    Opencode,
}

impl HookCli {
    pub const ALL: [HookCli; 8] = [
        HookCli::Codex,
        HookCli::Claude,
        HookCli::Gemini,
        HookCli::Qwen,
        HookCli::Copilot,
        HookCli::Kiro,
        HookCli::Cursor,
        HookCli::Opencode,
    ];

    /// What Redline knows of the CLI: where its hook goes, and what the entry says.
    pub fn site(self) -> &'static HookSite {
        match self {
            HookCli::Codex => &crate::clients::CODEX,
            HookCli::Claude => &crate::clients::CLAUDE_HOOK,
            HookCli::Gemini => &crate::clients::GEMINI_HOOK,
            HookCli::Qwen => &crate::clients::QWEN_HOOK,
            HookCli::Copilot => &crate::clients::COPILOT_HOOK,
            HookCli::Kiro => &crate::clients::KIRO,
            HookCli::Cursor => &crate::clients::CURSOR,
            HookCli::Opencode => &crate::clients::OPENCODE,
        }
    }

    pub fn id(self) -> &'static str {
        self.site().id
    }

    /// The CLI's name as its users know it.
    pub fn name(self) -> &'static str {
        self.site().name
    }
}

impl fmt::Display for HookCli {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for HookCli {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        HookCli::ALL
            .into_iter()
            .find(|c| c.id() == s)
            .ok_or_else(|| {
                let known: Vec<_> = HookCli::ALL.iter().map(|c| c.id()).collect();
                format!("no hook for `{s}`; known: {}", known.join(", "))
            })
    }
}

/// What `redline hook` sends the running instance: the hook's input as the CLI gave it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct HookCall {
    pub cli: HookCli,
    pub input: serde_json::Value,
    /// Record the files the edit touches for the review at the end of the turn
    /// (`--turn-review`); without it nothing of the turn is kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub record_turn: bool,
}

/// The edit `cli`'s hook input asks about; `Err`: the verdict without asking anyone (not an
/// edit, or one Redline cannot read).
pub fn read(cli: HookCli, input: &serde_json::Value) -> Result<Edit, HookVerdict> {
    match cli {
        HookCli::Codex => codex::read(input),
        HookCli::Claude => claude::read(input),
        HookCli::Gemini => gemini::read(input),
        HookCli::Qwen => qwen::read(input),
        HookCli::Copilot => copilot::read(input),
        HookCli::Kiro => kiro::read(input),
        HookCli::Cursor => cursor::read(input),
        HookCli::Opencode => opencode::read(input),
    }
}

/// `verdict` in `cli`'s words, for the hook that sent `input`.
pub fn answer(cli: HookCli, input: &serde_json::Value, verdict: &HookVerdict) -> HookOutput {
    match cli {
        HookCli::Codex => codex::answer(verdict),
        HookCli::Claude => claude::answer(input, verdict),
        HookCli::Gemini => gemini::answer(input, verdict),
        HookCli::Qwen => qwen::answer(verdict),
        HookCli::Copilot => copilot::answer(input, verdict),
        HookCli::Kiro => kiro::answer(verdict),
        HookCli::Cursor => cursor::answer(verdict),
        HookCli::Opencode => opencode::answer(input, verdict),
    }
}

/// The verdict on an edit whose every file the user accepted: as proposed, or with the user's
/// text where the CLI can write exactly that.
///
/// Where a CLI's hook can replace the tool's input (Codex, Claude Code, Gemini CLI, Copilot CLI,
/// opencode), every accept, edited or not, answers with an input of Redline's own making (for
/// Codex a patch of its own, for the others the whole reviewed original for the whole accepted
/// text): the CLI's own reading of the model's input (loose whitespace, line endings, quotes)
/// never decides what is written.
pub fn settle(cli: HookCli, files: Vec<Accepted>) -> HookVerdict {
    if files.iter().all(|f| !f.edited) && !cli.site().takes_edits {
        return HookVerdict::Allow;
    }
    match cli {
        HookCli::Codex => codex::settle(files),
        // Their tools write the text they are given (the read-only ones never get here edited;
        // opencode's answer checks its own tools).
        HookCli::Claude
        | HookCli::Gemini
        | HookCli::Qwen
        | HookCli::Copilot
        | HookCli::Kiro
        | HookCli::Cursor
        | HookCli::Opencode => HookVerdict::AllowEdited { files },
    }
}

/// The reason a model reads when the user rejected without giving one.
pub fn rejected(path: &str) -> String {
    format!("The user rejected this edit of {path} in Redline, the review window.")
}

#[cfg(test)]
#[path = "answers_tests.rs"]
mod answers_tests;
