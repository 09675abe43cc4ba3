//! What Redline answers on Codex CLI's IDE socket (`codex_channel`): Codex names its folder, and
//! the running workspace holding it answers with its editor context.

use super::workspaces::Workspaces;
use crate::protocols::codex_ipc::{FolderContext, Source};
use std::path::PathBuf;
use std::sync::{Arc, Weak};

/// The lookup Codex's socket answers from, over `workspaces` held weakly: the socket never keeps
/// a stopped instance's workspaces alive.
pub(super) fn source(workspaces: Weak<Workspaces>) -> Source {
    Arc::new(move |root| {
        let workspaces = workspaces.clone();
        Box::pin(async move {
            match workspaces.upgrade() {
                Some(w) => context(&w, root).await,
                None => FolderContext::NoWorkspace,
            }
        })
    })
}

/// What the running workspace holding `root` has from the editor.
async fn context(workspaces: &Workspaces, root: PathBuf) -> FolderContext {
    let Ok(root) = dunce::canonicalize(&root) else {
        return FolderContext::NoWorkspace;
    };
    let services = workspaces.services().await;
    let holder = services
        .iter()
        .filter(|s| s.workspace.roots.iter().any(|r| root.starts_with(r)))
        .max_by_key(|s| s.workspace.id().as_os_str().len());
    match holder.map(|s| s.editor.get()) {
        None => FolderContext::NoWorkspace,
        Some(None) => FolderContext::NoEditor,
        Some(Some(state)) => FolderContext::Editor { root, state },
    }
}
