//! A checkpoint of each workspace as Redline starts serving it (the instance's start, a
//! workspace added or enabled): for the CLIs without a prompt hook, the last known state of the
//! files a turn is reviewed and undone against. Taken on a blocking thread, in the background:
//! it never delays serving or answering.

use super::checkpoints::Checkpoints;
use super::workspaces::Workspaces;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};
use tokio_util::sync::CancellationToken;

/// Follows the served workspaces until `quit`: each newly served one is checkpointed once.
pub(super) fn follow(
    workspaces: Weak<Workspaces>,
    checkpoints: Arc<Checkpoints>,
    quit: CancellationToken,
) {
    let Some(changes) = workspaces.upgrade().map(|w| w.changes()) else {
        return;
    };
    tokio::spawn(async move {
        let mut changes = changes;
        let mut served = BTreeSet::new();
        loop {
            let Some(held) = workspaces.upgrade() else {
                return;
            };
            let now = roots(&held).await;
            drop(held);
            for root in now.difference(&served) {
                spawn_checkpoint(checkpoints.clone(), root.clone(), "serving it");
            }
            // A workspace turned off and on again is served anew: checkpointed again.
            served = now;
            tokio::select! {
                changed = changes.changed() => if changed.is_err() { return },
                () = quit.cancelled() => return,
            }
        }
    });
}

/// The roots of the workspaces served now.
async fn roots(workspaces: &Workspaces) -> BTreeSet<PathBuf> {
    workspaces
        .services()
        .await
        .iter()
        .map(|s| s.workspace.id().to_owned())
        .collect()
}

/// Checkpoints `root` in the background; a failure is logged, never in anyone's way.
pub(super) fn spawn_checkpoint(checkpoints: Arc<Checkpoints>, root: PathBuf, why: &'static str) {
    tokio::spawn(async move {
        match checkpoints.with(&root, |store| store.checkpoint()).await {
            Ok(made) => {
                tracing::info!("{} checkpointed ({why}): {}", root.display(), made.commit.0)
            }
            Err(e) => log_failure(&root, why, &e),
        }
    });
}

fn log_failure(root: &Path, why: &str, e: &crate::Error) {
    tracing::warn!("{} is not checkpointed ({why}): {e}", root.display());
}
