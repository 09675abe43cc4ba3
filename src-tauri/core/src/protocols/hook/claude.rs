//! Claude Code's `PreToolUse` hook for Write and Edit: its input read, and Redline's ruling in
//! the JSON Claude Code takes (`../shared/specs/cli-hooks.md`).

use super::edit_tool::{self, Tools};
use super::ruling::{Edit, HookOutput, HookRuling};
use serde_json::{json, Value};

pub const TOOLS: Tools = Tools {
    write: "Write",
    replace: "Edit",
    all_flag: "replace_all",
    keeps_final_newline: false,
};

pub fn read(input: &Value) -> Result<Edit, HookRuling> {
    edit_tool::read(&TOOLS, "Claude Code", input)
}

/// `ruling` as Claude Code's hook output. An accepted edit is allowed outright (the user has
/// reviewed it, and Claude Code's own prompt would only ask again), always with the tool input
/// that writes exactly the reviewed text.
pub fn answer(input: &Value, ruling: &HookRuling) -> HookOutput {
    let decide = |specific: Value| HookOutput {
        stdout: json!({ "hookSpecificOutput": specific }).to_string(),
        stderr: None,
        exit: 0,
    };
    let deny = |reason: &str| {
        decide(json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }))
    };
    match ruling {
        HookRuling::Allow => decide(json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "Accepted in Redline",
        })),
        HookRuling::AllowEdited { files } => {
            match edit_tool::answer_one(files, |f| edit_tool::accepted_input(&TOOLS, input, f)) {
                Ok((args, note)) => {
                    let mut specific = json!({
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "allow",
                        "permissionDecisionReason": "Accepted in Redline",
                        "updatedInput": args,
                    });
                    if let Some(note) = note {
                        specific["permissionDecisionReason"] =
                            json!("Accepted in Redline, with the user's edits");
                        specific["additionalContext"] = json!(note);
                    }
                    decide(specific)
                }
                Err(reason) => deny(&reason),
            }
        }
        HookRuling::Deny { reason } => deny(reason),
        HookRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}
