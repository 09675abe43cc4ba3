//! The file-writing tools of Claude Code, Gemini CLI and Qwen Code as their hooks show them:
//! a whole new text, or one text replaced by another, and the tool input that carries the
//! user's accepted text back.

use super::ruling::{Accepted, Edit, FileChange, HookRuling};
use serde::Deserialize;
use serde_json::{json, Value};

/// What a CLI calls its two tools, the name of its "replace every one" flag, and how its replace
/// writes a file's last line.
pub struct Tools {
    pub write: &'static str,
    pub replace: &'static str,
    pub all_flag: &'static str,
    /// The replace gives the result the original's final newline, or its lack of one (Gemini
    /// CLI's `restoreTrailingNewline`).
    pub keeps_final_newline: bool,
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
pub fn read(tools: &Tools, cli: &str, input: &Value) -> Result<Edit, HookRuling> {
    let pass = |why: String| HookRuling::Pass { why };
    let input = Input::deserialize(input)
        .map_err(|e| pass(format!("this is not {cli}'s pre-edit hook input ({e})")))?;
    let bad = |e: serde_json::Error| HookRuling::Deny {
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
/// other arguments kept, the text replaced. A replace becomes the whole reviewed original for
/// the whole accepted text: found once in the file as it was reviewed, and in no file that has
/// changed since. `Err`: why no input can write it (the edit is denied, never a near miss).
pub fn accepted_input(tools: &Tools, input: &Value, file: &Accepted) -> Result<Value, String> {
    let mut args = input["tool_input"].clone();
    if !args.is_object() {
        return Err(format!(
            "Redline could not be sure what this edit writes: the {} call has no arguments",
            input["tool_name"]
        ));
    }
    let after = file.after.clone().unwrap_or_default();
    if input["tool_name"] == tools.replace {
        let (old, new) = line_ended(tools, file)?;
        args["old_string"] = json!(old);
        args["new_string"] = json!(new);
        args[tools.all_flag] = json!(false);
    } else {
        args["content"] = json!(after);
    }
    Ok(args)
}

/// The whole replace in the form Claude Code's Edit and Gemini CLI's replace apply verbatim:
/// both read the file with CRLF turned into LF, match and replace in that text, and write every
/// line ending as CRLF if the file had one (Gemini: `detectLineEnding`, `/\r?\n/g` → CRLF;
/// Claude Code: shown by `tests/interop/hooks.test.mjs`). So both texts go with LF endings, and
/// an accepted text the tool would write otherwise (mixed endings, a lone CR, a final newline
/// Gemini would put back or take away) is denied, never a near miss.
pub fn line_ended(tools: &Tools, file: &Accepted) -> Result<(String, String), String> {
    let (before, after) = whole_replace(file)?;
    let crlf = before.contains("\r\n");
    let lf = |t: &str| t.replace("\r\n", "\n");
    let (old, new) = (lf(&before), lf(&after));
    let written = match crlf {
        true => new.replace('\n', "\r\n"),
        false => new.clone(),
    };
    let final_newline_kept =
        !tools.keeps_final_newline || before.ends_with('\n') == after.ends_with('\n');
    if new.contains('\r') || written != after || !final_newline_kept {
        return Err(format!(
            "Redline could not be sure what this edit writes: the accepted text of {} has line \
             endings the {} tool would change (it writes {} endings{}). Nothing was written; \
             ask the user how to go on.",
            file.path,
            tools.replace,
            if crlf { "CRLF" } else { "LF" },
            if tools.keeps_final_newline {
                ", and keeps the file's final newline or its lack of one"
            } else {
                ""
            }
        ));
    }
    Ok((old, new))
}

/// A replace of the whole reviewed text by the whole accepted one; `Err`: the reason to deny.
pub fn whole_replace(file: &Accepted) -> Result<(String, String), String> {
    let before = file.before.clone().unwrap_or_default();
    let after = file.after.clone().unwrap_or_default();
    if before.is_empty() {
        // An empty old text means "create the file" to these tools, which fails on one there.
        return Err(format!(
            "Redline could not be sure what this edit writes: {} is empty, and an edit of an \
             empty file cannot name the text it replaces. Write the whole file instead.",
            file.path
        ));
    }
    if before == after {
        return Err(format!(
            "The user reviewed this edit of {} in Redline and accepted a text that leaves the \
             file as it was: nothing was written.",
            file.path
        ));
    }
    Ok((before, after))
}

/// The one file of an accepted single-file edit put into the tool's input by `input_for`, with
/// the note for the model when the user changed its text; `Err`: the reason to deny (no file,
/// or no input writes it exactly).
pub fn answer_one(
    files: &[Accepted],
    input_for: impl FnOnce(&Accepted) -> Result<Value, String>,
) -> Result<(Value, Option<String>), String> {
    let file = files
        .first()
        .ok_or("Redline's answer named no file: the edit was not made.")?;
    Ok((input_for(file)?, note(file)))
}

/// What the model is told when the user changed its text; nothing when it did not.
pub fn note(file: &Accepted) -> Option<String> {
    file.edited.then(|| {
        format!(
            "The user reviewed this edit of {} in Redline and changed it before it was written: \
             the file now holds the user's text, not exactly what you proposed. Read it again \
             before editing it further.",
            file.path
        )
    })
}
