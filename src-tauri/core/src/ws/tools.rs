//! The tools Claude Code calls over the WebSocket, with the exact result shapes it reads.
//! A tool that ran and failed answers `isError: true` with a message for the user; an unknown
//! tool or bad arguments are JSON-RPC errors. No tool ever writes a file.

use crate::error::Error;
use crate::original;
use crate::quota;
use crate::review::{Outcome, Proposal, Reply, Review};
use crate::ws::session::{Conn, INVALID_PARAMS};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tokio::sync::oneshot;

/// Newest first; an unknown version asked for gets the newest.
const VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// A protocol fault, answered as a JSON-RPC error.
pub struct RpcError {
    pub code: i64,
    pub message: String,
}

fn invalid(message: String) -> RpcError {
    RpcError {
        code: INVALID_PARAMS,
        message,
    }
}

pub fn initialize(asked: &str) -> Value {
    let version = VERSIONS
        .iter()
        .find(|v| **v == asked)
        .unwrap_or(&VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": false}},
        "serverInfo": {"name": "redline", "title": "Redline", "version": env!("CARGO_PKG_VERSION")}
    })
}

fn tool(name: &str, description: &str, properties: Value, required: &[&str]) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": required}
    })
}

pub fn list() -> Vec<Value> {
    let path = json!({"type": "string", "description": "Absolute path of the file"});
    vec![
        tool(
            "openDiff",
            "Show a proposed change for review; answers when the user decides: FILE_SAVED and \
             the final text, or DIFF_REJECTED, or TAB_CLOSED.",
            json!({
                "old_file_path": path, "new_file_path": path,
                "new_file_contents": {"type": "string"}, "tab_name": {"type": "string"}
            }),
            &["new_file_path", "new_file_contents", "tab_name"],
        ),
        tool(
            "close_tab",
            "Close a review tab; a pending review of it ends as closed by the CLI.",
            json!({"tab_name": {"type": "string"}}),
            &["tab_name"],
        ),
        tool(
            "closeAllDiffTabs",
            "Close every review this connection opened.",
            json!({}),
            &[],
        ),
        tool(
            "getDiagnostics",
            "Diagnostics: Redline has none.",
            json!({"uri": {"type": "string"}}),
            &[],
        ),
        tool(
            "getCurrentSelection",
            "The selection in the review window, if any.",
            json!({}),
            &[],
        ),
        tool(
            "getOpenEditors",
            "The files under review in this workspace.",
            json!({}),
            &[],
        ),
        tool(
            "getWorkspaceFolders",
            "The workspace's folders.",
            json!({}),
            &[],
        ),
        tool(
            "checkDocumentDirty",
            "Whether a file has unsaved changes: Redline never holds any.",
            json!({"filePath": path}),
            &["filePath"],
        ),
        tool(
            "saveDocument",
            "Redline never writes files; answers so.",
            json!({"filePath": path}),
            &["filePath"],
        ),
        tool(
            "openFile",
            "Redline is not an editor; answers so.",
            json!({"filePath": path, "preview": {"type": "boolean"}, "makeFrontmost": {"type": "boolean"},
                   "startText": {"type": "string"}, "endText": {"type": "string"}}),
            &["filePath"],
        ),
    ]
}

fn texts(blocks: &[&str]) -> Value {
    let content: Vec<Value> = blocks
        .iter()
        .map(|t| json!({"type": "text", "text": t}))
        .collect();
    json!({ "content": content })
}

fn text(t: &str) -> Value {
    texts(&[t])
}

fn json_text(v: Value) -> Value {
    text(&v.to_string())
}

/// A tool that ran and failed: the user reads this in the CLI.
fn failed(e: Error) -> Value {
    json!({"content": [{"type": "text", "text": format!("Redline: {e}")}], "isError": true})
}

fn file_uri(path: &Path) -> String {
    crate::file_uri::of(path)
}

