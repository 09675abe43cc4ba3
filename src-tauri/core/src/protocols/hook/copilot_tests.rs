//! Copilot CLI's hook input read, and each ruling put in its words, as 1.0.102 sends and reads them.

use super::*;

/// What Copilot CLI 1.0.102 wrote on its hook's stdin for an `edit` (captured from the real one).
fn edit_input() -> Value {
    json!({
        "sessionId": "e8dc0e03-7da0-490e-9c74-4a3a7631e778",
        "timestamp": 1795790654980u64,
        "cwd": "/ws",
        "toolName": "edit",
        "toolArgs": { "path": "/ws/a.txt", "old_str": "two", "new_str": "TWO" },
    })
}

#[test]
fn an_edit_is_one_replace_and_a_create_one_create_whether_args_are_an_object_or_text() {
    assert_eq!(
        read(&edit_input()).unwrap(),
        Edit {
            cwd: "/ws".into(),
            changes: vec![FileChange::Replace {
                path: "/ws/a.txt".into(),
                old: "two".into(),
                new: "TWO".into(),
                all: false,
            }],
        }
    );
    let mut create = edit_input();
    create["toolName"] = json!("create");
    create["toolArgs"] = json!(r#"{"path":"new.txt","file_text":"héllo\n"}"#);
    assert_eq!(
        read(&create).unwrap().changes,
        vec![FileChange::Create {
            path: "new.txt".into(),
            text: "héllo\n".into(),
        }]
    );
}

#[test]
fn another_tool_passes_and_unreadable_args_are_denied_with_why() {
    let mut view = edit_input();
    view["toolName"] = json!("view");
    assert!(matches!(read(&view), Err(HookRuling::Pass { why }) if why.contains("`view`")));
    assert!(matches!(
        read(&json!({ "tool_name": "edit" })),
        Err(HookRuling::Pass { why }) if why.contains("not Copilot CLI's")
    ));
    for args in [json!({ "path": "/ws/a.txt" }), json!("{not json")] {
        let mut bad = edit_input();
        bad["toolArgs"] = args;
        match read(&bad) {
            Err(HookRuling::Deny { reason }) => {
                assert!(
                    reason.starts_with("Redline cannot read this edit call"),
                    "{reason}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn each_ruling_in_copilots_words() {
    let input = edit_input();
    let said =
        |v: &HookRuling| -> Value { serde_json::from_str(&answer(&input, v).stdout).unwrap() };
    assert_eq!(
        said(&HookRuling::Allow),
        json!({ "permissionDecision": "allow", "permissionDecisionReason": "Accepted in Redline" })
    );
    assert_eq!(
        said(&HookRuling::Deny {
            reason: "keep it lowercase".into()
        }),
        json!({ "permissionDecision": "deny", "permissionDecisionReason": "keep it lowercase" })
    );
    let pass = answer(
        &input,
        &HookRuling::Pass {
            why: "Redline is not running".into(),
        },
    );
    assert_eq!((pass.stdout.as_str(), pass.exit), ("", 0));
    assert_eq!(
        pass.stderr.as_deref(),
        Some("redline: Redline is not running")
    );
}

#[test]
fn the_users_text_comes_back_as_the_whole_file_for_the_whole_file() {
    let edited = HookRuling::AllowEdited {
        files: vec![Accepted {
            path: "/ws/a.txt".into(),
            to: None,
            before: Some("one\ntwo\nthree\n".into()),
            after: Some("one\nmine\nthree\n".into()),
            edited: true,
        }],
    };
    let out: Value = serde_json::from_str(&answer(&edit_input(), &edited).stdout).unwrap();
    assert_eq!(out["permissionDecision"], "allow");
    assert_eq!(
        out["modifiedArgs"],
        json!({ "path": "/ws/a.txt", "old_str": "one\ntwo\nthree\n", "new_str": "one\nmine\nthree\n" })
    );
    assert!(out["additionalContext"]
        .as_str()
        .unwrap()
        .contains("changed it"));

    // A create given as text: its other arguments kept, its text the user's.
    let mut create = edit_input();
    create["toolName"] = json!("create");
    create["toolArgs"] = json!(r#"{"path":"/ws/n.txt","file_text":"theirs"}"#);
    let HookRuling::AllowEdited { mut files } = edited else {
        unreachable!()
    };
    files[0].path = "/ws/n.txt".into();
    files[0].before = None;
    let out: Value =
        serde_json::from_str(&answer(&create, &HookRuling::AllowEdited { files }).stdout).unwrap();
    assert_eq!(
        out["modifiedArgs"],
        json!({ "path": "/ws/n.txt", "file_text": "one\nmine\nthree\n" })
    );
}
