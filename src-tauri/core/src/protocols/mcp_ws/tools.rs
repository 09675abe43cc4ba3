//! The tools Claude Code calls over the WebSocket, with the exact result shapes it reads.
//! A tool that ran and failed answers `isError: true` with a message for the user; an unknown
//! tool or bad arguments are JSON-RPC errors. No tool ever writes a file.

use crate::error::Error;
use crate::protocols::jsonrpc::Fault;
use crate::protocols::mcp::{self, args};
use crate::protocols::mcp_ws::conn::Conn;
use crate::review::service::{Ask, Decision};
use crate::review::{Outcome, Reply, Review};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;
use tokio::sync::oneshot;

pub fn initialize(asked: &str) -> Value {
    json!({
        "protocolVersion": mcp::negotiate(asked).as_str(),
        "capabilities": {"tools": {"listChanged": false}},
        "serverInfo": mcp::server_info(),
    })
}

fn tool<T: JsonSchema>(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": mcp::input_schema::<T>(),
    })
}

pub fn list() -> Vec<Value> {
    vec![
        tool::<OpenDiffArgs>(
            "openDiff",
            "Show a proposed change for review; answers when the user decides: FILE_SAVED and \
             the final text, or DIFF_REJECTED, or TAB_CLOSED.",
        ),
        tool::<TabArgs>(
            "close_tab",
            "Close a review tab; a pending review of it ends as closed by the CLI.",
        ),
        tool::<Anything>(
            "closeAllDiffTabs",
            "Close every review this connection opened.",
        ),
        tool::<UriArgs>("getDiagnostics", "Diagnostics: Redline has none."),
        tool::<Anything>(
            "getCurrentSelection",
            "The selection in the user's editor or the review window, if any.",
        ),
        tool::<Anything>(
            "getLatestSelection",
            "The latest selection in the user's editor or the review window.",
        ),
        tool::<Anything>(
            "getOpenEditors",
            "The files open in the user's editor and under review in this workspace.",
        ),
        tool::<Anything>("getWorkspaceFolders", "The workspace's folders."),
        tool::<FileArgs>(
            "checkDocumentDirty",
            "Whether a file has unsaved changes: Redline never holds any.",
        ),
        tool::<FileArgs>("saveDocument", "Redline never writes files; answers so."),
        tool::<OpenFileArgs>("openFile", "Redline is not an editor; answers so."),
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
    json!({"content": [{"type": "text", "text": mcp::failure(&e)}], "isError": true})
}

fn file_uri(path: &Path) -> String {
    crate::platform::file_uri::of(path)
}

#[derive(Deserialize)]
struct Call {
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

// No doc comments on the argument types: they would become each schema's description.
#[derive(Deserialize, JsonSchema)]
struct OpenDiffArgs {
    /// Absolute path of the file
    #[serde(default)]
    #[schemars(with = "String")]
    old_file_path: Option<String>,
    /// Absolute path of the file
    new_file_path: String,
    new_file_contents: String,
    tab_name: String,
}

#[derive(Deserialize, JsonSchema)]
struct TabArgs {
    tab_name: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct FileArgs {
    /// Absolute path of the file
    file_path: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct OpenFileArgs {
    /// Absolute path of the file
    file_path: String,
    #[serde(default)]
    #[schemars(with = "bool")]
    preview: Option<bool>,
    #[serde(default)]
    #[schemars(with = "bool")]
    make_frontmost: Option<bool>,
    #[serde(default)]
    #[schemars(with = "String")]
    start_text: Option<String>,
    #[serde(default)]
    #[schemars(with = "String")]
    end_text: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct UriArgs {
    #[serde(default)]
    #[schemars(with = "String")]
    uri: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct Anything {}

pub async fn call(conn: &Conn, params: Value) -> Result<Value, Fault> {
    let call: Call = serde_json::from_value(params)
        .map_err(|_| Fault::invalid_params(Value::Null, "tools/call"))?;
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
                let _ = conn.service.close(id);
            }
            text("TAB_CLOSED")
        }
        "closeAllDiffTabs" => {
            let _: Anything = args(name, a)?;
            let n = conn.settle_all(Outcome::Closed);
            text(&format!("CLOSED_{n}_DIFF_TABS"))
        }
        "getDiagnostics" => text("[]"),
        "getCurrentSelection" | "getLatestSelection" => current_selection(conn),
        "getOpenEditors" => open_editors(conn),
        "getWorkspaceFolders" => workspace_folders(conn),
        "checkDocumentDirty" => check_dirty(conn, args(name, a)?),
        "saveDocument" => save_document(conn, args(name, a)?),
        "openFile" => {
            let a: OpenFileArgs = args(name, a)?;
            open_file(conn, &a.file_path)
        }
        other => {
            return Err(Fault::new(
                Value::Null,
                crate::protocols::jsonrpc::INVALID_PARAMS,
                format!("unknown tool: {other}"),
            ))
        }
    })
}

/// Opens the review and waits for its end: the answer IS the decision.
async fn open_diff(conn: &Conn, a: OpenDiffArgs) -> Value {
    let (tx, mut rx) = oneshot::channel::<(Outcome, String)>();
    let reply: Reply = Box::new(move |review: &Review, outcome| {
        let _ = tx.send((outcome, review.current.clone()));
    });
    let ask = Ask {
        origin: crate::review::Origin::Cli {
            session: conn.id.clone(),
        },
        client: conn.client(),
        file_path: a.new_file_path,
        original_from: a.old_file_path,
        proposal: a.new_file_contents,
        read_only: None,
    };
    let id = match conn.service.propose(ask, reply).await {
        Ok(id) => id,
        Err(e) => return failed(e),
    };
    conn.set_tab(&a.tab_name, id);
    let settled = tokio::select! {
        r = &mut rx => r,
        _ = conn.closing.cancelled() => {
            let _ = conn.service.decide(id, Decision::Reject);
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
    json_text(super::wire::current_selection(
        conn.connections.selection().as_ref(),
    ))
}

/// The editor's files (its active one first), then the files under review, newest first.
fn open_editors(conn: &Conn) -> Value {
    let mut reviews = conn.service.pending();
    reviews.sort_by_key(|r| std::cmp::Reverse(r.updated_at));
    let editor = conn
        .service
        .editor
        .get()
        .map(|s| s.files)
        .unwrap_or_default();
    // The editor's active file if it has one here; else (no editor) the newest review.
    let no_editor = editor.is_empty();
    let mut paths: Vec<(&Path, bool)> = editor
        .iter()
        .map(|f| (f.path.as_path(), f.active))
        .collect();
    paths.extend(
        reviews
            .iter()
            .enumerate()
            .map(|(i, r)| (r.path.as_path(), no_editor && i == 0)),
    );
    let mut seen = std::collections::HashSet::new();
    paths.retain(|(p, _)| seen.insert(*p));
    let tabs: Vec<Value> = paths
        .iter()
        .map(|(p, active)| {
            json!({
                "uri": file_uri(p),
                "isActive": active,
                "label": p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                "fileName": p.to_string_lossy(),
                "isDirty": false,
                "isUntitled": false,
            })
        })
        .collect();
    json_text(json!({ "tabs": tabs }))
}

fn workspace_folders(conn: &Conn) -> Value {
    let roots = &conn.service.workspace.roots;
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
    let (path, _) = conn.service.resolve(file_path)?;
    Ok(conn.service.pending().iter().any(|r| r.path == path))
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

fn open_file(conn: &Conn, file_path: &str) -> Value {
    match under_review(conn, file_path) {
        Err(e) => failed(e),
        Ok(reviewing) => json_text(json!({
            "success": false,
            "filePath": file_path,
            "underReview": reviewing,
            "message": format!("Redline is a diff reviewer, not an editor: {file_path} was not opened"),
        })),
    }
}
