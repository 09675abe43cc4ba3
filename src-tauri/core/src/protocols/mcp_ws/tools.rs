//! The tools Claude Code calls over the WebSocket, each declared once (its name, arguments and
//! description), with the exact result shapes it reads. A tool that ran and failed answers
//! `isError: true` with a message for the user; an unknown tool or bad arguments are JSON-RPC
//! errors. No tool ever writes a file.

use crate::error::Error;
use crate::protocols::jsonrpc::{RpcError, INVALID_PARAMS};
use crate::protocols::mcp;
use crate::protocols::mcp_ws::conn::Conn;
use crate::protocols::mcp_ws::tool_result::{
    DocumentState, NotDone, Tab, Tabs, ToolAnswer, Unsuccessful, WorkspaceFolder, WorkspaceFolders,
};
use crate::review::service::{Ask, Decision};
use crate::review::{Outcome, Reply, Review};
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Map, Value};
use std::marker::PhantomData;
use std::path::Path;
use tokio::sync::oneshot;

/// The newest MCP revision Redline settles on with Claude Code.
const REVISION: &str = crate::clients::CLAUDE.mcp_revision();

pub fn initialize(asked: &str) -> Value {
    json!({
        "protocolVersion": mcp::negotiate(asked, REVISION).as_str(),
        "capabilities": {"tools": {"listChanged": false}},
        "serverInfo": mcp::server_info(),
    })
}

/// One tool as `tools/list` shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    name: &'static str,
    description: &'static str,
    input_schema: JsonObject,
}

/// Declares each tool once: the `tools/call` it is deserialized from (serde's adjacent tagging
/// reads the tool from `name` and its arguments from `arguments`) and its `tools/list` entry.
macro_rules! tools {
    ($($variant:ident($args:ty) = $name:literal: $description:expr;)*) => {
        /// A `tools/call` with its arguments.
        #[derive(Deserialize)]
        #[serde(tag = "name", content = "arguments")]
        enum Call {
            $(#[serde(rename = $name)] $variant($args),)*
        }

        /// `tools/list`, in the order declared.
        pub fn list() -> Vec<Listed> {
            vec![$(Listed {
                name: $name,
                description: $description,
                input_schema: mcp::input_schema::<$args>(),
            },)*]
        }
    };
}

tools! {
    OpenDiff(OpenDiffArgs) = "openDiff":
        "Show a proposed change for review; answers when the user decides: FILE_SAVED and \
         the final text, or DIFF_REJECTED, or TAB_CLOSED.";
    CloseTab(TabArgs) = "close_tab":
        "Close a review tab; a pending review of it ends as closed by the CLI.";
    CloseAllDiffTabs(Anything) = "closeAllDiffTabs":
        "Close every review this connection opened.";
    GetDiagnostics(Unread<UriArgs>) = "getDiagnostics": "Diagnostics: Redline has none.";
    GetCurrentSelection(Unread<Anything>) = "getCurrentSelection":
        "The selection in the user's editor or the review window, if any.";
    GetLatestSelection(Unread<Anything>) = "getLatestSelection":
        "The latest selection in the user's editor or the review window.";
    GetOpenEditors(Unread<Anything>) = "getOpenEditors":
        "The files open in the user's editor and under review in this workspace.";
    GetWorkspaceFolders(Unread<Anything>) = "getWorkspaceFolders": "The workspace's folders.";
    CheckDocumentDirty(FileArgs) = "checkDocumentDirty":
        "Whether a file has unsaved changes: Redline never holds any.";
    SaveDocument(FileArgs) = "saveDocument": "Redline never writes files; answers so.";
    OpenFile(OpenFileArgs) = "openFile": "Redline is not an editor; answers so.";
}

/// What `tools/call` is sent: a name, and arguments that may be absent or null.
#[derive(Deserialize)]
struct Named {
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

impl Call {
    /// The call in `params`; an unknown tool or arguments that do not fit are invalid params,
    /// the latter naming what the tool expects.
    fn parse(params: Value) -> Result<Call, RpcError> {
        let Named { name, arguments } = serde_json::from_value(params)
            .map_err(|_| RpcError::invalid_params(Value::Null, "tools/call"))?;
        let arguments = match arguments {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(v) => v,
        };
        let call = Map::from_iter([
            ("name".to_owned(), Value::String(name.clone())),
            ("arguments".to_owned(), arguments),
        ]);
        serde_json::from_value(Value::Object(call)).map_err(|_| {
            match list().into_iter().find(|t| t.name == name) {
                Some(tool) => mcp::bad_args(&name, &tool.input_schema),
                None => RpcError::new(Value::Null, INVALID_PARAMS, format!("unknown tool: {name}")),
            }
        })
    }
}

fn file_uri(path: &Path) -> String {
    crate::platform::file_uri::of(path)
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
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

/// Arguments a tool is listed with but never reads: whatever is sent is taken.
struct Unread<T>(PhantomData<T>);

impl<'de, T> Deserialize<'de> for Unread<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d)?;
        Ok(Unread(PhantomData))
    }
}

impl<T: JsonSchema> JsonSchema for Unread<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

