//! Cursor's `preToolUse` hook for Write, Edit and StrReplace: its input read, and Redline's
//! ruling in the JSON Cursor takes (`permission`, `agent_message`, `user_message`). Whether
//! Cursor takes a changed input back is not settled in its docs, so its reviews are read-only.
//! Built from Cursor's docs, not proven against the real CLI (`../shared/specs/cli-hooks.md`).

use super::ruling::{Edit, FileChange, HookOutput, HookRuling};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
struct Input {
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
    cwd: Option<String>,
    #[serde(default)]
    workspace_roots: Vec<String>,
}

/// The first of `keys` `args` holds as a string (Cursor's docs and its tools name some
/// arguments two ways).
fn text(args: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
}

pub fn read(input: &Value) -> Result<Edit, HookRuling> {
    let pass = |why: String| HookRuling::Pass { why };
    let input = Input::deserialize(input)
        .map_err(|e| pass(format!("this is not Cursor's pre-edit hook input ({e})")))?;
    let tool = input.tool_name.as_str();
    if !["Write", "Edit", "StrReplace"].contains(&tool) {
        return Err(pass(format!("`{tool}` is not an edit Redline reviews")));
    }
    let args = &input.tool_input;
    let cannot = |what: &str| HookRuling::Deny {
        reason: format!("Redline cannot read this {tool} call: it has no {what}"),
    };
    let path = text(args, &["file_path", "path"]).ok_or_else(|| cannot("file path"))?;
    let old = text(args, &["old_string", "old_str"]);
    let change = match (old, text(args, &["new_string", "new_str"])) {
        (Some(old), Some(new)) => FileChange::Replace {
            path,
            old,
            new,
            all: args["replace_all"].as_bool().unwrap_or(false),
        },
        _ if tool == "Write" || tool == "Edit" => FileChange::Write {
            path,
            text: text(args, &["contents", "content", "file_text"])
                .ok_or_else(|| cannot("text to write"))?,
        },
        _ => return Err(cannot("text to replace")),
    };
    // Its paths are absolute; the folder is where to find the workspace.
    let cwd = input
        .cwd
        .or_else(|| input.workspace_roots.into_iter().next())
        .ok_or_else(|| pass("Cursor named no folder for this edit".into()))?;
    Ok(Edit {
        cwd,
        changes: vec![change],
    })
}

/// `ruling` as Cursor's hook output: `permission` allow or deny, a deny's reason to the agent
/// (`agent_message`) and to the user (`user_message`).
pub fn answer(ruling: &HookRuling) -> HookOutput {
    let say = |v: Value| HookOutput {
        stdout: v.to_string(),
        stderr: None,
        exit: 0,
    };
    match ruling {
        HookRuling::Allow | HookRuling::AllowEdited { .. } => say(json!({ "permission": "allow" })),
        HookRuling::Deny { reason } => say(json!({
            "permission": "deny",
            "agent_message": reason,
            "user_message": format!("Redline: {reason}"),
        })),
        HookRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, args: Value) -> Value {
        json!({
            "hook_event_name": "preToolUse", "conversation_id": "c", "generation_id": "g",
            "workspace_roots": ["/w"], "tool_name": tool, "tool_input": args,
        })
    }

    #[test]
    fn write_edit_and_str_replace_are_read_under_either_name_for_their_arguments() {
        let one = |tool: &str, args: Value| read(&call(tool, args)).unwrap();
        let w = one("Write", json!({ "file_path": "/w/a", "contents": "x" }));
        assert_eq!(w.cwd, "/w");
        assert_eq!(
            w.changes[0],
            FileChange::Write {
                path: "/w/a".into(),
                text: "x".into()
            }
        );
        let r = one(
            "StrReplace",
            json!({ "path": "/w/a", "old_string": "o", "new_string": "n" }),
        );
        assert_eq!(
            r.changes[0],
            FileChange::Replace {
                path: "/w/a".into(),
                old: "o".into(),
                new: "n".into(),
                all: false
            }
        );
        let e = one(
            "Edit",
            json!({ "file_path": "/w/a", "old_string": "o", "new_string": "n", "replace_all": true }),
        );
        assert!(matches!(
            e.changes[0],
            FileChange::Replace { all: true, .. }
        ));
        let mut with_cwd = call("Write", json!({ "file_path": "/x/a", "content": "" }));
        with_cwd["cwd"] = json!("/x");
        assert_eq!(read(&with_cwd).unwrap().cwd, "/x");
    }

    #[test]
    fn other_tools_pass_and_an_edit_without_its_arguments_is_denied() {
        assert!(matches!(
            read(&call("Shell", json!({ "command": "ls" }))),
            Err(HookRuling::Pass { .. })
        ));
        match read(&call("StrReplace", json!({ "path": "/w/a" }))) {
            Err(HookRuling::Deny { reason }) => assert!(reason.contains("StrReplace"), "{reason}"),
            _ => panic!("an edit Redline cannot read must be denied"),
        }
        let mut nowhere = call("Write", json!({ "file_path": "/w/a", "contents": "" }));
        nowhere["workspace_roots"] = json!([]);
        assert!(matches!(read(&nowhere), Err(HookRuling::Pass { .. })));
    }

    #[test]
    fn a_deny_carries_the_reason_to_the_agent_and_the_user() {
        let out = answer(&HookRuling::Deny {
            reason: "too risky".into(),
        });
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(out.exit, 0);
        assert_eq!(v["permission"], "deny");
        assert_eq!(v["agent_message"], "too risky");
        assert_eq!(v["user_message"], "Redline: too risky");
        let v: Value = serde_json::from_str(&answer(&HookRuling::Allow).stdout).unwrap();
        assert_eq!(v, json!({ "permission": "allow" }));
    }
}
