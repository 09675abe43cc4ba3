//! What the other parts of the instance ask of the running workspaces: their services, the one
//! holding a path, the one a review came from. A service is handed out and used outside the
//! lock; a companion never leaves this part.

use super::Workspaces;
use crate::api::status::Pin;
use crate::error::{Error, Result};
use crate::review::selection::Selection;
use crate::review::service::Service;
use crate::review::{OnDisk, Review};
use crate::surfaces::diff_pair::DiffFile;
use crate::workspace::WorkspaceError;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

impl Workspaces {
    /// The services of the running workspaces, taken under the lock and used outside it.
    pub(crate) async fn services(&self) -> Vec<Arc<Service>> {
        let state = self.state.lock().await;
        state
            .companions
            .values()
            .map(|c| c.service.clone())
            .collect()
    }

    /// The service of the innermost enabled workspace holding `path` (as a CLI would name it);
    /// `Err`: why none does.
    pub(crate) async fn service_holding(&self, path: &Path) -> Result<Arc<Service>> {
        let shown = path.to_string_lossy();
        let state = self.state.lock().await;
        let roots: Vec<PathBuf> = state
            .companions
            .values()
            .flat_map(|c| c.service.workspace.roots.clone())
            .collect();
        state
            .companions
            .values()
            .filter(|c| c.service.resolve(&shown).is_ok())
            .max_by_key(|c| c.service.workspace.id().as_os_str().len())
            .map(|c| c.service.clone())
            .ok_or_else(|| not_held(path, &roots))
    }

    /// The pin for the enabled workspace holding `path`.
    pub async fn pin(&self, path: &Path) -> Result<Pin> {
        let state = self.state.lock().await;
        let resolved = dunce::canonicalize(path).map_err(|e| Error::io(path, e))?;
        let c = state
            .companions
            .values()
            .filter(|c| {
                c.service
                    .workspace
                    .roots
                    .iter()
                    .any(|r| resolved.starts_with(r))
            })
            .max_by_key(|c| c.service.workspace.id().as_os_str().len())
            .ok_or_else(|| WorkspaceError::NotInWorkspace(resolved.clone()))?;
        Ok(c.pin())
    }

    /// `--edit` writes RIGHT: each one there must be in an enabled workspace. RIGHT as checked,
    /// per file (`None` for a file RIGHT does not have), is the one file the command may write.
    /// The command read RIGHT at the path it gave, on this host: that path is checked as the
    /// host's, never through a container mapping (a path a CLI in a container sends), which
    /// would pass one file and have another written.
    pub(crate) async fn editable(&self, files: &[DiffFile]) -> Result<Vec<Option<OnDisk>>> {
        let state = self.state.lock().await;
        let mut checked = Vec::with_capacity(files.len());
        for f in files {
            if f.right.is_none() {
                checked.push(None);
                continue;
            }
            let shown = f.path.to_string_lossy();
            let inside = state
                .companions
                .values()
                .filter_map(|c| {
                    let ws = &c.service.workspace;
                    let path = ws.resolve(&shown).ok()?;
                    let root = ws.root_of(&path)?.to_path_buf();
                    Some(OnDisk { root, path })
                })
                .max_by_key(|d| d.root.as_os_str().len());
            checked.push(Some(
                inside.ok_or_else(|| WorkspaceError::NotInWorkspace(f.path.clone()))?,
            ));
        }
        Ok(checked)
    }

    /// "Ask about this part": lines `a..=b` (0-based) of `review` go to the CLI session that
    /// proposed it, through its workspace's service, if its protocol can take a mention.
    pub(crate) async fn mention(&self, review: &Review, a: u32, b: u32) -> Result<()> {
        let state = self.state.lock().await;
        state.companion_of(review)?.service.mention(review, a, b)
    }

    /// The user's selection in `review`: kept for the CLIs that ask for it and sent to the
    /// session that proposed it, if its protocol follows a selection.
    pub(crate) async fn select(&self, review: &Review, sel: Selection) -> Result<()> {
        let state = self.state.lock().await;
        state.companion_of(review)?.service.select(review, sel)
    }

    /// Keeps, in each running workspace, a Copilot CLI lock for each of the `running` session
    /// folders inside it, and none for any other (`runtime::folders`).
    pub(crate) async fn lock_folders(&self, running: &BTreeSet<PathBuf>) {
        let mut state = self.state.lock().await;
        for companion in state.companions.values_mut() {
            let inside =
                crate::runtime::folders::inside(running, &companion.service.workspace.roots);
            companion.set_folders(&inside, &self.world.dirs);
        }
    }
}

/// Why no workspace takes `path`: it is outside them all, or it is inside one by name and a link
/// on its way leads out (said so: the user sees the path inside and would not guess).
pub(crate) fn not_held(path: &Path, roots: &[PathBuf]) -> Error {
    use std::path::Component;
    let plain = path
        .components()
        .all(|c| !matches!(c, Component::ParentDir | Component::CurDir));
    match roots.iter().find(|r| plain && path.starts_with(r)) {
        Some(root) => WorkspaceError::LeadsOutside {
            path: path.to_owned(),
            workspace: root.clone(),
        }
        .into(),
        None => WorkspaceError::NotInWorkspace(path.to_owned()).into(),
    }
}