pub async fn call(conn: &Conn, params: Value) -> Result<Value, RpcError> {
    let answer = match Call::parse(params)? {
        Call::OpenDiff(a) => open_diff(conn, a).await,
        Call::CloseTab(a) => {
            if let Some(id) = conn.take_tab(&a.tab_name) {
                let _ = conn.service.close(id);
            }
            ToolAnswer::text("TAB_CLOSED")
        }
        Call::CloseAllDiffTabs(Anything {}) => {
            let n = conn.settle_all(Outcome::Closed);
            ToolAnswer::text(format!("CLOSED_{n}_DIFF_TABS"))
        }
        Call::GetDiagnostics(_) => ToolAnswer::text("[]"),
        Call::GetCurrentSelection(_) | Call::GetLatestSelection(_) => current_selection(conn),
        Call::GetOpenEditors(_) => open_editors(conn),
        Call::GetWorkspaceFolders(_) => workspace_folders(conn),
        Call::CheckDocumentDirty(a) => check_dirty(conn, a),
        Call::SaveDocument(a) => save_document(conn, a),
        Call::OpenFile(a) => open_file(conn, &a.file_path),
    };
    // Strings and booleans only: serializing them cannot fail.
    Ok(serde_json::to_value(answer).unwrap_or_default())
}

/// Opens the review and waits for its end: the answer IS the decision.
async fn open_diff(conn: &Conn, a: OpenDiffArgs) -> ToolAnswer {
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
        reason_heard: false,
    };
    let id = match conn.service.propose(ask, reply).await {
        Ok(id) => id,
        Err(e) => return ToolAnswer::failed(e),
    };
    conn.set_tab(&a.tab_name, id);
    let settled = tokio::select! {
        r = &mut rx => r,
        _ = conn.closing.cancelled() => {
            let _ = conn.service.decide(id, Decision::reject());
            rx.await
        }
    };
    conn.forget_tab(&a.tab_name, id);
    match settled {
        Ok((Outcome::Accepted, final_text)) => ToolAnswer::texts(["FILE_SAVED".into(), final_text]),
        Ok((Outcome::Closed, _)) => ToolAnswer::text("TAB_CLOSED"),
        _ => ToolAnswer::text("DIFF_REJECTED"),
    }
}

fn current_selection(conn: &Conn) -> ToolAnswer {
    ToolAnswer::json(&super::wire::current_selection(
        conn.connections.selection().as_ref(),
    ))
}

/// The editor's files (its active one first), then the files under review, newest first.
fn open_editors(conn: &Conn) -> ToolAnswer {
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
    let tabs = paths
        .iter()
        .map(|(p, active)| Tab {
            uri: file_uri(p),
            is_active: *active,
            label: name_of(p),
            file_name: p.to_string_lossy().into_owned(),
            is_dirty: false,
            is_untitled: false,
        })
        .collect();
    ToolAnswer::json(&Tabs { tabs })
}

fn workspace_folders(conn: &Conn) -> ToolAnswer {
    let roots = &conn.service.workspace.roots;
    let folders = roots
        .iter()
        .map(|r| WorkspaceFolder {
            name: name_of(r),
            uri: file_uri(r),
            path: r.to_string_lossy().into_owned(),
        })
        .collect();
    ToolAnswer::json(&WorkspaceFolders {
        success: true,
        folders,
        root_path: roots.first().map(|r| r.to_string_lossy().into_owned()),
    })
}

/// The path confined to the workspace, and whether a review of it is open here.
fn under_review(conn: &Conn, file_path: &str) -> Result<bool, Error> {
    let (path, _) = conn.service.resolve(file_path)?;
    Ok(conn.service.pending().iter().any(|r| r.path == path))
}

fn check_dirty(conn: &Conn, a: FileArgs) -> ToolAnswer {
    match under_review(conn, &a.file_path) {
        Err(e) => ToolAnswer::failed(e),
        Ok(true) => ToolAnswer::json(&DocumentState {
            success: true,
            file_path: a.file_path,
            is_dirty: false,
            is_untitled: false,
        }),
        Ok(false) => ToolAnswer::json(&Unsuccessful::new(format!(
            "Document not open: {}",
            a.file_path
        ))),
    }
}

fn save_document(conn: &Conn, a: FileArgs) -> ToolAnswer {
    match under_review(conn, &a.file_path) {
        Err(e) => ToolAnswer::failed(e),
        Ok(_) => ToolAnswer::json(&NotDone {
            success: false,
            file_path: a.file_path,
            under_review: None,
            message: "Redline never writes files: Claude Code writes an accepted change itself"
                .into(),
        }),
    }
}

fn open_file(conn: &Conn, file_path: &str) -> ToolAnswer {
    match under_review(conn, file_path) {
        Err(e) => ToolAnswer::failed(e),
        Ok(reviewing) => ToolAnswer::json(&NotDone {
            success: false,
            file_path: file_path.to_owned(),
            under_review: Some(reviewing),
            message: format!(
                "Redline is a diff reviewer, not an editor: {file_path} was not opened"
            ),
        }),
    }
}
