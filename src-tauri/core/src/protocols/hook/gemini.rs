//! Gemini CLI's `BeforeTool` hook for write_file and replace: its input read, and Redline's
//! ruling in the JSON Gemini CLI takes (`../shared/specs/cli-hooks.md`).

use super::edit_tool::{self, Tools};
use super::ruling::{Edit, HookOutput, HookRuling};
use serde_json::{json, Value};

pub const TOOLS: Tools = Tools {
    write: "write_file",
    replace: "replace",
    all_flag: "allow_multiple",
    keeps_final_newline: true,
};

pub fn read(input: &Value) -> Result<Edit, HookRuling> {
    edit_tool::read(&TOOLS, "Gemini CLI", input)
}

/// `ruling` as Gemini CLI's hook output. An accepted edit always carries the tool input that
/// writes exactly the reviewed text; Gemini CLI's own confirmation follows its hooks, as its
/// approval mode sets.
pub fn answer(input: &Value, ruling: &HookRuling) -> HookOutput {
    let say = |v: Value| HookOutput {
        stdout: v.to_string(),
        stderr: None,
        exit: 0,
    };
    let deny = |reason: &str| say(json!({ "decision": "deny", "reason": reason }));
    match ruling {
        HookRuling::Allow => HookOutput::silent(None),
        HookRuling::AllowEdited { files } => {
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
        HookRuling::Deny { reason } => deny(reason),
        HookRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}
