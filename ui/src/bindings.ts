// Generated from the Rust types by `redline_core::bindings`; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p redline-core --test bindings

export type ClientInfo = { name: string, version: string, };

export type ReviewDetail = { id: number, workspace: string, 
/**
 * The path relative to the workspace, for labels.
 */
relativePath: string, filePath: string, client: ClientInfo, newFile: boolean, original: string, proposal: string, current: string, added: number, removed: number, createdAt: number, updatedAt: number, };

export type Outcome = "accepted" | "rejected" | "closed" | "dismissed";

export type Resolved = { id: number, outcome: Outcome, };

export type Selection = { startLine: number, startCharacter: number, endLine: number, endCharacter: number, };

export type PopupMode = "focus" | "noFocus" | "trayOnly";

export type Settings = { popup: PopupMode, 
/**
 * Keep the window open when the last review is answered.
 */
keepOpen: boolean, };

export type IpcError = { code: string, message: string, };
