//! What Claude Code's tools answer, typed: text blocks, `isError`, and the JSON texts it parses.

use crate::error::Error;
use crate::protocols::mcp;
use serde::Serialize;

/// A tool's answer as Claude Code reads it: text blocks, and `isError` when the tool failed.
#[derive(Serialize)]
pub(super) struct ToolAnswer {
    pub(super) content: Vec<Text>,
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    pub(super) is_error: bool,
}

#[derive(Serialize)]
pub(super) struct Text {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) text: String,
}

impl ToolAnswer {
    pub(super) fn texts<const N: usize>(texts: [String; N]) -> Self {
        ToolAnswer {
            content: texts
                .into_iter()
                .map(|text| Text { kind: "text", text })
                .collect(),
            is_error: false,
        }
    }

    pub(super) fn text(text: impl Into<String>) -> Self {
        ToolAnswer::texts([text.into()])
    }

    /// One text block holding `v` as JSON, which Claude Code parses.
    pub(super) fn json<T: Serialize>(v: &T) -> Self {
        // Strings, booleans and string maps only: serializing them cannot fail.
        ToolAnswer::text(serde_json::to_string(v).unwrap_or_default())
    }

    /// A tool that ran and failed: the user reads this in the CLI.
    pub(super) fn failed(e: Error) -> Self {
        ToolAnswer {
            is_error: true,
            ..ToolAnswer::text(mcp::failure(&e))
        }
    }
}

/// An answer that something could not be done, or was not found.
#[derive(Serialize)]
pub(super) struct Unsuccessful {
    pub(super) success: bool,
    pub(super) message: String,
}

impl Unsuccessful {
    pub(super) fn new(message: impl Into<String>) -> Self {
        Unsuccessful {
            success: false,
            message: message.into(),
        }
    }
}

/// An entry of `getOpenEditors`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Tab {
    pub(super) uri: String,
    pub(super) is_active: bool,
    pub(super) label: String,
    pub(super) file_name: String,
    pub(super) is_dirty: bool,
    pub(super) is_untitled: bool,
}

#[derive(Serialize)]
pub(super) struct Tabs {
    pub(super) tabs: Vec<Tab>,
}

#[derive(Serialize)]
pub(super) struct WorkspaceFolder {
    pub(super) name: String,
    pub(super) uri: String,
    pub(super) path: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WorkspaceFolders {
    pub(super) success: bool,
    pub(super) folders: Vec<WorkspaceFolder>,
    pub(super) root_path: Option<String>,
}

/// `checkDocumentDirty`'s answer for a file under review.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct DocumentState {
    pub(super) success: bool,
    pub(super) file_path: String,
    pub(super) is_dirty: bool,
    pub(super) is_untitled: bool,
}

/// What `saveDocument` and `openFile` answer: Redline did not do it, and why.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct NotDone {
    pub(super) success: bool,
    pub(super) file_path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) under_review: Option<bool>,
    pub(super) message: String,
}
