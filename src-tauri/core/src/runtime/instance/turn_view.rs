//! A whole turn's review in the window (`turnFiles`, `turnFile`, `turnUndo`), and a past turn
//! opened from the Turns view (`pastTurnFiles`, `pastTurnFile`, `pastTurnUndo`): the files the
//! turn changed, one file's text and hunks when it is opened, and undoing hunks, files or all of
//! it, through the workspace's checkpoint store. After an undo in a review the review shows the
//! workspace as the undo left it, and the next undo is checked against that; a past turn's undo
//! takes back each file that is still what the turn left and names the others.

use super::checkpoints::Checkpoints;
use super::reviews::Reviews;
use super::turn_ahead::Ahead;
use super::workspaces::Workspaces;
use crate::api::turns::{HistoryTurn, LineSpan, TurnHunk, TurnLeft, HISTORY_PER_WORKSPACE};
use crate::api::turns::{TurnFileView, TurnFiles, TurnPick, TurnUndone, Unshown};
use crate::checkpoint::{
    Checkpoint, CheckpointError, CheckpointResult, Hunk, HunkLines, Pick, Store, Undo,
};
use crate::error::{Error, Result};
use crate::review::{ReviewError, ReviewId};
use std::path::{Path, PathBuf};
use std::sync::PoisonError;

/// The parts a turn's view reads: the reviews (a review's turn), the workspaces (a past turn's
/// workspace, served) and the checkpoint stores.
pub(super) type Parts<'a> = (&'a Reviews, &'a Workspaces, &'a Checkpoints);

/// The turn a view action names: a whole turn's pending review, or a past turn of a workspace
/// (a row of the Turns view).
#[derive(Debug, Clone)]
pub enum Target {
    Review(ReviewId),
    Past { workspace: PathBuf, turn: u64 },
}

/// The workspace and the turn a whole turn's review `id` shows.
fn turn_of(reviews: &Reviews, id: ReviewId) -> Result<(PathBuf, u64)> {
    let review = reviews.review(id)?;
    let turn = review.turn_id().ok_or(ReviewError::NotWholeTurn(id))?;
    Ok((review.workspace.clone(), turn))
}

/// The workspace's root (as its store is keyed) and the turn `target` names; a past turn's
/// workspace must be one Redline serves.
async fn resolve((reviews, workspaces, _): Parts<'_>, target: &Target) -> Result<(PathBuf, u64)> {
    match target {
        Target::Review(id) => turn_of(reviews, *id),
        Target::Past { workspace, turn } => {
            let service = workspaces.service_holding(workspace).await?;
            Ok((service.workspace.roots[0].clone(), *turn))
        }
    }
}

/// The Turns view's rows: each served workspace's newest `HISTORY_PER_WORKSPACE` turns, all
/// newest first (a workspace whose store cannot be read is left out, and logged).
pub(super) async fn history(
    workspaces: &Workspaces,
    checkpoints: &Checkpoints,
) -> Vec<HistoryTurn> {
    let mut rows = Vec::new();
    for w in workspaces.list().await.into_iter().filter(|w| w.enabled) {
        let recent =
            super::turn_history::recent(workspaces, checkpoints, &w.path, HISTORY_PER_WORKSPACE);
        match recent.await {
            Ok(turns) => rows.extend(turns.iter().map(|t| HistoryTurn::of(w.path.clone(), t))),
            Err(e) => tracing::warn!("the turns of {} are not listed: {e}", w.path.display()),
        }
    }
    rows.sort_by(|a, b| b.started.cmp(&a.started).then(b.turn.cmp(&a.turn)));
    rows
}

/// Turn `turn`'s start, and its end as the review shows it (`shown`, after an undo there).
fn ends(
    store: &Store,
    turn: u64,
    shown: Option<Checkpoint>,
) -> crate::checkpoint::CheckpointResult<(Checkpoint, Checkpoint)> {
    let t = store.turn(turn).ok_or(CheckpointError::NoSuchTurn(turn))?;
    let end = t.end.clone().ok_or(CheckpointError::NotEnded(turn))?;
    Ok((t.start.clone(), shown.unwrap_or(end)))
}

/// Review `id`'s diff as `redline review show` prints it: a whole turn's is the turn's unified
/// diff (git style, renames named) as the review shows it, every other review's its proposal's.
pub(super) async fn show(
    (reviews, checkpoints): (&Reviews, &Checkpoints),
    id: ReviewId,
) -> Result<String> {
    let Ok((root, turn)) = turn_of(reviews, id) else {
        return reviews.show(id);
    };
    let shown = checkpoints.shown(&root, turn);
    let patch = checkpoints
        .with(&root, move |store| {
            let (start, end) = ends(store, turn, shown)?;
            store.patch(&start, &end, None)
        })
        .await?;
    Ok(String::from_utf8_lossy(&patch).into_owned())
}