#[derive(Deserialize)]
struct Call {
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

fn args<T: for<'de> Deserialize<'de>>(tool: &str, args: Value) -> Result<T, RpcError> {
    serde_json::from_value(args).map_err(|e| invalid(format!("invalid arguments for {tool}: {e}")))
}

#[derive(Deserialize)]
struct OpenDiffArgs {
    #[serde(default)]
    old_file_path: Option<String>,
    new_file_path: String,
    new_file_contents: String,
    tab_name: String,
}

#[derive(Deserialize)]
struct TabArgs {
    tab_name: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileArgs {
    file_path: String,
}

#[derive(Deserialize)]
struct Anything {}

pub async fn call(conn: &Conn, params: Value) -> Result<Value, RpcError> {
    let call: Call = serde_json::from_value(params)
        .map_err(|e| invalid(format!("invalid tools/call params: {e}")))?;
    let name = call.name.as_str();
    let a = match call.arguments {
        None | Some(Value::Null) => json!({}),
        Some(v) => v,
    };
    Ok(match name {
        "openDiff" => open_diff(conn, args(name, a)?).await,
        "close_tab" => {
            let a: TabArgs = args(name, a)?;
            if let Some(id) = conn.take_tab(&a.tab_name) {
                let _ = conn.shared.reviews.resolve(id, Outcome::Closed);
            }
            text("TAB_CLOSED")
        }
        "closeAllDiffTabs" => {
            let _: Anything = args(name, a)?;
            let n = conn.settle_all(Outcome::Closed);
            text(&format!("CLOSED_{n}_DIFF_TABS"))
        }
        "getDiagnostics" => text("[]"),
        "getCurrentSelection" => current_selection(conn),
        "getOpenEditors" => open_editors(conn),
        "getWorkspaceFolders" => workspace_folders(conn),
        "checkDocumentDirty" => check_dirty(conn, args(name, a)?),
        "saveDocument" => save_document(conn, args(name, a)?),
        "openFile" => open_file(conn, args(name, a)?),
        other => return Err(invalid(format!("unknown tool: {other}"))),
    })
}

/// The host file a path the CLI sent stands for, confined to the workspace, and whether a
/// container mapping made it: a CLI in a container sends container paths, and is answered
/// (messages included) with what it sent.
fn resolve(conn: &Conn, file_path: &str) -> Result<(PathBuf, bool), Error> {
    let (host, container) = conn.shared.host_path(file_path);
    match conn.shared.workspace.resolve(&host) {
        Ok(p) => Ok((p, container)),
        Err(Error::OutsideWorkspace { roots, .. }) => Err(Error::OutsideWorkspace {
            path: file_path.to_owned(),
            roots,
        }),
        Err(e) => Err(e),
    }
}

/// Opens the review and waits for its end: the answer IS the decision.
async fn open_diff(conn: &Conn, a: OpenDiffArgs) -> Value {
    let ws = &conn.shared.workspace;
    let (path, container) = match resolve(conn, &a.new_file_path) {
        Ok(p) => p,
        Err(e) => return failed(e),
    };
    let original = match &a.old_file_path {
        Some(old) => match resolve(conn, old) {
            Ok((old_path, _)) => original::read(ws, &old_path, old).await,
            Err(e) => Err(e),
        },
        None => Ok(None),
    };
    let original = match original {
        Ok(text) => text,
        Err(e) => return failed(e),
    };
    let incoming = original.as_ref().map_or(0, String::len) + a.new_file_contents.len();
    if let Err(e) = quota::admit(
        &conn.shared.reviews,
        ws.id(),
        &conn.id,
        &a.new_file_path,
        incoming,
    ) {
        return failed(e);
    }
    let (tx, mut rx) = oneshot::channel::<(Outcome, String)>();
    let reply: Reply = Box::new(move |review: &Review, outcome| {
        let _ = tx.send((outcome, review.current.clone()));
    });
    let id = conn.shared.reviews.open(
        Proposal {
            workspace: ws.id().to_owned(),
            session: conn.id.clone(),
            client: conn.client(),
            file_path: a.new_file_path,
            path,
            original,
            proposal: a.new_file_contents,
            container,
        },
        reply,
    );
    conn.set_tab(&a.tab_name, id);
    let settled = tokio::select! {
        r = &mut rx => r,
        _ = conn.closing.cancelled() => {
            let _ = conn.shared.reviews.resolve(id, Outcome::Rejected);
            rx.await
        }
    };
    conn.forget_tab(&a.tab_name, id);
    match settled {
        Ok((Outcome::Accepted, final_text)) => texts(&["FILE_SAVED", &final_text]),
        Ok((Outcome::Closed, _)) => text("TAB_CLOSED"),
        _ => text("DIFF_REJECTED"),
    }
}

fn current_selection(conn: &Conn) -> Value {
    match conn.shared.connections.selection() {
        Some(Value::Object(mut sel)) => {
            sel.insert("success".into(), json!(true));
            json_text(Value::Object(sel))
        }
        _ => json_text(json!({"success": false, "message": "No active editor found"})),
    }
}

fn open_editors(conn: &Conn) -> Value {
    let ws = conn.shared.workspace.id();
    let mut reviews: Vec<_> = conn
        .shared
        .reviews
        .list()
        .into_iter()
        .filter(|r| r.workspace == ws)
        .collect();
    reviews.sort_by_key(|r| std::cmp::Reverse(r.updated_at));
    let mut seen = std::collections::HashSet::new();
    reviews.retain(|r| seen.insert(r.path.clone()));
    let tabs: Vec<Value> = reviews
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "uri": file_uri(&r.path),
                "isActive": i == 0,
                "label": r.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                "fileName": r.path.to_string_lossy(),
                "isDirty": false,
                "isUntitled": false,
            })
        })
        .collect();
    json_text(json!({ "tabs": tabs }))
}

