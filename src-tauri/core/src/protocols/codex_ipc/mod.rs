//! Codex CLI's IDE channel: after `/ide on`, Codex connects to a unix socket (one per user) or,
//! on Windows, a named pipe the IDE side owns before each message and asks `ide-context` for its
//! working folder. Redline answers from the editor context its editor plugins sent (the editor
//! never talks to Codex), as the socket's router or as a provider behind another program's.

mod binding;
mod endpoint;
pub mod frame;
mod hub;
#[cfg(windows)]
pub mod pipe;
pub mod provider;
pub mod router;
#[cfg(unix)]
pub mod socket;
pub mod wire;

use crate::review::editor::EditorState;
use futures::future::BoxFuture;
use std::path::PathBuf;
use std::sync::Arc;
use wire::{IdeContext, IdeContextResult, Incoming};

pub use binding::Binding;
pub use endpoint::{at, bind, isolated_at, join, serve, Bound};

/// What Redline knows for the folder Codex runs in.
#[derive(Debug)]
pub enum FolderContext {
    /// No running workspace holds it.
    NoWorkspace,
    /// A workspace holds it, but no editor has said what it shows there.
    NoEditor,
    /// The workspace's editor state; `root` is Codex's folder as resolved on this host.
    Editor { root: PathBuf, state: EditorState },
}

/// Looks up a Codex folder (as Codex sent it); the runtime gives one.
pub type Source = Arc<dyn Fn(PathBuf) -> BoxFuture<'static, FolderContext> + Send + Sync>;

/// Error codes Codex knows: for the first it tells the user to open the project in an IDE, for
/// the others that the IDE gave no context; `/ide on` then stays off, a message goes without.
pub const NO_WORKSPACE: &str = "no-client-found";
pub const NO_HANDLER: &str = "no-handler-for-request";
pub const BAD_PARAMS: &str = "invalid-params";

/// Redline's own answer to an `ide-context` request, from `handler` (the id the router knows
/// Redline by), and whether it had an editor's context for the folder.
async fn ide_context(request: &Incoming, source: &Source, handler: &str) -> (Vec<u8>, bool) {
    let Some(root) = request.workspace_root() else {
        return (wire::failure(request, handler, BAD_PARAMS), false);
    };
    match source(PathBuf::from(root)).await {
        FolderContext::NoWorkspace => (wire::failure(request, handler, NO_WORKSPACE), false),
        // An empty context, not an error: Codex refuses `/ide on` on an error ("could not be
        // enabled"), and the editor may well speak up later; until then Codex adds nothing.
        FolderContext::NoEditor => (
            wire::success(request, handler, IdeContextResult::empty()),
            false,
        ),
        FolderContext::Editor { root, state } => {
            let ide_context = IdeContext::of(&state, &root);
            (
                wire::success(request, handler, IdeContextResult { ide_context }),
                true,
            )
        }
    }
}