/// The files `target`'s turn lists, bounded (`MAX_LISTED`), with the first one opened when it
/// was opened ahead (`open_ahead`): the window then shows both from one answer.
pub(super) async fn files(parts: Parts<'_>, target: Target) -> Result<TurnFiles> {
    let (root, turn) = resolve(parts, &target).await?;
    let checkpoints = parts.2;
    let shown = checkpoints.shown(&root, turn);
    let ahead = checkpoints.ahead();
    let key = root.clone();
    let asked = std::time::Instant::now();
    let (files, unlisted, first) = checkpoints
        .with(&root, move |store| {
            let (start, end) = ends(store, turn, shown)?;
            let (files, unlisted) = super::turn_history::changed_files(store, (&start, &end))?;
            let first =
                (files.first()).and_then(|f| Ahead::take(&ahead, (&key, &start, &end), &f.path));
            Ok((files, unlisted, first))
        })
        .await?;
    let ms = asked.elapsed().as_millis();
    tracing::debug!(
        "turn {turn}'s files listed ms={ms} first={}",
        first.is_some()
    );
    Ok(TurnFiles {
        turn,
        files,
        unlisted,
        first,
    })
}

/// `path` of `target`'s turn, opened: its texts and hunks; a binary or too large file without
/// them. The file a whole turn's review opens first was mostly opened ahead (`open_ahead`).
pub(super) async fn file(parts: Parts<'_>, target: Target, path: PathBuf) -> Result<TurnFileView> {
    let (root, turn) = resolve(parts, &target).await?;
    let checkpoints = parts.2;
    let shown = checkpoints.shown(&root, turn);
    let ahead = checkpoints.ahead();
    let key = root.clone();
    let asked = std::time::Instant::now();
    let (view, taken) = checkpoints
        .with(&root, move |store| {
            let (start, end) = ends(store, turn, shown)?;
            match Ahead::take(&ahead, (&key, &start, &end), &path) {
                Some(view) => Ok((view, true)),
                None => Ok((open(store, (&start, &end), path)?, false)),
            }
        })
        .await?;
    let ms = asked.elapsed().as_millis();
    tracing::debug!("turn {turn}'s file opened ms={ms} ahead={taken}");
    Ok(view)
}

/// `path` from `start` to `end`, opened (`file`).
fn open(
    store: &Store,
    (start, end): (&Checkpoint, &Checkpoint),
    path: PathBuf,
) -> crate::checkpoint::CheckpointResult<TurnFileView> {
    let delta = store
        .changes(start, end)?
        .into_iter()
        .find(|d| d.path == path)
        .ok_or_else(|| CheckpointError::NotInTurn(path.clone()))?;
    let mut view = TurnFileView {
        path: path.clone(),
        from: delta.from.clone(),
        start: None,
        end: None,
        hunks: Vec::new(),
        unshown: None,
    };
    // Both sides are read once, within the size bound, for the hunks and the texts.
    let opened = match store.open_file(start, end, &path) {
        Ok(opened) => opened,
        Err(CheckpointError::NotText(_)) => return Ok(unshown(view, Unshown::Binary)),
        Err(CheckpointError::TooLarge { .. }) => return Ok(unshown(view, Unshown::TooLarge)),
        Err(CheckpointError::NotAFile(..)) if delta.not_kept.is_some() => {
            return Ok(unshown(view, Unshown::NotAFile))
        }
        Err(e) => return Err(e),
    };
    view.hunks = opened.hunks.into_iter().map(shown_hunk).collect();
    if delta.binary {
        view.unshown = Some(Unshown::Binary);
    } else {
        let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
        view.start = opened.start.map(text);
        view.end = opened.end.map(text);
    }
    Ok(view)
}

/// Opens the first file of turn `turn`'s review in `root` (the one the window opens first)
/// in the background, while the window is shown the review and asks for its list: the git
/// that reads its two sides is then off the window's way. What it opens is the same as
/// `file` would (both read the same two trees); a failure is left for `file` to meet again.
pub(super) async fn open_ahead(checkpoints: &Checkpoints, root: &Path, turn: u64) {
    let slot = checkpoints.ahead();
    let key = root.to_owned();
    let asked = std::time::Instant::now();
    let opening = checkpoints.start_with(root, move |store| {
        let opened = (|| -> CheckpointResult<()> {
            let (start, end) = ends(store, turn, None)?;
            let Some(first) = store.changes(&start, &end)?.into_iter().next() else {
                return Ok(());
            };
            let view = open(store, (&start, &end), first.path)?;
            let ends = (start, end);
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(Ahead {
                root: key,
                ends,
                view,
            });
            let ms = asked.elapsed().as_millis();
            tracing::debug!("turn {turn}'s first file opened ahead ms={ms}");
            Ok(())
        })();
        // The turn's end left the history's bound to be kept: now, off the review's way.
        store.prune_if_due()?;
        opened
    });
    if let Err(e) = opening.await {
        tracing::debug!("turn {turn}'s first file is not opened ahead: {e}");
    }
}

