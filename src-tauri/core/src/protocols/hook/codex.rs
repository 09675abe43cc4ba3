//! Codex CLI's `PreToolUse` hook for `apply_patch`: its input read, and Redline's ruling in the
//! JSON Codex takes (`../shared/specs/cli-hooks.md`).

use super::own_patch;
use super::patch::{self, Change};
use super::patched;
use super::ruling::{Accepted, Edit, FileChange, HookOutput, HookRuling};
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
pub fn read(input: &serde_json::Value) -> Result<Edit, HookRuling> {
    let input = Input::deserialize(input).map_err(|e| HookRuling::Pass {
        why: format!("this is not Codex's apply_patch hook input ({e})"),
    })?;
    if input.tool_name != "apply_patch" {
        return Err(HookRuling::Pass {
            why: format!("`{}` is not an edit Redline reviews", input.tool_name),
        });
    }
    let changes = patch::parse(&input.tool_input.command).map_err(|e| HookRuling::Deny {
        reason: format!("Redline cannot read this patch: {e}"),
    })?;
    one_review_per_file(&changes).map_err(|reason| HookRuling::Deny { reason })?;
    Ok(Edit {
        cwd: input.cwd,
        changes: changes.into_iter().map(FileChange::Patch).collect(),
    })
}

/// Every path the patch touches (each file, each move's destination) touched once, each named
/// so that Codex and Redline cannot read it differently: a file changed twice would be two
/// reviews replacing each other, a move onto itself or onto another file of the patch loses a
/// file's text unseen.
fn one_review_per_file(changes: &[Change]) -> Result<(), String> {
    if changes.is_empty() {
        return Err("Redline refused this edit: the patch changes no file.".into());
    }
    let mut seen: Vec<(std::path::PathBuf, &str)> = Vec::new();
    for change in changes {
        let (path, to) = match change {
            Change::Add { path, .. } | Change::Delete { path } => (path, None),
            Change::Update { path, move_to, .. } => (path, move_to.as_ref()),
        };
        for p in std::iter::once(path).chain(to) {
            if p.is_empty() || p.trim() != p || p.contains(['\r', '\0']) {
                return Err(format!(
                    "Redline could not be sure what this edit writes: the path `{p}` starts or \
                     ends with whitespace, or is empty. Name the file without it."
                ));
            }
            let key = lexical(p);
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                let why = if Some(p) == to && first == path {
                    format!("it moves {path} onto itself ({p}), which would delete it")
                } else {
                    format!("it touches {first} and {p}, the same file, twice")
                };
                return Err(format!(
                    "Redline refused this edit: {why}. Send one change per file, in a patch of \
                     its own if need be."
                ));
            }
            seen.push((key, p));
        }
    }
    Ok(())
}

/// `p` with its `.` parts dropped and its `..` parts taken back, as the file system would reach
/// it from the same folder (links aside).
fn lexical(p: &str) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in std::path::Path::new(p).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// `ruling` as Codex's hook output.
pub fn answer(ruling: &HookRuling) -> HookOutput {
    let output = |specific: serde_json::Value| HookOutput {
        stdout: json!({ "hookSpecificOutput": specific }).to_string(),
        stderr: None,
        exit: 0,
    };
    match ruling {
        // Codex logs a bare `allow` as unsupported: saying nothing lets the patch go on.
        HookRuling::Allow => HookOutput::silent(None),
        HookRuling::AllowEdited { files } => {
            let mut specific = json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": { "command": patch(files) },
            });
            if let Some(note) = note(files) {
                specific["additionalContext"] = note.into();
            }
            output(specific)
        }
        HookRuling::Deny { reason } => output(json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        })),
        HookRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

/// Allowed with a patch of Redline's own that makes Codex write exactly the accepted text of
/// each file, edited or not (Codex's own reading of the model's patch never decides what is
/// written); denied with why if no patch can (never a near miss of what the user accepted).
pub fn settle(files: Vec<Accepted>) -> HookRuling {
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
        Ok(ends) if ends.len() == files.len() => ends,
        Ok(_) => {
            return HookRuling::Deny {
                reason: "Redline could not put the accepted edit into a patch Codex reads as \
                         Redline does: nothing was written."
                    .into(),
            }
        }
        Err(e) => {
            return HookRuling::Deny {
                reason: format!("Redline could not put the accepted edit into a patch: {e}"),
            }
        }
    };
    for (f, end) in files.iter().zip(&ends) {
        let to = f
            .after
            .as_ref()
            .map(|_| f.to.clone().unwrap_or_else(|| f.path.clone()));
        if end.after != f.after || end.path != f.path || end.to != to {
            let name = f.to.as_deref().unwrap_or(&f.path);
            return HookRuling::Deny {
                reason: format!(
                    "The user accepted this edit of {name} as a text that apply_patch cannot \
                     write exactly (it ends every line it writes, the last one too, as the \
                     file's first line ends, and cannot write an empty file or a path with \
                     surrounding spaces): nothing was written. Ask the user how to go on."
                ),
            };
        }
    }
    HookRuling::AllowEdited { files }
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
        (Some(before), Some(after)) => own_patch::replacement(
            &f.path,
            f.to.as_deref().filter(|to| *to != f.path),
            before,
            after,
        ),
    });
    patch::render(changes)
}

/// What the model is told when the user changed its text: read the file before going on.
fn note(files: &[Accepted]) -> Option<String> {
    let edited: Vec<&str> = files
        .iter()
        .filter(|f| f.edited)
        .map(|f| f.to.as_deref().unwrap_or(&f.path))
        .collect();
    if edited.is_empty() {
        return None;
    }
    Some(format!(
        "The user reviewed this patch in Redline and changed it before applying: {} now \
         hold(s) the user's text, not exactly what you proposed. Read them again before \
         editing them further.",
        edited.join(", ")
    ))
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
            Err(HookRuling::Pass { .. })
        ));
        assert!(matches!(
            read(&json!({"x": 1})),
            Err(HookRuling::Pass { .. })
        ));
        match read(&input(
            "apply_patch",
            "*** Begin Patch\nnonsense\n*** End Patch",
        )) {
            Err(HookRuling::Deny { reason }) => assert!(reason.contains("line 2"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_deny_carries_the_reason_and_a_pass_says_nothing_to_codex() {
        let deny = answer(&HookRuling::Deny {
            reason: "use tabs".into(),
        });
        let v: serde_json::Value = serde_json::from_str(&deny.stdout).unwrap();
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(
            v["hookSpecificOutput"]["permissionDecisionReason"],
            "use tabs"
        );
        let pass = answer(&HookRuling::Pass { why: "off".into() });
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
        let out = answer(&HookRuling::AllowEdited {
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
            HookRuling::AllowEdited { .. }
        ));
        for inexact in ["ONE\r\ntwo", "ONE\ntwo\n", "ONE\r\ntwo\n"] {
            match settle(vec![file(inexact)]) {
                HookRuling::Deny { reason } => assert!(reason.contains("a.txt"), "{reason}"),
                other => panic!("{inexact:?}: {other:?}"),
            }
        }
    }
}
