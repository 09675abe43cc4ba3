//! Qwen Code's `PreToolUse` hook for write_file and edit: its input read, and Redline's ruling
//! in the JSON Qwen Code takes. Its PreToolUse takes no changed input, so Qwen's reviews are
//! read-only (`../shared/specs/cli-hooks.md`).

use super::edit_tool::{self, Tools};
use super::ruling::{Edit, FileChange, HookOutput, HookRuling};
use serde_json::{json, Value};

pub const TOOLS: Tools = Tools {
    write: "write_file",
    replace: "edit",
    all_flag: "replace_all",
    keeps_final_newline: false,
};

/// The edit, where Redline's reading is Qwen's own (its review is read-only: Qwen writes from
/// the model's input); an input Qwen's `edit` reads otherwise is denied. Qwen 0.24.4's
/// `calculateEdit` matches in the file with CRLF read as LF, and an empty `new_string` whose
/// `old_string` ends without a newline takes the newline after it too
/// (`maybeAugmentOldStringForDeletion`).
pub fn read(input: &Value) -> Result<Edit, HookRuling> {
    let edit = edit_tool::read(&TOOLS, "Qwen Code", input)?;
    for change in &edit.changes {
        if let FileChange::Replace { path, old, new, .. } = change {
            let why = if old.contains('\r') || new.contains('\r') {
                Some("its text has a CR, and Qwen Code matches in the file read with CRLF as LF")
            } else if new.is_empty() && !old.ends_with('\n') {
                Some(
                    "it deletes a text that does not end with a newline, and Qwen Code then \
                     deletes the newline after it too. Include that newline in old_string",
                )
            } else {
                None
            };
            if let Some(why) = why {
                return Err(HookRuling::Deny {
                    reason: format!(
                        "Redline could not be sure what this edit of {path} writes: {why}."
                    ),
                });
            }
        }
    }
    Ok(edit)
}

/// `ruling` as Qwen Code's hook output: a deny with its reason, else nothing (Qwen Code asked
/// its own approval before its hooks ran).
pub fn answer(ruling: &HookRuling) -> HookOutput {
    match ruling {
        HookRuling::Allow | HookRuling::AllowEdited { .. } => HookOutput::silent(None),
        HookRuling::Deny { reason } => HookOutput {
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
        HookRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str) -> Value {
        json!({ "cwd": "/ws", "tool_name": "edit", "hook_event_name": "PreToolUse",
            "tool_input": { "file_path": "/ws/a.txt", "old_string": old, "new_string": new } })
    }

    #[test]
    fn an_edit_qwen_reads_otherwise_is_denied_as_not_sure_and_the_rest_read() {
        for (old, new) in [("foo", ""), ("a\r\nb", "c"), ("a", "b\r\n")] {
            match read(&edit(old, new)) {
                Err(HookRuling::Deny { reason }) => assert!(
                    reason.starts_with("Redline could not be sure what this edit of /ws/a.txt"),
                    "{reason}"
                ),
                other => panic!("{old:?} -> {new:?}: {other:?}"),
            }
        }
        for (old, new) in [("foo\n", ""), ("a", "b\nc")] {
            assert!(read(&edit(old, new)).is_ok(), "{old:?} -> {new:?}");
        }
    }
}
