//! Reviews opened by local commands (`redline propose`, `redline diff`) rather than a CLI's
//! protocol: the command waits on the control channel for the decision and prints it.

use super::batch::Batch;
use super::reviews::Reviews;
use super::workspaces::Workspaces;
use crate::error::{Error, Result};
use crate::review::service::Ask;
use crate::review::ReviewError;
use crate::review::{ClientInfo, OnDisk, Origin, Outcome, Proposal, ReadOnly, ReviewId};
use crate::workspace::WorkspaceError;
use caller::caller;
// The command reads and bounds a diff's two sides (surfaces), the instance checks them again.
pub use crate::surfaces::diff_pair::{DiffFile, MAX_DIFF_BYTES, MAX_DIFF_FILES};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

pub(super) mod caller;

/// The largest proposal `redline propose` sends: what a CLI's message may carry.
pub const MAX_PROPOSAL_BYTES: usize = crate::protocols::jsonrpc::MAX_MESSAGE_BYTES;
/// Pending diff reviews of all `redline diff` commands together.
const MAX_PENDING_DIFFS: usize = 256;

/// `redline propose`: a proposal for `file`, in an enabled workspace.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Propose {
    pub file: PathBuf,
    pub content: String,
    /// Answer with the decision; without it the review stays open for the user alone.
    pub wait: bool,
}

/// `redline diff`: the changed files of two files or two directories, read by the command.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Diff {
    /// What the tabs are labelled relative to: the right directory, or the right file's folder.
    pub root: PathBuf,
    /// The folder the tabs name instead of `root`'s (git difftool's repository, for its temp
    /// trees).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_as: Option<PathBuf>,
    pub files: Vec<DiffFile>,
    /// Editable, for the command to write RIGHT on accept; every RIGHT must then be in an
    /// enabled workspace.
    pub edit: bool,
    pub wait: bool,
}

/// How one local review ended.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Settled {
    pub id: ReviewId,
    pub path: PathBuf,
    pub decision: Outcome,
    /// The final text (with the user's edits) when accepted.
    pub content: Option<String>,
    /// Why the user rejected it, when they said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For `redline diff --edit`: RIGHT as the instance checked it, the one file the command may
    /// write (never `path` itself, which may be a link or a path the check did not see).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<OnDisk>,
}

/// The answer to a local request: the reviews it opened and, when it waited, how they ended.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct LocalAnswer {
    pub opened: Vec<ReviewId>,
    pub settled: Option<Vec<Settled>>,
}

/// Reviews a local request opened, and their decisions to come.
pub struct Opened {
    batch: Batch,
    /// Each review's path as the command named it, and RIGHT as checked for `--edit`.
    named: Vec<(PathBuf, Option<OnDisk>)>,
}

impl Opened {
    fn new() -> Self {
        Opened {
            batch: Batch::default(),
            named: Vec::new(),
        }
    }

    /// The review ids, in the order they were opened.
    pub fn ids(&self) -> &[ReviewId] {
        self.batch.ids()
    }

    /// Every review's end, in the order they were opened. A review dropped without a word
    /// (the instance stopping) counts as dismissed.
    pub async fn settled(self) -> Vec<Settled> {
        let ids = self.batch.ids().to_vec();
        let ends = self.batch.all().await;
        ends.into_iter()
            .zip(ids)
            .zip(self.named)
            .map(|((d, id), (path, target))| Settled {
                id,
                path,
                decision: d.outcome,
                content: (d.outcome == Outcome::Accepted).then_some(d.text),
                reason: d.reason.filter(|_| d.outcome == Outcome::Rejected),
                target,
            })
            .collect()
    }
}

impl Opened {
    /// The answer to the command: at once with the ids, or with `wait` once every review is
    /// decided, unless `gone` comes first (the command went away: Ctrl-C, killed): then nobody
    /// waits for its reviews, they are removed, and there is no answer.
    pub async fn answer(
        self,
        reviews: &Reviews,
        wait: bool,
        gone: impl std::future::Future<Output = ()>,
    ) -> Option<LocalAnswer> {
        let opened = self.ids().to_vec();
        if !wait {
            return Some(LocalAnswer {
                opened,
                settled: None,
            });
        }
        tokio::select! {
            settled = self.settled() => Some(LocalAnswer { opened, settled: Some(settled) }),
            () = gone => {
                let n = reviews.dismiss_local(&opened);
                tracing::info!("a local review's command went away: {n} review(s) removed");
                None
            }
        }
    }
}

/// A run of its own per request: no CLI's review is ever replaced by a local one.
pub(super) fn run() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Opens `redline propose`'s review through the service of the innermost enabled workspace
/// holding the file, as a CLI's would be (confinement, original, size and quota checks).
pub(super) async fn propose(
    workspaces: &Workspaces,
    reviews: &Reviews,
    p: Propose,
    pid: Option<u32>,
) -> Result<Opened> {
    let file_path = p.file.to_string_lossy().into_owned();
    if p.content.len() > MAX_PROPOSAL_BYTES {
        return Err(ReviewError::TooLarge {
            path: file_path,
            size: p.content.len() as u64,
            limit: MAX_PROPOSAL_BYTES as u64,
        }
        .into());
    }
    let service = match workspaces.service_holding(&p.file).await {
        Ok(service) => service,
        Err(e) => return Err(with_way_in(workspaces, e).await),
    };
    let mut opened = Opened::new();
    let reply = opened.batch.reply();
    let ask = Ask {
        origin: Origin::Propose { run: run() },
        client: caller("redline propose", pid).await,
        original_from: Some(file_path.clone()),
        file_path,
        proposal: p.content,
        // Edits would reach no one: say so where the user would make them.
        read_only: (!p.wait).then_some(ReadOnly::NobodyWaits),
        reason_heard: p.wait,
    };
    let id = service.propose(ask, reply).await?;
    let path = reviews.review(id).map(|r| r.path.clone()).unwrap_or(p.file);
    opened.batch.opened(id);
    opened.named.push((path, None));
    Ok(opened)
}

