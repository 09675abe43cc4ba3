//! Codex CLI's `PreToolUse` hook for `apply_patch`: its input read, and Redline's verdict in the
//! JSON Codex takes (`../shared/specs/cli-hooks.md`).

use super::patch::{self, Change};
use super::patched;
use super::verdict::{Accepted, Edit, FileChange, HookOutput, HookVerdict};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
struct Input {
    cwd: String,
    tool_name: String,
    tool_input: ToolInput,
}

#[derive(Deserialize)]
struct ToolInput {
    command: String,
}

/// The edit Codex is about to make. Another tool, or input that is not Codex's, passes (Codex
/// goes on as it would); a patch that cannot be read is denied with why, as Codex would fail it.
pub fn read(input: &serde_json::Value) -> Result<Edit, HookVerdict> {
    let input = Input::deserialize(input).map_err(|e| HookVerdict::Pass {
        why: format!("this is not Codex's apply_patch hook input ({e})"),
    })?;
    if input.tool_name != "apply_patch" {
        return Err(HookVerdict::Pass {
            why: format!("`{}` is not an edit Redline reviews", input.tool_name),
        });
    }
    let changes = patch::parse(&input.tool_input.command).map_err(|e| HookVerdict::Deny {
        reason: format!("Redline cannot read this patch: {e}"),
    })?;
    Ok(Edit {
        cwd: input.cwd,
        changes: changes.into_iter().map(FileChange::Patch).collect(),
    })
}

/// `verdict` as Codex's hook output.
pub fn answer(verdict: &HookVerdict) -> HookOutput {
    let output = |specific: serde_json::Value| HookOutput {
        stdout: json!({ "hookSpecificOutput": specific }).to_string(),
        stderr: None,
        exit: 0,
    };
    match verdict {
        // Codex logs a bare `allow` as unsupported: saying nothing lets the patch go on.
        HookVerdict::Allow => HookOutput::silent(None),
        HookVerdict::AllowEdited { files } => output(json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": { "command": patch(files) },
            "additionalContext": note(files),
        })),
        HookVerdict::Deny { reason } => output(json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        })),
        HookVerdict::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

/// Allowed with the user's text, if a patch can make Codex write exactly it; else denied with
/// why (never a near miss of what the user accepted).
pub fn settle(files: Vec<Accepted>) -> HookVerdict {
    let patch = patch(&files);
    let before = |p: &str| {
        Ok::<_, String>(
            files
                .iter()
                .find(|f| f.path == p)
                .and_then(|f| f.before.clone()),
        )
    };
    let ends = patch::parse(&patch)
        .map_err(|e| e.to_string())
        .and_then(|changes| patched::outcomes(&changes, before).map_err(|e| e.to_string()));
    let ends = match ends {
        Ok(ends) => ends,
        Err(e) => {
            return HookVerdict::Deny {
                reason: format!("Redline could not put the user's edits into a patch: {e}"),
            }
        }
    };
    for (f, end) in files.iter().zip(&ends) {
        if end.after != f.after {
            let name = f.to.as_deref().unwrap_or(&f.path);
            return HookVerdict::Deny {
                reason: format!(
                    "The user accepted this edit of {name} with changes that apply_patch cannot \
                     write exactly (it ends every line, the last one too, as the file's first \
                     line ends): nothing was written. Ask the user how to go on."
                ),
            };
        }
    }
    HookVerdict::AllowEdited { files }
}

/// A patch that leaves every file exactly as accepted.
pub(super) fn patch(files: &[Accepted]) -> String {
    let changes = files.iter().map(|f| match (&f.before, &f.after) {
        (_, None) => Change::Delete {
            path: f.path.clone(),
        },
        (None, Some(after)) => Change::Add {
            path: f.to.clone().unwrap_or_else(|| f.path.clone()),
            text: after.clone(),
        },
        (Some(before), Some(after)) => patch::replacement(
            &f.path,
            f.to.as_deref().filter(|to| *to != f.path),
            before,
            after,
        ),
    });
    patch::render(changes)
}

