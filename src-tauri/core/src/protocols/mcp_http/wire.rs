//! Gemini CLI's and Qwen Code's messages built from domain values: the `ide/contextUpdate`
//! params (an `IdeContext`).

use crate::review::context::Context;
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct IdeContext {
    workspace_state: WorkspaceState,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct WorkspaceState {
    open_files: Vec<OpenFile>,
    /// Left out unless the user set it: the CLI treats it as an override and asks for a restart.
    #[serde(skip_serializing_if = "Option::is_none")]
    is_trusted: Option<bool>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct OpenFile {
    path: String,
    timestamp: u64,
    /// Only the active file carries it, as `true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    is_active: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<Cursor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    selected_text: Option<String>,
}

/// 1-based, as the CLIs read it.
#[derive(Debug, Serialize)]
struct Cursor {
    line: u32,
    character: u32,
}

/// The `ide/contextUpdate` params.
pub fn ide_context(context: &Context) -> Value {
    let open_files = context
        .files
        .iter()
        .map(|f| OpenFile {
            path: f.path.to_string_lossy().into_owned(),
            timestamp: f.timestamp,
            is_active: f.active.then_some(true),
            cursor: f.cursor.map(|(line, character)| Cursor { line, character }),
            selected_text: f.selected_text.clone(),
        })
        .collect();
    let ide = IdeContext {
        workspace_state: WorkspaceState {
            open_files,
            is_trusted: context.trusted,
        },
    };
    // Plain structs of strings and numbers: serializing cannot fail.
    serde_json::to_value(ide).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::context::ContextFile;
    use serde_json::json;

    #[test]
    fn the_active_file_alone_has_is_active_cursor_and_selection_and_trust_only_when_set() {
        let file = |path: &str, timestamp, active: bool| ContextFile {
            path: path.into(),
            timestamp,
            cursor: active.then_some((2, 3)),
            selected_text: active.then(|| "sel".to_owned()),
            active,
        };
        let context = Context {
            files: vec![
                file("/ws/editor", 901, true),
                file("/ws/review", 900, false),
            ],
            trusted: None,
        };
        assert_eq!(
            ide_context(&context),
            json!({"workspaceState": {"openFiles": [
                {"path": "/ws/editor", "timestamp": 901, "isActive": true,
                 "cursor": {"line": 2, "character": 3}, "selectedText": "sel"},
                {"path": "/ws/review", "timestamp": 900},
            ]}})
        );
        let trusted = Context {
            files: Vec::new(),
            trusted: Some(false),
        };
        assert_eq!(
            ide_context(&trusted),
            json!({"workspaceState": {"openFiles": [], "isTrusted": false}})
        );
    }
}
