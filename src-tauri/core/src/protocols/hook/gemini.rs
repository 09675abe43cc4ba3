//! Gemini CLI's `BeforeTool` hook for write_file and replace: its input read, and Redline's
//! verdict in the JSON Gemini CLI takes (`../shared/specs/cli-hooks.md`).

use super::edit_tool::{self, Tools};
use super::verdict::{Edit, HookOutput, HookVerdict};
use serde_json::{json, Value};

pub const TOOLS: Tools = Tools {
    write: "write_file",
    replace: "replace",
    all_flag: "allow_multiple",
    keeps_final_newline: true,
};

pub fn read(input: &Value) -> Result<Edit, HookVerdict> {
    edit_tool::read(&TOOLS, "Gemini CLI", input)
}

/// `verdict` as Gemini CLI's hook output. An accepted edit always carries the tool input that
/// writes exactly the reviewed text; Gemini CLI's own confirmation follows its hooks, as its
/// approval mode sets.
pub fn answer(input: &Value, verdict: &HookVerdict) -> HookOutput {
    let say = |v: Value| HookOutput {
        stdout: v.to_string(),
        stderr: None,
        exit: 0,
    };
    let deny = |reason: &str| say(json!({ "decision": "deny", "reason": reason }));
    match verdict {
        HookVerdict::Allow => HookOutput::silent(None),
        HookVerdict::AllowEdited { files } => {
            match edit_tool::answer_one(files, |f| edit_tool::accepted_input(&TOOLS, input, f)) {
                Ok((args, note)) => {
                    let mut specific = json!({
                        "hookEventName": "BeforeTool",
                        "tool_input": args,
                    });
                    if let Some(note) = note {
                        specific["additionalContext"] = json!(note);
                    }
                    say(json!({ "hookSpecificOutput": specific }))
                }
                Err(reason) => deny(&reason),
            }
        }
        HookVerdict::Deny { reason } => deny(reason),
        HookVerdict::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}