/// What the model is told: the user changed its text, so it reads the file before going on.
fn note(files: &[Accepted]) -> String {
    let edited: Vec<&str> = files
        .iter()
        .filter(|f| f.edited)
        .map(|f| f.to.as_deref().unwrap_or(&f.path))
        .collect();
    format!(
        "The user reviewed this patch in Redline and changed it before applying: {} now \
         hold(s) the user's text, not exactly what you proposed. Read them again before \
         editing them further.",
        edited.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(tool: &str, patch: &str) -> serde_json::Value {
        json!({
            "session_id": "s", "turn_id": "t", "cwd": "/w", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_use_id": "u", "tool_input": { "command": patch },
        })
    }

    #[test]
    fn an_apply_patch_is_read_and_other_tools_pass() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch";
        let edit = read(&input("apply_patch", patch)).unwrap();
        assert_eq!(edit.cwd, "/w");
        assert_eq!(edit.changes.len(), 1);
        assert!(matches!(
            read(&input("shell", "ls")),
            Err(HookVerdict::Pass { .. })
        ));
        assert!(matches!(
            read(&json!({"x": 1})),
            Err(HookVerdict::Pass { .. })
        ));
        match read(&input(
            "apply_patch",
            "*** Begin Patch\nnonsense\n*** End Patch",
        )) {
            Err(HookVerdict::Deny { reason }) => assert!(reason.contains("line 2"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_deny_carries_the_reason_and_a_pass_says_nothing_to_codex() {
        let deny = answer(&HookVerdict::Deny {
            reason: "use tabs".into(),
        });
        let v: serde_json::Value = serde_json::from_str(&deny.stdout).unwrap();
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(
            v["hookSpecificOutput"]["permissionDecisionReason"],
            "use tabs"
        );
        let pass = answer(&HookVerdict::Pass { why: "off".into() });
        assert_eq!((pass.stdout.as_str(), pass.exit), ("", 0));
        assert_eq!(pass.stderr.as_deref(), Some("redline: off"));
    }

    #[test]
    fn an_edited_answer_is_a_patch_that_yields_every_accepted_text() {
        let files = vec![
            Accepted {
                path: "a.txt".into(),
                to: Some("a.txt".into()),
                before: Some("one\ntwo\n".into()),
                after: Some("one\nTWO edited\n".into()),
                edited: true,
            },
            Accepted {
                path: "new.txt".into(),
                to: Some("new.txt".into()),
                before: None,
                after: Some("n\n".into()),
                edited: false,
            },
            Accepted {
                path: "old.txt".into(),
                to: None,
                before: Some("o\n".into()),
                after: None,
                edited: false,
            },
        ];
        let out = answer(&HookVerdict::AllowEdited {
            files: files.clone(),
        });
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let specific = &v["hookSpecificOutput"];
        assert_eq!(specific["permissionDecision"], "allow");
        assert!(specific["additionalContext"]
            .as_str()
            .unwrap()
            .contains("a.txt"));
        let patch = specific["updatedInput"]["command"].as_str().unwrap();
        let disk = |p: &str| -> Result<Option<String>, String> {
            Ok(files
                .iter()
                .find(|f| f.path == p)
                .and_then(|f| f.before.clone()))
        };
        let ends = patched::outcomes(&patch::parse(patch).unwrap(), disk).unwrap();
        let got: Vec<_> = ends.iter().map(|o| o.after.clone()).collect();
        let want: Vec<_> = files.iter().map(|f| f.after.clone()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn an_edit_codex_cannot_write_exactly_is_denied_and_a_crlf_one_it_can_is_allowed() {
        let file = |after: &str| Accepted {
            path: "a.txt".into(),
            to: Some("a.txt".into()),
            before: Some("one\r\ntwo\r\n".into()),
            after: Some(after.into()),
            edited: true,
        };
        assert!(matches!(
            settle(vec![file("ONE\r\ntwo\r\n")]),
            HookVerdict::AllowEdited { .. }
        ));
        for inexact in ["ONE\r\ntwo", "ONE\ntwo\n", "ONE\r\ntwo\n"] {
            match settle(vec![file(inexact)]) {
                HookVerdict::Deny { reason } => assert!(reason.contains("a.txt"), "{reason}"),
                other => panic!("{inexact:?}: {other:?}"),
            }
        }
    }
}