fn workspace_folders(conn: &Conn) -> Value {
    let roots = &conn.shared.workspace.roots;
    let folders: Vec<Value> = roots
        .iter()
        .map(|r| {
            json!({
                "name": r.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                "uri": file_uri(r),
                "path": r.to_string_lossy(),
            })
        })
        .collect();
    json_text(json!({
        "success": true,
        "folders": folders,
        "rootPath": roots.first().map(|r| r.to_string_lossy().into_owned()),
    }))
}

/// The path confined to the workspace, and whether a review of it is open here.
fn under_review(conn: &Conn, file_path: &str) -> Result<bool, Error> {
    let (path, _) = resolve(conn, file_path)?;
    let ws = conn.shared.workspace.id();
    Ok(conn
        .shared
        .reviews
        .list()
        .iter()
        .any(|r| r.workspace == ws && r.path == path))
}

fn check_dirty(conn: &Conn, a: FileArgs) -> Value {
    match under_review(conn, &a.file_path) {
        Err(e) => failed(e),
        Ok(true) => json_text(json!({
            "success": true, "filePath": a.file_path, "isDirty": false, "isUntitled": false
        })),
        Ok(false) => json_text(json!({
            "success": false, "message": format!("Document not open: {}", a.file_path)
        })),
    }
}

fn save_document(conn: &Conn, a: FileArgs) -> Value {
    match under_review(conn, &a.file_path) {
        Err(e) => failed(e),
        Ok(_) => json_text(json!({
            "success": false,
            "filePath": a.file_path,
            "message": "Redline never writes files: Claude Code writes an accepted change itself",
        })),
    }
}

fn open_file(conn: &Conn, a: FileArgs) -> Value {
    match under_review(conn, &a.file_path) {
        Err(e) => failed(e),
        Ok(reviewing) => json_text(json!({
            "success": false,
            "filePath": a.file_path,
            "underReview": reviewing,
            "message": format!("Redline is a diff reviewer, not an editor: {} was not opened", a.file_path),
        })),
    }
}
