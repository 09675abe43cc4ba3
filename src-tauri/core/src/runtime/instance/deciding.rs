//! The user's decisions, wherever the review is: settled in this machine's queue, or sent to the
//! machine it is on (`runtime::remote::desktop`); and a remote's entry saved with the config.

use super::reviews::Reviews;
use super::workspaces::Workspaces;
use crate::api::remote_info::{LinkState, RemoteInfo};
use crate::error::{Error, Result};
use crate::review::decision::Decision;
use crate::review::{ReviewError, ReviewId};
use crate::runtime::remote::desktop::Remotes;
use crate::workspace::remote_entry::RemoteEntry;

/// `decision` on review `id`: another machine's is sent there.
pub(super) async fn decide(
    (reviews, remotes): (&Reviews, &Remotes),
    id: ReviewId,
    decision: Decision,
) -> Result<()> {
    let review = reviews.any(id)?;
    match review.origin.remote() {
        Some(_) => remotes.decide(&review, decision).await,
        None => reviews.decide(id, decision).await,
    }
}

/// Rejects every pending review, another machine's too (the window closed so); one decided
/// meanwhile is skipped.
pub async fn reject_all(parts: (&Reviews, &Remotes)) -> Result<()> {
    for r in parts.0.queue().list() {
        match decide(parts, r.id, Decision::reject()).await {
            Ok(()) | Err(Error::Review(ReviewError::NoSuchReview(_))) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Adds the remote `entry`, saved with the config, and starts its link; answers once the first
/// link is up or has failed (`FIRST_LINK` at most: ssh's own connect timeout fits), so the user
/// reads which at once.
pub async fn add_remote(
    workspaces: &Workspaces,
    remotes: &Remotes,
    entry: RemoteEntry,
) -> Result<RemoteInfo> {
    let name = entry.name.clone();
    let stored = entry.clone();
    workspaces
        .change_config(|c| Ok(c.add_remote(stored)?))
        .await?;
    let mut changes = remotes.changes();
    remotes.attach(entry);
    let first = async {
        loop {
            let info = remotes.info(&name)?;
            if info.state != LinkState::Connecting {
                return Ok(info);
            }
            if changes.changed().await.is_err() {
                return Ok(info);
            }
        }
    };
    match tokio::time::timeout(FIRST_LINK, first).await {
        Ok(answer) => answer,
        Err(_) => remotes.info(&name),
    }
}

/// How long `redline remote add` waits for the first link's outcome.
const FIRST_LINK: std::time::Duration = std::time::Duration::from_secs(20);

/// Removes the remote `name`: saved, its link ended, its reviews here gone.
pub async fn remove_remote(workspaces: &Workspaces, remotes: &Remotes, name: &str) -> Result<()> {
    workspaces
        .change_config(|c| Ok(c.remove_remote(name)?))
        .await?;
    remotes.detach(name)
}
