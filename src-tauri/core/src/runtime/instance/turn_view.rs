//! A whole turn's review in the window (`turnFiles`, `turnFile`, `turnUndo`): the files the turn
//! changed, one file's text and hunks when it is opened, and undoing hunks, files or all of it,
//! through the workspace's checkpoint store. After an undo the review shows the workspace as the
//! undo left it, and the next undo is checked against that.

use super::checkpoints::Checkpoints;
use super::reviews::Reviews;
use crate::api::turns::{LineSpan, TurnHunk};
use crate::api::turns::{TurnFileView, TurnFiles, TurnPick, TurnUndone, Unshown};
use crate::checkpoint::{Checkpoint, CheckpointError, Hunk, HunkLines, Pick, Store, Undo};
use crate::error::{Error, Result};
use crate::review::{ReviewError, ReviewId};
use std::path::PathBuf;

/// The workspace and the turn a whole turn's review `id` shows.
fn turn_of(reviews: &Reviews, id: ReviewId) -> Result<(PathBuf, u64)> {
    let review = reviews.review(id)?;
    let turn = review.turn_id().ok_or(ReviewError::NotWholeTurn(id))?;
    Ok((review.workspace.clone(), turn))
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

/// The files review `id` lists, bounded (`MAX_LISTED`).
pub(super) async fn files(
    (reviews, checkpoints): (&Reviews, &Checkpoints),
    id: ReviewId,
) -> Result<TurnFiles> {
    let (root, turn) = turn_of(reviews, id)?;
    let shown = checkpoints.shown(&root, turn);
    let (files, unlisted) = checkpoints
        .with(&root, move |store| {
            let (start, end) = ends(store, turn, shown)?;
            super::turn_history::changed_files(store, (&start, &end))
        })
        .await?;
    Ok(TurnFiles {
        turn,
        files,
        unlisted,
    })
}

/// `path` of review `id`, opened: its texts and hunks; a binary or too large file without them.
pub(super) async fn file(
    (reviews, checkpoints): (&Reviews, &Checkpoints),
    id: ReviewId,
    path: PathBuf,
) -> Result<TurnFileView> {
    let (root, turn) = turn_of(reviews, id)?;
    let shown = checkpoints.shown(&root, turn);
    checkpoints
        .with(&root, move |store| {
            let (start, end) = ends(store, turn, shown)?;
            let delta = store
                .changes(&start, &end)?
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
            let opened = match store.open_file(&start, &end, &path) {
                Ok(opened) => opened,
                Err(CheckpointError::NotText(_)) => return Ok(unshown(view, Unshown::Binary)),
                Err(CheckpointError::TooLarge { .. }) => {
                    return Ok(unshown(view, Unshown::TooLarge))
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
        })
        .await
}

/// Undoes what `picks` name of review `id` (none: every file); a refusal (a file changed since
/// the review showed it, or cannot be undone) writes nothing and says why.
pub(super) async fn undo(
    (reviews, checkpoints): (&Reviews, &Checkpoints),
    id: ReviewId,
    picks: Vec<TurnPick>,
) -> Result<TurnUndone> {
    let (root, turn) = turn_of(reviews, id)?;
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
        Err(Error::Checkpoint(e)) if refusal(&e) => Ok(TurnUndone::Refused { why: e.to_string() }),
        Err(e) => Err(e),
    }
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