/// Undoes what `picks` name of `target`'s turn (none: every file). In a review a refusal (a
/// file changed since the review showed it, or cannot be undone) writes nothing and says why;
/// of a past turn each file that can be is undone and the others are named (`past_undo`).
pub(super) async fn undo(
    parts: Parts<'_>,
    target: Target,
    picks: Vec<TurnPick>,
) -> Result<TurnUndone> {
    let (root, turn) = resolve(parts, &target).await?;
    let checkpoints = parts.2;
    if matches!(target, Target::Past { .. }) {
        return past_undo(checkpoints, &root, turn, picks).await;
    }
    let shown = checkpoints.shown(&root, turn);
    let done = checkpoints
        .with(&root, move |store| {
            let (start, end) = ends(store, turn, shown)?;
            let files = match picks.is_empty() {
                true => return undone(store, store.undo_all(&start, &end)?),
                false => picks.into_iter().map(pick).collect::<Vec<_>>(),
            };
            undone(store, store.undo(&start, &end, &files)?)
        })
        .await;
    match done {
        Ok((files, now)) => {
            checkpoints.set_shown(&root, turn, now);
            Ok(TurnUndone::Done { files })
        }
        Err(Error::Checkpoint(e)) if refusal(&e) => Ok(TurnUndone::refused(&e)),
        Err(e) => Err(e),
    }
}

/// A past turn's undo: file by file, each one still as the turn left it undone (whole or by
/// the hunks picked), each other one left and named with why; `Done` when none was left.
async fn past_undo(
    checkpoints: &Checkpoints,
    root: &std::path::Path,
    turn: u64,
    picks: Vec<TurnPick>,
) -> Result<TurnUndone> {
    let shown = checkpoints.shown(root, turn);
    let (files, left) = checkpoints
        .with(root, move |store| {
            let (start, end) = ends(store, turn, shown)?;
            let wanted: Vec<Undo> = match picks.is_empty() {
                true => (store.changes(&start, &end)?.into_iter())
                    .map(|d| Undo {
                        path: d.path,
                        pick: Pick::Whole,
                    })
                    .collect(),
                false => picks.into_iter().map(pick).collect(),
            };
            let (mut files, mut left) = (Vec::new(), Vec::new());
            for u in wanted {
                let path = u.path.clone();
                match store.undo(&start, &end, &[u]) {
                    Ok(written) => files.extend(written),
                    Err(e) if refusal(&e) => left.push(TurnLeft {
                        path,
                        why: e.to_string(),
                    }),
                    Err(e) => return Err(e),
                }
            }
            Ok((files, left))
        })
        .await?;
    Ok(match left.is_empty() {
        true => TurnUndone::Done { files },
        false => TurnUndone::Partly { files, left },
    })
}

/// The files an undo wrote, and the workspace after it, which the review shows from now on.
fn undone(
    store: &mut Store,
    files: Vec<PathBuf>,
) -> crate::checkpoint::CheckpointResult<(Vec<PathBuf>, Checkpoint)> {
    Ok((files, store.checkpoint()?))
}

/// `view` without its text: `why`.
fn unshown(view: TurnFileView, why: Unshown) -> TurnFileView {
    TurnFileView {
        unshown: Some(why),
        ..view
    }
}

fn pick(p: TurnPick) -> Undo {
    Undo {
        path: p.path,
        pick: match p.hunks {
            Some(hunks) => Pick::Hunks(hunks.into_iter().map(store_hunk).collect()),
            None => Pick::Whole,
        },
    }
}

fn shown_hunk(h: Hunk) -> TurnHunk {
    let span = |l: HunkLines| LineSpan {
        first: l.first,
        count: l.count,
    };
    TurnHunk {
        before: span(h.before),
        after: span(h.after),
    }
}

fn store_hunk(h: TurnHunk) -> Hunk {
    let lines = |l: LineSpan| HunkLines {
        first: l.first,
        count: l.count,
    };
    Hunk {
        before: lines(h.before),
        after: lines(h.after),
    }
}

/// An undo refused as the user's to settle (nothing written), not a failure of Redline's.
fn refusal(e: &CheckpointError) -> bool {
    matches!(
        e,
        CheckpointError::Changed(_)
            | CheckpointError::NotAFile(..)
            | CheckpointError::NotBeneath(_)
            | CheckpointError::TooLarge { .. }
            | CheckpointError::NotText(_)
            | CheckpointError::NotBothSides(_)
            | CheckpointError::NoSuchHunk(_)
            | CheckpointError::NotInTurn(_)
    )
}
