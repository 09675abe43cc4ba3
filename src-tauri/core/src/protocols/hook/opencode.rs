//! opencode's edits as Redline's plugin for it reports them (`tool.execute.before` of write,
//! edit and apply_patch), and the ruling in the small JSON the plugin acts on
//! (`discovery/opencode_plugin.js`).

use super::codex;
use super::patch;
use super::ruling::{Accepted, Edit, FileChange, HookOutput, HookRuling};
use serde::Deserialize;
use serde_json::{json, Value};

/// What the plugin sends: the tool's call and the folder opencode works in.
#[derive(Deserialize)]
struct Input {
    tool: String,
    cwd: String,
    args: Value,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Write {
    file_path: String,
    content: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Replace {
    file_path: String,
    old_string: String,
    new_string: String,
    #[serde(default)]
    replace_all: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Patch {
    patch_text: String,
}

/// The edit opencode is about to make; another tool, or input that is not the plugin's, passes.
pub fn read(input: &Value) -> Result<Edit, HookRuling> {
    let input = Input::deserialize(input).map_err(|e| HookRuling::Pass {
        why: format!("this is not Redline's opencode plugin's input ({e})"),
    })?;
    let bad = |e: serde_json::Error| HookRuling::Deny {
        reason: format!("Redline cannot read this {} call: {e}", input.tool),
    };
    let changes = match input.tool.as_str() {
        "write" => {
            let w = Write::deserialize(&input.args).map_err(bad)?;
            vec![FileChange::Write {
                path: w.file_path,
                text: w.content,
            }]
        }
        // An empty `oldString` makes edit create the file with `newString` (it fails on a file
        // that exists).
        "edit" => match Replace::deserialize(&input.args).map_err(bad)? {
            r if r.old_string.is_empty() => vec![FileChange::Write {
                path: r.file_path,
                text: r.new_string,
            }],
            r => vec![FileChange::Replace {
                path: r.file_path,
                old: r.old_string,
                new: r.new_string,
                all: r.replace_all,
            }],
        },
        // Codex's patch format, which opencode's apply_patch takes too.
        "apply_patch" => {
            let p = Patch::deserialize(&input.args).map_err(bad)?;
            patch::parse(&p.patch_text)
                .map_err(|e| HookRuling::Deny {
                    reason: format!("Redline cannot read this patch: {e}"),
                })?
                .into_iter()
                .map(FileChange::Patch)
                .collect()
        }
        tool => {
            return Err(HookRuling::Pass {
                why: format!("`{tool}` is not an edit Redline reviews"),
            })
        }
    };
    Ok(Edit {
        cwd: input.cwd,
        changes,
    })
}

/// `ruling` as the plugin's answer: allow (with the arguments to set on the tool's call, which
/// every accept carries, and a note for the model when the user changed the text), deny with the reason the model reads, or pass (opencode goes on as it
/// would, and the terminal is told why).
pub fn answer(input: &Value, ruling: &HookRuling) -> HookOutput {
    let say = |v: Value| HookOutput {
        stdout: v.to_string(),
        stderr: None,
        exit: 0,
    };
    let deny = |reason: &str| say(json!({ "verdict": "deny", "reason": reason }));
    match ruling {
        HookRuling::Allow => say(json!({ "verdict": "allow" })),
        HookRuling::AllowEdited { files } => match edited_args(input, files) {
            Ok(args) => match note(files) {
                Some(note) => say(json!({ "verdict": "allow", "args": args, "note": note })),
                None => say(json!({ "verdict": "allow", "args": args })),
            },
            Err(reason) => deny(&reason),
        },
        HookRuling::Deny { reason } => deny(reason),
        HookRuling::Pass { why } => HookOutput {
            stdout: json!({ "verdict": "pass" }).to_string(),
            stderr: Some(format!("redline: {why}")),
            exit: 0,
        },
    }
}

/// The arguments that make the tool opencode called write exactly what the user accepted;
/// `Err`: why it cannot (nothing is written then, never a near miss).
fn edited_args(input: &Value, files: &[Accepted]) -> Result<Value, String> {
    let tool = input["tool"].as_str().unwrap_or_default();
    if tool == "apply_patch" {
        return match codex::settle(files.to_vec()) {
            HookRuling::AllowEdited { files } => Ok(json!({ "patchText": codex::patch(&files) })),
            HookRuling::Deny { reason } => Err(reason),
            _ => Err("Redline could not put the user's edits into a patch".into()),
        };
    }
    let Some(file) = files.first() else {
        return Err("Redline's answer named no file".into());
    };
    let after = file.after.clone().unwrap_or_default();
    match (tool, &file.before) {
        ("write", _) => Ok(json!({ "content": after })),
        // The file is new: edit creates it with `newString`.
        ("edit", None) => Ok(json!({ "oldString": "", "newString": after, "replaceAll": false })),
        ("edit", Some(before)) => whole_edit(&file.path, before, &after),
        (tool, _) => Err(format!(
            "Redline cannot give the user's text to opencode's {tool}"
        )),
    }
}

/// An edit of the whole text `before` into `after`. opencode's edit keeps the byte-order mark
/// itself, and gives `oldString` and `newString` the file's line endings (CRLF if the file has
/// one, else LF): a text that would come out otherwise is refused.
fn whole_edit(path: &str, before: &str, after: &str) -> Result<Value, String> {
    let bare = |t: &str| t.strip_prefix('\u{feff}').unwrap_or(t).to_owned();
    let (before, after) = (bare(before), bare(after));
    let crlf = before.contains("\r\n");
    let as_opencode_writes = |t: &str| {
        let lf = t.replace("\r\n", "\n");
        match crlf {
            true => lf.replace('\n', "\r\n"),
            false => lf,
        }
    };
    if as_opencode_writes(&before) != before || as_opencode_writes(&after) != after {
        return Err(format!(
            "The user accepted this edit of {path} with changes that opencode's edit cannot write \
             exactly (it gives every line the file's line ending): nothing was written. Ask the \
             user how to go on."
        ));
    }
    if before == after {
        return Err(format!(
            "The user reviewed this edit of {path} in Redline and left the file as it was: \
             nothing was written."
        ));
    }
    Ok(json!({ "oldString": before, "newString": after, "replaceAll": false }))
}

/// What the model reads after the tool's own output: the file holds the user's text; nothing
/// when the user changed nothing.
fn note(files: &[Accepted]) -> Option<String> {
    let edited: Vec<&str> = files
        .iter()
        .filter(|f| f.edited)
        .map(|f| f.to.as_deref().unwrap_or(&f.path))
        .collect();
    (!edited.is_empty()).then(|| {
        format!(
            "The user reviewed this edit in Redline and changed it before it was written: {} \
             now hold(s) the user's text, not exactly what you proposed. Read them again before \
             editing them further.",
            edited.join(", ")
        )
    })
}

#[cfg(test)]
#[path = "opencode_tests.rs"]
mod tests;
