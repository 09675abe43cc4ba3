//! The file-writing tools of Claude Code, Gemini CLI and Qwen Code as their hooks show them:
//! a whole new text, or one text replaced by another, and the tool input that carries the
//! user's accepted text back.

use super::verdict::{Accepted, Edit, FileChange, HookVerdict};
use serde::Deserialize;
use serde_json::{json, Value};

/// What a CLI calls its two tools, and the name of its "replace every one" flag.
pub struct Tools {
    pub write: &'static str,
    pub replace: &'static str,
    pub all_flag: &'static str,
}

#[derive(Deserialize)]
struct Input {
    cwd: String,
    tool_name: String,
    tool_input: Value,
}

#[derive(Deserialize)]
struct Write {
    file_path: String,
    content: String,
}

#[derive(Deserialize)]
struct Replace {
    file_path: String,
    old_string: String,
    new_string: String,
}

/// The edit a hook's input asks about; another tool passes (the CLI goes on as it would).
pub fn read(tools: &Tools, cli: &str, input: &Value) -> Result<Edit, HookVerdict> {
    let pass = |why: String| HookVerdict::Pass { why };
    let input = Input::deserialize(input)
        .map_err(|e| pass(format!("this is not {cli}'s pre-edit hook input ({e})")))?;
    let bad = |e: serde_json::Error| HookVerdict::Deny {
        reason: format!("Redline cannot read this {} call: {e}", input.tool_name),
    };
    let change = if input.tool_name == tools.write {
        let w = Write::deserialize(&input.tool_input).map_err(bad)?;
        FileChange::Write {
            path: w.file_path,
            text: w.content,
        }
    } else if input.tool_name == tools.replace {
        let r = Replace::deserialize(&input.tool_input).map_err(bad)?;
        FileChange::Replace {
            path: r.file_path,
            old: r.old_string,
            new: r.new_string,
            all: input.tool_input[tools.all_flag].as_bool().unwrap_or(false),
        }
    } else {
        return Err(pass(format!(
            "`{}` is not an edit Redline reviews",
            input.tool_name
        )));
    };
    Ok(Edit {
        cwd: input.cwd,
        changes: vec![change],
    })
}

/// The tool input that writes exactly what the user accepted, in the tool the CLI called: its
/// other arguments kept, the text replaced (a replace becomes the whole old text for the whole
/// new one, which is unique in the file).
pub fn accepted_input(tools: &Tools, input: &Value, file: &Accepted) -> Value {
    let mut args = input["tool_input"].clone();
    let after = file.after.clone().unwrap_or_default();
    if input["tool_name"] == tools.replace {
        args["old_string"] = json!(file.before.clone().unwrap_or_default());
        args["new_string"] = json!(after);
        args[tools.all_flag] = json!(false);
    } else {
        args["content"] = json!(after);
    }
    args
}

/// What the model is told when the user changed its text.
pub fn note(file: &Accepted) -> String {
    format!(
        "The user reviewed this edit of {} in Redline and changed it before it was written: the \
         file now holds the user's text, not exactly what you proposed. Read it again before \
         editing it further.",
        file.path
    )
}
