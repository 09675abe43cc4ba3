//! Qwen Code's `PreToolUse` hook for write_file and edit: its input read, and Redline's verdict
//! in the JSON Qwen Code takes. Its PreToolUse takes no changed input, so Qwen's reviews are
//! read-only (`../shared/specs/cli-hooks.md`).

use super::edit_tool::{self, Tools};
use super::verdict::{Edit, HookOutput, HookVerdict};
use serde_json::{json, Value};

pub const TOOLS: Tools = Tools {
    write: "write_file",
    replace: "edit",
    all_flag: "replace_all",
    keeps_final_newline: false,
};

pub fn read(input: &Value) -> Result<Edit, HookVerdict> {
    edit_tool::read(&TOOLS, "Qwen Code", input)
}

/// `verdict` as Qwen Code's hook output: a deny with its reason, else nothing (Qwen Code asked
/// its own approval before its hooks ran).
pub fn answer(verdict: &HookVerdict) -> HookOutput {
    match verdict {
        HookVerdict::Allow | HookVerdict::AllowEdited { .. } => HookOutput::silent(None),
        HookVerdict::Deny { reason } => HookOutput {
            stdout: json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": reason,
                },
            })
            .to_string(),
            stderr: None,
            exit: 0,
        },
        HookVerdict::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}