/// Opens one review per changed file of `redline diff`: read-only unless `edit`, and then
/// only where RIGHT is in an enabled workspace (the command writes it on accept).
pub(super) async fn diff(
    workspaces: &Workspaces,
    reviews: &Reviews,
    d: Diff,
    pid: Option<u32>,
) -> Result<Opened> {
    check_diff_bounds(reviews, &d)?;
    let checked = match d.edit {
        true => match workspaces.editable(&d.files).await {
            Ok(checked) => checked,
            Err(e) => return Err(with_way_in(workspaces, e).await),
        },
        false => vec![None; d.files.len()],
    };
    let origin = Origin::Diff {
        run: run(),
        shown_as: d.shown_as.clone(),
    };
    let client = caller("redline diff", pid).await;
    let mut opened = Opened::new();
    for (f, target) in d.files.into_iter().zip(checked) {
        let path = f.path.clone();
        let asked = (&d.root, &origin, &client);
        let proposal = diff_proposal(asked, f, target.clone(), d.edit);
        let id = reviews.queue().open(proposal, opened.batch.reply());
        opened.batch.opened(id);
        opened.named.push((path, target));
    }
    Ok(opened)
}

/// A file outside every enabled workspace, with the command that lets it in: the person at
/// `redline propose` or `redline diff --edit` is told what to run, not just what failed.
async fn with_way_in(workspaces: &Workspaces, e: Error) -> Error {
    let Error::Workspace(WorkspaceError::NotInWorkspace(path)) = e else {
        return e;
    };
    let home = &workspaces.world().dirs.home;
    let fix = crate::workspace::way_in::way_in(&path, home, &workspaces.list().await);
    WorkspaceError::NotInWorkspaceFix { path, fix }.into()
}

/// A `redline diff` within its bounds: its files, its bytes, and with the diffs already
/// pending, what the queue holds for all `redline diff` commands together.
fn check_diff_bounds(reviews: &Reviews, d: &Diff) -> Result<()> {
    let root = d.root.to_string_lossy().into_owned();
    if d.files.len() > MAX_DIFF_FILES {
        return Err(Error::TooManyFiles {
            root,
            count: d.files.len(),
            limit: MAX_DIFF_FILES,
        });
    }
    let size: usize = d.files.iter().map(diff_bytes).sum();
    if size > MAX_DIFF_BYTES {
        return Err(ReviewError::TooLarge {
            path: root,
            size: size as u64,
            limit: MAX_DIFF_BYTES as u64,
        }
        .into());
    }
    let pending: Vec<_> = reviews
        .queue()
        .list()
        .into_iter()
        .filter(|r| matches!(r.origin, Origin::Diff { .. }))
        .collect();
    let held: usize = pending
        .iter()
        .map(|r| r.original_text().len() + r.proposal.len())
        .sum();
    if pending.len() + d.files.len() > MAX_PENDING_DIFFS
        || held.saturating_add(size) > crate::review::quota::MAX_QUEUED_BYTES
    {
        return Err(ReviewError::QueueFull {
            file: root,
            bound: crate::review::QueueBound::Diffs,
        }
        .into());
    }
    Ok(())
}

/// The review of one file of a `redline diff` (`asked`: its root, its run and who ran it): RIGHT
/// editable with `edit` where the instance checked it (`target`), else read-only.
fn diff_proposal(
    (root, origin, client): (&PathBuf, &Origin, &ClientInfo),
    f: DiffFile,
    target: Option<OnDisk>,
    edit: bool,
) -> Proposal {
    // What the disk check reads: RIGHT as checked, else where its links lead (`git difftool -d`
    // links into the work tree), read beneath the folder holding it.
    let on_disk = target.or_else(|| {
        let path = crate::workspace::follow(&f.path.to_string_lossy()).ok()?;
        let root = path.parent()?.to_path_buf();
        Some(OnDisk { root, path })
    });
    let read_only = match (&f.right, edit) {
        (Some(_), true) => None,
        (None, true) => Some(ReadOnly::DiffRemoved),
        (_, false) => Some(ReadOnly::Diff),
    };
    Proposal {
        workspace: root.clone(),
        origin: origin.clone(),
        client: client.clone(),
        file_path: f.path.to_string_lossy().into_owned(),
        path: f.path,
        original: f.left.map(Into::into),
        proposal: f.right.unwrap_or_default(),
        container: false,
        read_only,
        can_mention: false,
        reason_heard: false,
        on_disk,
    }
}

fn diff_bytes(f: &DiffFile) -> usize {
    f.left.as_ref().map_or(0, String::len) + f.right.as_ref().map_or(0, String::len)
}

#[cfg(test)]
#[path = "local_tests.rs"]
mod tests;
