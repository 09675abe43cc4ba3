//! opencode's plugin input read, and the answers the plugin acts on.

use super::*;

fn call(tool: &str, args: Value) -> Value {
    json!({ "tool": tool, "sessionID": "s", "callID": "c", "cwd": "/w", "args": args })
}

fn accepted(before: Option<&str>, after: &str) -> Accepted {
    Accepted {
        path: "/w/a.txt".into(),
        to: Some("/w/a.txt".into()),
        before: before.map(Into::into),
        after: Some(after.into()),
        edited: true,
    }
}

fn said(out: &HookOutput) -> Value {
    assert_eq!(out.exit, 0);
    serde_json::from_str(&out.stdout).unwrap()
}

#[test]
fn write_edit_and_apply_patch_are_read_and_other_tools_pass() {
    let edit = read(&call(
        "write",
        json!({ "filePath": "/w/a.txt", "content": "x\n" }),
    ))
    .unwrap();
    assert_eq!(edit.cwd, "/w");
    assert_eq!(
        edit.changes,
        vec![FileChange::Write {
            path: "/w/a.txt".into(),
            text: "x\n".into()
        }]
    );
    let args =
        json!({ "filePath": "a.txt", "oldString": "1", "newString": "2", "replaceAll": true });
    assert_eq!(
        read(&call("edit", args)).unwrap().changes,
        vec![FileChange::Replace {
            path: "a.txt".into(),
            old: "1".into(),
            new: "2".into(),
            all: true
        }]
    );
    let create = json!({ "filePath": "n.txt", "oldString": "", "newString": "new\n" });
    assert_eq!(
        read(&call("edit", create)).unwrap().changes,
        vec![FileChange::Write {
            path: "n.txt".into(),
            text: "new\n".into()
        }]
    );
    let patch = "*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch";
    let edit = read(&call("apply_patch", json!({ "patchText": patch }))).unwrap();
    assert_eq!(edit.changes.len(), 1);
    assert_eq!(edit.changes[0].path(), "b.txt");

    assert!(matches!(
        read(&call("bash", json!({ "command": "ls" }))),
        Err(HookRuling::Pass { .. })
    ));
    assert!(matches!(
        read(&json!({ "tool_name": "Write" })),
        Err(HookRuling::Pass { .. })
    ));
    match read(&call("write", json!({ "filePath": 3 }))) {
        Err(HookRuling::Deny { reason }) => assert!(reason.contains("write"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn allow_deny_and_pass_are_the_plugin_s_small_json() {
    let input = call("write", json!({ "filePath": "a", "content": "x" }));
    assert_eq!(
        said(&answer(&input, &HookRuling::Allow)),
        json!({ "verdict": "allow" })
    );
    let deny = answer(
        &input,
        &HookRuling::Deny {
            reason: "use tabs".into(),
        },
    );
    assert_eq!(
        said(&deny),
        json!({ "verdict": "deny", "reason": "use tabs" })
    );
    let pass = answer(&input, &HookRuling::Pass { why: "off".into() });
    assert_eq!(said(&pass), json!({ "verdict": "pass" }));
    assert_eq!(pass.stderr.as_deref(), Some("redline: off"));
}

#[test]
fn an_edited_write_or_edit_carries_the_user_s_whole_text() {
    let input = call("write", json!({ "filePath": "/w/a.txt", "content": "x" }));
    let files = vec![accepted(Some("old\n"), "mine\n")];
    let v = said(&answer(
        &input,
        &HookRuling::AllowEdited {
            files: files.clone(),
        },
    ));
    assert_eq!(v["verdict"], "allow");
    assert_eq!(v["args"], json!({ "content": "mine\n" }));
    assert!(v["note"].as_str().unwrap().contains("/w/a.txt"));

    let input = call(
        "edit",
        json!({ "filePath": "/w/a.txt", "oldString": "old", "newString": "new" }),
    );
    let v = said(&answer(&input, &HookRuling::AllowEdited { files }));
    assert_eq!(
        v["args"],
        json!({ "oldString": "old\n", "newString": "mine\n", "replaceAll": false })
    );
    let v = said(&answer(
        &input,
        &HookRuling::AllowEdited {
            files: vec![accepted(None, "made\n")],
        },
    ));
    assert_eq!(
        v["args"],
        json!({ "oldString": "", "newString": "made\n", "replaceAll": false })
    );
}

#[test]
fn an_edit_opencode_would_not_write_exactly_is_denied() {
    let input = call(
        "edit",
        json!({ "filePath": "/w/a.txt", "oldString": "a", "newString": "b" }),
    );
    let deny = |before: &str, after: &str| {
        let v = said(&answer(
            &input,
            &HookRuling::AllowEdited {
                files: vec![accepted(Some(before), after)],
            },
        ));
        (v["verdict"] == "deny").then(|| v["reason"].as_str().unwrap().to_owned())
    };
    // opencode gives a CRLF file's new text CRLF everywhere, and an LF file's LF.
    assert!(deny("a\r\nb\r\n", "a\r\nB\n")
        .unwrap()
        .contains("line ending"));
    assert!(deny("a\nb\n", "a\r\nB\n").is_some());
    assert_eq!(deny("a\r\nb\r\n", "a\r\nB\r\n"), None);
    // Back to what it was: nothing to write, and the model is told so.
    assert!(deny("a\n", "a\n")
        .unwrap()
        .contains("left the file as it was"));
    // The byte-order mark is opencode's to keep: it is not part of the text it replaces.
    let v = said(&answer(
        &input,
        &HookRuling::AllowEdited {
            files: vec![accepted(Some("\u{feff}a\n"), "\u{feff}b\n")],
        },
    ));
    assert_eq!(v["args"]["oldString"], "a\n");
    assert_eq!(v["args"]["newString"], "b\n");
}

#[test]
fn an_edited_apply_patch_is_a_patch_of_the_user_s_text() {
    let input = call("apply_patch", json!({ "patchText": "ignored" }));
    let v = said(&answer(
        &input,
        &HookRuling::AllowEdited {
            files: vec![accepted(Some("one\ntwo\n"), "one\nTWO mine\n")],
        },
    ));
    assert_eq!(v["verdict"], "allow");
    let text = v["args"]["patchText"].as_str().unwrap();
    let changes = patch::parse(text).unwrap();
    let ends = super::super::patched::outcomes(&changes, |_: &str| {
        Ok::<_, String>(Some("one\ntwo\n".to_owned()))
    })
    .unwrap();
    assert_eq!(ends[0].after.as_deref(), Some("one\nTWO mine\n"));
}
