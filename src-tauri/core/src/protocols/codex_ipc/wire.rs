//! Codex's IPC messages, as serde reads and writes them: the request it sends, and the answer
//! with the IDE context (VS Code's shapes: 0-based lines and characters, paths relative to the
//! root Codex asked about).

use crate::review::editor::{EditorState, OpenFile};
use crate::review::selection::Selection;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// Who answers, as Codex's router names a provider, when Redline is the router.
pub const ROUTER_ID: &str = "redline";

/// One message from a peer; only `type: "request"` is answered.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Incoming {
    #[serde(rename = "type")]
    pub kind: String,
    /// Echoed as it came (Codex sends a UUID string).
    #[serde(default)]
    pub request_id: Value,
    #[serde(default)]
    pub method: String,
    #[serde(default)]
    pub params: Value,
}

impl Incoming {
    /// The root an `ide-context` request asks about.
    pub fn workspace_root(&self) -> Option<&str> {
        self.params.get("workspaceRoot").and_then(Value::as_str)
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Response<'a, T: Serialize> {
    #[serde(rename = "type")]
    kind: &'static str,
    request_id: &'a Value,
    method: &'a str,
    handled_by_client_id: &'a str,
    result_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// A success answer to `request`, from `handler` (the id the router knows the answerer by).
pub fn success<T: Serialize>(request: &Incoming, handler: &str, result: T) -> Vec<u8> {
    encode(&Response {
        kind: "response",
        request_id: &request.request_id,
        method: &request.method,
        handled_by_client_id: handler,
        result_type: "success",
        result: Some(result),
        error: None,
    })
}

/// An error answer to `request`: Codex shows a hint for the code and sends the message
/// without context.
pub fn failure(request: &Incoming, handler: &str, code: &str) -> Vec<u8> {
    encode(&Response::<()> {
        kind: "response",
        request_id: &request.request_id,
        method: &request.method,
        handled_by_client_id: handler,
        result_type: "error",
        result: None,
        error: Some(code),
    })
}

pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Only strings, numbers and maps of them: serialising cannot fail.
    serde_json::to_vec(value).unwrap_or_default()
}

/// `initialize`'s result: the id the router knows the new client by.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Initialized {
    pub client_id: String,
}

/// What the router asks each client before it forwards a request: can it answer `request`?
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryRequest<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub request_id: &'a str,
    pub request: &'a Value,
}

/// A client's answer to a discovery request.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryResponse<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub request_id: &'a Value,
    pub response: CanHandle,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CanHandle {
    pub can_handle: bool,
}

/// The `initialize` Redline sends a router it joins as a provider.
pub fn initialize(request_id: &str) -> Vec<u8> {
    encode(&serde_json::json!({
        "type": "request",
        "requestId": request_id,
        "sourceClientId": "initializing-client",
        "version": 0,
        "method": "initialize",
        "params": {"clientType": CLIENT_TYPE},
    }))
}

/// The kind of client Redline says it is on another's router.
pub const CLIENT_TYPE: &str = "redline";

/// `ide-context`'s result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IdeContextResult {
    pub ide_context: IdeContext,
}

impl IdeContextResult {
    /// No active file, no tabs: Codex takes it and adds nothing to the message.
    pub fn empty() -> Self {
        IdeContextResult {
            ide_context: IdeContext {
                active_file: None,
                open_tabs: Vec::new(),
            },
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IdeContext {
    /// Null when the editor's active file is outside this workspace.
    pub active_file: Option<ActiveFile>,
    pub open_tabs: Vec<FileDescriptor>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDescriptor {
    pub label: String,
    /// Relative to the root Codex asked about when beneath it, else absolute.
    pub path: String,
    pub fs_path: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActiveFile {
    #[serde(flatten)]
    pub file: FileDescriptor,
    /// The selection, or the empty range at the cursor (0:0 when the editor sent neither).
    pub selection: IdeRange,
    pub active_selection_content: String,
    pub selections: Vec<IdeRange>,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct IdeRange {
    pub start: IdePosition,
    pub end: IdePosition,
}

/// 0-based, in characters, as VS Code counts them.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct IdePosition {
    pub line: u32,
    pub character: u32,
}

impl IdeContext {
    /// What the editor showed, in the workspace that holds `root`, for a Codex started in `root`.
    pub fn of(state: &EditorState, root: &Path) -> IdeContext {
        let active_file = state.active().map(|f| {
            let (selection, text, selections) = match state.span() {
                // Every range, as VS Code's `selections` (the primary among them).
                Some(span) => (
                    IdeRange::of(span.selection.ordered()),
                    span.text.clone(),
                    span.regions()
                        .iter()
                        .map(|r| IdeRange::of(r.selection))
                        .collect(),
                ),
                None => (IdeRange::default(), String::new(), Vec::new()),
            };
            ActiveFile {
                file: descriptor(f, root),
                selection,
                active_selection_content: text,
                selections,
            }
        });
        IdeContext {
            active_file,
            open_tabs: state.files.iter().map(|f| descriptor(f, root)).collect(),
        }
    }
}

impl IdeRange {
    /// Redline's selections are 0-based in characters already, as VS Code's.
    fn of(s: Selection) -> IdeRange {
        IdeRange {
            start: IdePosition {
                line: s.start_line,
                character: s.start_character,
            },
            end: IdePosition {
                line: s.end_line,
                character: s.end_character,
            },
        }
    }
}

fn descriptor(f: &OpenFile, root: &Path) -> FileDescriptor {
    let label = f
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| f.path.to_string_lossy().into_owned());
    let path = match f.path.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
        _ => f.path.to_string_lossy().into_owned(),
    };
    FileDescriptor {
        label,
        path,
        fs_path: f.path.to_string_lossy().into_owned(),
    }
}
