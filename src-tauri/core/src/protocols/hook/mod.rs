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
mod ruling;
pub mod turn;

pub use ruling::{Accepted, Edit, FileChange, HookOutput, HookRuling};

use crate::clients::Dialect;
pub use crate::clients::HookCli;
use serde::{Deserialize, Serialize};

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

/// The edit `cli`'s hook input asks about; `Err`: the ruling without asking anyone (not an
/// edit, or one Redline cannot read).
pub fn read(cli: HookCli, input: &serde_json::Value) -> Result<Edit, HookRuling> {
    match cli.dialect {
        Dialect::Codex => codex::read(input),
        Dialect::Claude => claude::read(input),
        Dialect::Gemini => gemini::read(input),
        Dialect::Qwen => qwen::read(input),
        Dialect::Copilot => copilot::read(input),
        Dialect::Kiro => kiro::read(input),
        Dialect::Cursor => cursor::read(input),
        Dialect::Opencode => opencode::read(input),
    }
}

/// `ruling` in `cli`'s words, for the hook that sent `input`.
pub fn answer(cli: HookCli, input: &serde_json::Value, ruling: &HookRuling) -> HookOutput {
    match cli.dialect {
        Dialect::Codex => codex::answer(ruling),
        Dialect::Claude => claude::answer(input, ruling),
        Dialect::Gemini => gemini::answer(input, ruling),
        Dialect::Qwen => qwen::answer(ruling),
        Dialect::Copilot => copilot::answer(input, ruling),
        Dialect::Kiro => kiro::answer(ruling),
        Dialect::Cursor => cursor::answer(ruling),
        Dialect::Opencode => opencode::answer(input, ruling),
    }
}

/// The ruling on an edit whose every file the user accepted: as proposed, or with the user's
/// text where the CLI can write exactly that.
///
/// Where a CLI's hook can replace the tool's input (Codex, Claude Code, Gemini CLI, Copilot CLI,
/// opencode), every accept, edited or not, answers with an input of Redline's own making (for
/// Codex a patch of its own, for the others the whole reviewed original for the whole accepted
/// text): the CLI's own reading of the model's input (loose whitespace, line endings, quotes)
/// never decides what is written.
pub fn settle(cli: HookCli, files: Vec<Accepted>) -> HookRuling {
    if files.iter().all(|f| !f.edited) && !cli.takes_edits {
        return HookRuling::Allow;
    }
    match cli.dialect {
        Dialect::Codex => codex::settle(files),
        // Their tools write the text they are given (the read-only ones never get here edited;
        // opencode's answer checks its own tools).
        Dialect::Claude
        | Dialect::Gemini
        | Dialect::Qwen
        | Dialect::Copilot
        | Dialect::Kiro
        | Dialect::Cursor
        | Dialect::Opencode => HookRuling::AllowEdited { files },
    }
}

/// The reason a model reads when the user rejected without giving one.
pub fn rejected(path: &str) -> String {
    format!("The user rejected this edit of {path} in Redline, the review window.")
}

#[cfg(test)]
#[path = "answers_tests.rs"]
mod answers_tests;
