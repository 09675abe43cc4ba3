//! Kiro CLI's `PreToolUse` hook for fs_write: its input read, and Redline's ruling in Kiro's
//! terms (exit 2 blocks, stderr is what the model reads). Kiro takes no changed input back, so
//! its reviews are read-only. Built from Kiro's docs and its tool's published source, not
//! proven against the real CLI (`../shared/specs/cli-hooks.md`).

use super::ruling::{Edit, FileChange, HookOutput, HookRuling};
use serde::Deserialize;
use serde_json::Value;

/// Kiro's file-writing tool, by its two names (the second is its alias in agent configs), and
/// `str_replace`, which Kiro's V3 hook docs match beside it as a tool of its own.
const TOOLS: [&str; 3] = ["fs_write", "write", "str_replace"];

#[derive(Deserialize)]
struct Input {
    cwd: String,
    tool_name: String,
    tool_input: Value,
}

/// fs_write's arguments, one shape per command.
#[derive(Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
enum FsWrite {
    /// `new_str` stands in when the model gave no `file_text`, as Kiro itself reads it.
    Create {
        path: String,
        file_text: Option<String>,
        new_str: Option<String>,
    },
    StrReplace {
        path: String,
        old_str: String,
        new_str: String,
    },
    Insert {
        path: String,
        insert_line: usize,
        new_str: String,
    },
    Append {
        path: String,
        new_str: String,
    },
}

pub fn read(input: &Value) -> Result<Edit, HookRuling> {
    let pass = |why: String| HookRuling::Pass { why };
    let input = Input::deserialize(input)
        .map_err(|e| pass(format!("this is not Kiro CLI's pre-edit hook input ({e})")))?;
    if !TOOLS.contains(&input.tool_name.as_str()) {
        return Err(pass(format!(
            "`{}` is not an edit Redline reviews",
            input.tool_name
        )));
    }
    let mut args = input.tool_input.clone();
    // As a tool of its own, `str_replace` may not name the command its arguments are for.
    if input.tool_name == "str_replace" && args.get("command").is_none() {
        if let Some(o) = args.as_object_mut() {
            o.insert("command".into(), "str_replace".into());
        }
    }
    let call = FsWrite::deserialize(&args).map_err(|e| HookRuling::Deny {
        reason: format!("Redline cannot read this {} call: {e}", input.tool_name),
    })?;
    let change = match call {
        FsWrite::Create {
            path,
            file_text,
            new_str,
        } => FileChange::Write {
            path,
            text: file_text.or(new_str).unwrap_or_default(),
        },
        // Kiro replaces exactly one occurrence and fails on more.
        FsWrite::StrReplace {
            path,
            old_str,
            new_str,
        } => FileChange::Replace {
            path,
            old: old_str,
            new: new_str,
            all: false,
        },
        FsWrite::Insert {
            path,
            insert_line,
            new_str,
        } => FileChange::Insert {
            path,
            after: insert_line,
            text: new_str,
        },
        FsWrite::Append { path, new_str } => FileChange::Append {
            path,
            text: new_str,
        },
    };
    Ok(Edit {
        cwd: input.cwd,
        changes: vec![change],
    })
}

/// `ruling` as Kiro CLI reads a hook: a deny is exit 2 with the reason on stderr (the model
/// reads it); anything else is exit 0 and nothing on stdout.
pub fn answer(ruling: &HookRuling) -> HookOutput {
    match ruling {
        HookRuling::Allow | HookRuling::AllowEdited { .. } => HookOutput::silent(None),
        HookRuling::Deny { reason } => HookOutput {
            stdout: String::new(),
            stderr: Some(reason.clone()),
            exit: 2,
        },
        HookRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(tool: &str, args: Value) -> Value {
        json!({ "hook_event_name": "preToolUse", "cwd": "/w", "tool_name": tool, "tool_input": args })
    }

    #[test]
    fn each_fs_write_command_is_read_as_the_change_kiro_makes() {
        let read_one = |args: Value| read(&call("fs_write", args)).unwrap().changes.remove(0);
        assert_eq!(
            read_one(json!({ "command": "create", "path": "a", "file_text": "x\n" })),
            FileChange::Write {
                path: "a".into(),
                text: "x\n".into()
            }
        );
        assert_eq!(
            read_one(json!({ "command": "create", "path": "a", "new_str": "y" })),
            FileChange::Write {
                path: "a".into(),
                text: "y".into()
            }
        );
        assert_eq!(
            read_one(
                json!({ "command": "str_replace", "path": "a", "old_str": "o", "new_str": "n", "summary": "s" })
            ),
            FileChange::Replace {
                path: "a".into(),
                old: "o".into(),
                new: "n".into(),
                all: false
            }
        );
        assert_eq!(
            read_one(json!({ "command": "insert", "path": "a", "insert_line": 2, "new_str": "i" })),
            FileChange::Insert {
                path: "a".into(),
                after: 2,
                text: "i".into()
            }
        );
        assert_eq!(
            read_one(json!({ "command": "append", "path": "a", "new_str": "z" })),
            FileChange::Append {
                path: "a".into(),
                text: "z".into()
            }
        );
        let own = read(&call(
            "str_replace",
            json!({ "path": "a", "old_str": "o", "new_str": "n" }),
        ));
        assert!(matches!(
            own.unwrap().changes[0],
            FileChange::Replace { .. }
        ));
        let aliased = read(&call(
            "write",
            json!({ "command": "create", "path": "b", "file_text": "" }),
        ));
        assert_eq!(aliased.unwrap().cwd, "/w");
    }

    #[test]
    fn another_tool_passes_and_an_unreadable_write_is_denied_with_why() {
        let other = read(&call("execute_bash", json!({ "command": "ls" })));
        assert!(matches!(other, Err(HookRuling::Pass { .. })));
        let odd = read(&call(
            "fs_write",
            json!({ "command": "chmod", "path": "a" }),
        ));
        match odd {
            Err(HookRuling::Deny { reason }) => assert!(reason.contains("chmod"), "{reason}"),
            _ => panic!("an fs_write Redline cannot read must be denied"),
        }
        assert!(matches!(
            read(&json!({ "x": 1 })),
            Err(HookRuling::Pass { .. })
        ));
    }

    #[test]
    fn a_deny_is_exit_2_with_the_reason_on_stderr_and_an_allow_says_nothing() {
        let out = answer(&HookRuling::Deny {
            reason: "too risky".into(),
        });
        assert_eq!(
            (out.stdout.as_str(), out.stderr.as_deref(), out.exit),
            ("", Some("too risky"), 2)
        );
        let out = answer(&HookRuling::Allow);
        assert_eq!((out.stdout.as_str(), out.stderr, out.exit), ("", None, 0));
        let out = answer(&HookRuling::Pass { why: "off".into() });
        assert_eq!((out.exit, out.stderr.as_deref()), (0, Some("redline: off")));
    }
}
