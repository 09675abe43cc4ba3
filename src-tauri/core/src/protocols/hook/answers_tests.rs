//! Every accept in the CLIs whose hook can replace the tool's input is answered with an input of
//! Redline's own making (the whole reviewed original for the whole accepted text), edited or
//! not; the others answer a plain allow; what no input can write exactly is denied with why.

use super::*;
use serde_json::{json, Value};

fn file(before: Option<&str>, after: &str, edited: bool) -> Accepted {
    Accepted {
        path: "/ws/a.txt".into(),
        to: Some("/ws/a.txt".into()),
        before: before.map(Into::into),
        after: Some(after.into()),
        edited,
    }
}

fn hook_input(tool: &str, args: Value) -> Value {
    json!({ "session_id": "s", "cwd": "/ws", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": args })
}

fn said(out: &HookOutput) -> Value {
    assert_eq!(out.exit, 0, "{out:?}");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

/// A curly-quoted, CRLF, twice-occurring, no-final-newline text: what a CLI's loose matching
/// would read its own way.
const BEFORE: &str = "say \u{201c}hi\u{201d}\r\nx = 1\r\nx = 1  \r\nend";
const AFTER: &str = "say \u{201c}hi\u{201d}\r\nx = 2\r\nx = 1  \r\nend";

#[test]
fn an_unedited_accept_still_carries_the_whole_reviewed_text_for_claude_gemini_copilot_opencode() {
    for cli in [
        HookCli::of("claude").unwrap(),
        HookCli::of("gemini").unwrap(),
        HookCli::of("copilot").unwrap(),
        HookCli::of("opencode").unwrap(),
    ] {
        let v = settle(cli, vec![file(Some(BEFORE), AFTER, false)]);
        assert!(matches!(&v, HookRuling::AllowEdited { .. }), "{cli}: {v:?}");
    }
    for cli in [
        HookCli::of("qwen").unwrap(),
        HookCli::of("kiro").unwrap(),
        HookCli::of("cursor").unwrap(),
    ] {
        assert_eq!(
            settle(cli, vec![file(Some(BEFORE), AFTER, false)]),
            HookRuling::Allow
        );
    }
    let v = settle(
        HookCli::of("claude").unwrap(),
        vec![file(Some(BEFORE), AFTER, false)],
    );
    let edit = hook_input(
        "Edit",
        json!({ "file_path": "/ws/a.txt", "old_string": "x = 1", "new_string": "x = 2",
            "replace_all": true }),
    );
    let out =
        said(&answer(HookCli::of("claude").unwrap(), &edit, &v))["hookSpecificOutput"].clone();
    assert_eq!(out["permissionDecision"], "allow");
    // Claude Code and Gemini CLI match in the file's text with CRLF read as LF, and write CRLF
    // back: both texts go with LF endings.
    let (old, new) = (BEFORE.replace("\r\n", "\n"), AFTER.replace("\r\n", "\n"));
    assert_eq!(
        out["updatedInput"],
        json!({ "file_path": "/ws/a.txt", "old_string": old, "new_string": new,
            "replace_all": false })
    );
    // Nothing was changed by the user: the model is told nothing more.
    assert!(out.get("additionalContext").is_none(), "{out}");

    let replace = hook_input(
        "replace",
        json!({ "file_path": "/ws/a.txt", "old_string": "x = 1", "new_string": "x = 2",
            "allow_multiple": true, "instruction": "bump x" }),
    );
    let out =
        said(&answer(HookCli::of("gemini").unwrap(), &replace, &v))["hookSpecificOutput"].clone();
    assert_eq!(
        out["tool_input"],
        json!({ "file_path": "/ws/a.txt", "old_string": old, "new_string": new,
            "allow_multiple": false, "instruction": "bump x" })
    );
    assert!(out.get("additionalContext").is_none(), "{out}");

    let copilot = json!({ "cwd": "/ws", "toolName": "edit",
        "toolArgs": { "path": "/ws/a.txt", "old_str": "x = 1", "new_str": "x = 2" } });
    let out = said(&answer(HookCli::of("copilot").unwrap(), &copilot, &v));
    assert_eq!(
        out["modifiedArgs"],
        json!({ "path": "/ws/a.txt", "old_str": BEFORE, "new_str": AFTER })
    );
    assert!(out.get("additionalContext").is_none(), "{out}");

    let opencode = json!({ "tool": "edit", "cwd": "/ws", "sessionID": "s", "callID": "c",
        "args": { "filePath": "/ws/a.txt", "oldString": "x = 1", "newString": "x = 2" } });
    let out = said(&answer(HookCli::of("opencode").unwrap(), &opencode, &v));
    assert_eq!(out["verdict"], "allow");
    assert_eq!(out["args"]["oldString"], BEFORE);
    assert_eq!(out["args"]["newString"], AFTER);
    assert!(out.get("note").is_none(), "{out}");
}

#[test]
fn a_write_carries_the_accepted_text_and_an_edited_accept_tells_the_model() {
    let write = hook_input(
        "Write",
        json!({ "file_path": "/ws/a.txt", "content": "theirs" }),
    );
    let v = settle(
        HookCli::of("claude").unwrap(),
        vec![file(Some("old"), "mine\n", true)],
    );
    let out =
        said(&answer(HookCli::of("claude").unwrap(), &write, &v))["hookSpecificOutput"].clone();
    assert_eq!(
        out["updatedInput"],
        json!({ "file_path": "/ws/a.txt", "content": "mine\n" })
    );
    assert!(out["additionalContext"]
        .as_str()
        .unwrap()
        .contains("changed it"));
}

#[test]
fn what_no_replace_can_write_exactly_is_denied_with_a_reason_the_model_reads() {
    let edit = hook_input(
        "Edit",
        json!({ "file_path": "/ws/a.txt", "old_string": "a", "new_string": "b" }),
    );
    let deny = |v: &HookRuling| {
        let out =
            said(&answer(HookCli::of("claude").unwrap(), &edit, v))["hookSpecificOutput"].clone();
        assert_eq!(out["permissionDecision"], "deny", "{out}");
        out["permissionDecisionReason"].as_str().unwrap().to_owned()
    };
    // An empty original cannot be named as the text replaced ("" means "create" to the tools).
    let empty = settle(
        HookCli::of("claude").unwrap(),
        vec![file(Some(""), "x", true)],
    );
    assert!(deny(&empty).contains("Redline could not be sure what this edit writes"));
    // A text that leaves the file as it was: the tool would fail with "no changes".
    let same = settle(
        HookCli::of("claude").unwrap(),
        vec![file(Some("a\n"), "a\n", false)],
    );
    assert!(deny(&same).contains("nothing was written"));
    // An answer naming no file is a no, never a silent allow.
    let none = HookRuling::AllowEdited { files: vec![] };
    for cli in [
        HookCli::of("claude").unwrap(),
        HookCli::of("gemini").unwrap(),
        HookCli::of("copilot").unwrap(),
    ] {
        let out = answer(cli, &edit, &none);
        assert!(out.stdout.contains("deny"), "{cli}: {out:?}");
    }
    let replace = hook_input(
        "replace",
        json!({ "file_path": "/ws/a.txt", "old_string": "a", "new_string": "b" }),
    );
    let gemini = said(&answer(HookCli::of("gemini").unwrap(), &replace, &empty));
    assert_eq!(gemini["decision"], "deny");
}

#[test]
fn line_endings_or_a_final_newline_the_replace_would_change_are_denied() {
    let replace = hook_input(
        "replace",
        json!({ "file_path": "/ws/a.txt", "old_string": "a", "new_string": "b" }),
    );
    let ruling = |before: &str, after: &str| {
        let v = settle(
            HookCli::of("gemini").unwrap(),
            vec![file(Some(before), after, true)],
        );
        said(&answer(HookCli::of("gemini").unwrap(), &replace, &v))
    };
    // Mixed endings in a CRLF file, CRLF in an LF file, a lone CR: the tool would rewrite them.
    for (before, after) in [
        ("a\r\nb\r\n", "a\r\nb\nc\r\n"),
        ("a\nb\n", "a\r\nb\n"),
        ("a\nb\n", "a\rb\n"),
        // Gemini gives the result the original's final newline, or its lack of one.
        ("a\nb\n", "a\nc"),
        ("a\nb", "a\nc\n"),
    ] {
        let out = ruling(before, after);
        assert_eq!(out["decision"], "deny", "{before:?} -> {after:?}: {out}");
        assert!(out["reason"]
            .as_str()
            .unwrap()
            .starts_with("Redline could not be sure what this edit writes"));
    }
    let out = ruling("a\r\nb\r\n", "a\r\nc\r\n");
    assert_eq!(
        out["hookSpecificOutput"]["tool_input"]["new_string"], "a\nc\n",
        "{out}"
    );
    // Claude Code's Edit keeps what it is given at the end (the interop corpus shows it).
    let edit = hook_input(
        "Edit",
        json!({ "file_path": "/ws/a.txt", "old_string": "a", "new_string": "b" }),
    );
    let v = settle(
        HookCli::of("claude").unwrap(),
        vec![file(Some("a\nb\n"), "a\nc", true)],
    );
    let out = said(&answer(HookCli::of("claude").unwrap(), &edit, &v));
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "allow");
}

#[test]
fn every_adapter_s_deny_blocks_in_its_cli_s_words() {
    let deny = HookRuling::Deny {
        reason: "Redline did not let this edit through".into(),
    };
    for cli in HookCli::all() {
        let out = answer(cli, &json!({}), &deny);
        let all = format!("{}{}", out.stdout, out.stderr.clone().unwrap_or_default());
        assert!(
            all.contains("did not let this edit through"),
            "{cli}: {out:?}"
        );
        // Kiro blocks on exit 2; every other CLI reads a deny in its JSON.
        match cli.id() {
            "kiro" => assert_eq!(out.exit, 2),
            _ => assert!(out.stdout.contains("deny"), "{cli}: {out:?}"),
        }
    }
}
