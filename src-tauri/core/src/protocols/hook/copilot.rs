//! Copilot CLI's `preToolUse` hook for its `edit` and `create` tools: its input read, and
//! Redline's ruling in the JSON Copilot CLI takes (`tests/interop/copilot-hook.test.mjs`).

use super::ruling::{Accepted, Edit, FileChange, HookOutput, HookRuling};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Input {
    cwd: String,
    tool_name: String,
    /// An object from Copilot CLI 1.0.102; a JSON text in its SDK's documented shape.
    tool_args: Value,
}

#[derive(Deserialize)]
struct Create {
    path: String,
    file_text: String,
}

#[derive(Deserialize)]
struct Replace {
    path: String,
    old_str: String,
    new_str: String,
}

/// The tool's arguments as an object, whichever way they came.
fn args(input: &Input) -> Result<Value, serde_json::Error> {
    match &input.tool_args {
        Value::String(text) => serde_json::from_str(text),
        other => Ok(other.clone()),
    }
}

pub fn read(input: &Value) -> Result<Edit, HookRuling> {
    let pass = |why: String| HookRuling::Pass { why };
    let input = Input::deserialize(input).map_err(|e| {
        pass(format!(
            "this is not Copilot CLI's pre-edit hook input ({e})"
        ))
    })?;
    let bad = |e: serde_json::Error| HookRuling::Deny {
        reason: format!("Redline cannot read this {} call: {e}", input.tool_name),
    };
    let change = match input.tool_name.as_str() {
        "create" => {
            let c = Create::deserialize(args(&input).map_err(bad)?).map_err(bad)?;
            // Copilot's create fails on a file that is there ("already exists as a file").
            FileChange::Create {
                path: c.path,
                text: c.file_text,
            }
        }
        // "Replaces exactly one occurrence of old_str".
        "edit" => {
            let r = Replace::deserialize(args(&input).map_err(bad)?).map_err(bad)?;
            FileChange::Replace {
                path: r.path,
                old: r.old_str,
                new: r.new_str,
                all: false,
            }
        }
        other => return Err(pass(format!("`{other}` is not an edit Redline reviews"))),
    };
    Ok(Edit {
        cwd: input.cwd,
        changes: vec![change],
    })
}

/// `ruling` as Copilot CLI's hook output. An accepted edit is allowed outright (the user has
/// reviewed it, and Copilot's own prompt would only ask again), always with the arguments that
/// write exactly the reviewed text.
pub fn answer(input: &Value, ruling: &HookRuling) -> HookOutput {
    let say = |v: Value| HookOutput {
        stdout: v.to_string(),
        stderr: None,
        exit: 0,
    };
    let deny = |reason: &str| {
        say(json!({
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }))
    };
    match ruling {
        HookRuling::Allow => say(json!({
            "permissionDecision": "allow",
            "permissionDecisionReason": "Accepted in Redline",
        })),
        HookRuling::AllowEdited { files } => {
            match super::edit_tool::answer_one(files, |f| accepted_args(input, f)) {
                Ok((args, note)) => {
                    let mut out = json!({
                        "permissionDecision": "allow",
                        "permissionDecisionReason": "Accepted in Redline",
                        "modifiedArgs": args,
                    });
                    if let Some(note) = note {
                        out["permissionDecisionReason"] =
                            json!("Accepted in Redline, with the user's edits");
                        out["additionalContext"] = json!(note);
                    }
                    say(out)
                }
                Err(reason) => deny(&reason),
            }
        }
        HookRuling::Deny { reason } => deny(reason),
        HookRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

/// The arguments that write exactly what the user accepted, in the tool Copilot called: an edit
/// becomes the whole old text for the whole new one (unique in the file, and in no file changed
/// since the review), a create the new text.
fn accepted_args(input: &Value, file: &Accepted) -> Result<Value, String> {
    let after = file.after.clone().unwrap_or_default();
    let mut args = match &input["toolArgs"] {
        Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| json!({})),
        other => other.clone(),
    };
    if !args.is_object() {
        args = json!({});
    }
    args["path"] = json!(file.path);
    if input["toolName"] == "edit" {
        let (old, new) = super::edit_tool::whole_replace(file)?;
        args["old_str"] = json!(old);
        args["new_str"] = json!(new);
    } else {
        args["file_text"] = json!(after);
    }
    Ok(args)
}

#[cfg(test)]
#[path = "copilot_tests.rs"]
mod tests;
