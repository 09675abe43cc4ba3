//! `redline turns`: a workspace's turns listed (newest first, each with the files it changed),
//! one turn's unified diff, its undo (whole, by file, or the hunk covering a line), and a
//! checkpoint on demand. Paths are relative to the workspace's root, or absolute inside it.

use super::checkpoints::Checkpoints;
use super::workspaces::Workspaces;
use crate::api::turns::{
    Checkpointed, FileStatus, TurnFile, TurnState, TurnSummary, TurnUndone, MAX_LISTED,
};
use crate::checkpoint::{
    ChangeKind, Checkpoint, CheckpointError, CheckpointResult, Delta, NotKept, Pick, Store,
    TurnRecord, Undo,
};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The root of the workspace holding `dir`, and its other names (the roots as given).
async fn workspace_of(workspaces: &Workspaces, dir: &Path) -> Result<Vec<PathBuf>> {
    let service = workspaces.service_holding(dir).await?;
    Ok(service.workspace.roots.clone())
}

/// The turns of the workspace holding `dir`, newest first.
pub(super) async fn list(
    workspaces: &Workspaces,
    checkpoints: &Checkpoints,
    dir: &Path,
) -> Result<Vec<TurnSummary>> {
    recent(workspaces, checkpoints, dir, usize::MAX).await
}

/// The newest `n` turns of the workspace holding `dir`, newest first (the tray's few: each
/// turn's change is a `git diff`, so only those are worked out).
pub(super) async fn recent(
    workspaces: &Workspaces,
    checkpoints: &Checkpoints,
    dir: &Path,
    n: usize,
) -> Result<Vec<TurnSummary>> {
    let roots = workspace_of(workspaces, dir).await?;
    checkpoints
        .with(&roots[0], move |store| {
            store
                .turns()
                .iter()
                .rev()
                .take(n)
                .map(|t| summary(store, t))
                .collect()
        })
        .await
}

/// What a turn changed between `start` and `end`, listed: at most `MAX_LISTED` files, and how
/// many more there are (a turn that made 100,000 files answers a bounded list and says so).
pub(super) fn changed_files(
    store: &Store,
    (start, end): (&Checkpoint, &Checkpoint),
) -> CheckpointResult<(Vec<TurnFile>, u64)> {
    let mut changes = store.changes(start, end)?;
    let unlisted = changes.len().saturating_sub(MAX_LISTED);
    changes.truncate(MAX_LISTED);
    Ok((listed(store, (start, end), changes)?, unlisted as u64))
}

fn summary(store: &Store, t: &TurnRecord) -> CheckpointResult<TurnSummary> {
    let (files, unlisted) = match &t.end {
        Some(end) => changed_files(store, (&t.start, end))?,
        None => (Vec::new(), 0),
    };
    Ok(TurnSummary {
        id: t.id,
        cli: t.cli.clone(),
        session: t.session.clone(),
        started: t.started,
        ended: t.ended,
        state: match t.end {
            Some(_) => TurnState::Ended,
            None => TurnState::Running,
        },
        files,
        unlisted,
    })
}

/// `changes` as listed, each binary one marked too large when its bytes (as the turn left it,
/// or as it was when deleted) pass the bound undo reads: sizes from the store, no file read.
fn listed(
    store: &Store,
    (start, end): (&Checkpoint, &Checkpoint),
    changes: Vec<Delta>,
) -> CheckpointResult<Vec<TurnFile>> {
    // Git counts no lines of a file past its own big-file bound: only a binary one can be too
    // large, so a turn of text files costs no size lookup.
    let sizes = |at: &Checkpoint, wanted: bool| match wanted {
        true => store.sizes(at),
        false => Ok(Vec::new()),
    };
    let deleted = |d: &Delta| d.status == ChangeKind::Deleted;
    let after = sizes(end, changes.iter().any(|d| d.binary && !deleted(d)))?;
    let before = sizes(start, changes.iter().any(|d| d.binary && deleted(d)))?;
    let limit = store.file_limit();
    Ok(changes
        .into_iter()
        .map(|d| {
            let side = if deleted(&d) { &before } else { &after };
            let size = side.iter().find(|(p, _)| *p == d.path).map(|(_, s)| *s);
            let too_large = d.binary && size.is_some_and(|s| s > limit);
            file(d, too_large)
        })
        .collect())
}

fn file(d: Delta, too_large: bool) -> TurnFile {
    TurnFile {
        path: d.path,
        from: d.from,
        status: match d.status {
            ChangeKind::Added => FileStatus::Added,
            ChangeKind::Deleted => FileStatus::Deleted,
            ChangeKind::Modified => FileStatus::Modified,
            ChangeKind::Renamed => FileStatus::Renamed,
            ChangeKind::TypeChanged => FileStatus::TypeChanged,
        },
        binary: d.binary,
        too_large: too_large || matches!(d.not_kept, Some(NotKept::TooLarge(_))),
        not_a_file: match d.not_kept {
            Some(NotKept::NotAFile(kind)) => Some(kind.to_owned()),
            _ => None,
        },
        added: d.added,
        removed: d.removed,
    }
}

/// Turn `id`'s start and end; refused while it runs.
fn ends(store: &Store, id: u64) -> CheckpointResult<(Checkpoint, Checkpoint)> {
    let turn = store.turn(id).ok_or(CheckpointError::NoSuchTurn(id))?;
    let end = turn.end.clone().ok_or(CheckpointError::NotEnded(id))?;
    Ok((turn.start.clone(), end))
}

/// Turn `id`'s unified diff, of every file or of `path` alone.
pub(super) async fn show(
    (workspaces, checkpoints): (&Workspaces, &Checkpoints),
    dir: &Path,
    id: u64,
    path: Option<String>,
) -> Result<String> {
    let roots = workspace_of(workspaces, dir).await?;
    let path = path.map(|p| relative(&roots, Path::new(&p))).transpose()?;
    let patch = checkpoints
        .with(&roots[0], move |store| {
            let (start, end) = ends(store, id)?;
            store.patch(&start, &end, path.as_deref())
        })
        .await?;
    Ok(String::from_utf8_lossy(&patch).into_owned())
}

/// Undoes turn `id`: whole (no `picks`), or each `PATH` whole and each `PATH:LINE`'s hunk.
/// Refused, writing nothing, when a file is no longer what the turn left.
pub(super) async fn undo(
    (workspaces, checkpoints): (&Workspaces, &Checkpoints),
    dir: &Path,
    id: u64,
    picks: Vec<String>,
) -> Result<TurnUndone> {
    let roots = workspace_of(workspaces, dir).await?;
    let root = roots[0].clone();
    let done = checkpoints
        .with(&root, move |store| {
            let (start, end) = ends(store, id)?;
            if picks.is_empty() {
                return store.undo_all(&start, &end);
            }
            let changed = store.changes(&start, &end)?;
            let files = chosen(store, (&start, &end), &changed, &roots, &picks)?;
            store.undo(&start, &end, &files)
        })
        .await;
    match done {
        Ok(files) => Ok(TurnUndone::Done { files }),
        Err(Error::Checkpoint(e @ CheckpointError::Changed(_))) => Ok(TurnUndone::refused(&e)),
        Err(e) => Err(e),
    }
}

/// What `picks` name of the turn's `changed` files: each file once, whole or by hunks.
fn chosen(
    store: &Store,
    (start, end): (&Checkpoint, &Checkpoint),
    changed: &[Delta],
    roots: &[PathBuf],
    picks: &[String],
) -> CheckpointResult<Vec<Undo>> {
    let mut files: Vec<Undo> = Vec::new();
    for pick in picks {
        let (path, line) = split_line(pick, |p| {
            relative(roots, p).is_ok_and(|p| changed.iter().any(|d| d.path == p))
        });
        let path = relative(roots, Path::new(path))?;
        if !changed.iter().any(|d| d.path == path) {
            return Err(CheckpointError::NotInTurn(path));
        }
        let pick = match line {
            None => Pick::Whole,
            Some(line) => {
                let hunks = store.hunks(start, end, &path)?;
                let hunk = hunks.into_iter().find(|h| h.covers(line));
                Pick::Hunks(vec![hunk.ok_or(CheckpointError::NoSuchHunk(path.clone()))?])
            }
        };
        merge(&mut files, Undo { path, pick });
    }
    Ok(files)
}

/// `PATH:LINE` split, unless the whole of it names a changed file (`is_file`): a name may hold
/// a colon.
fn split_line(pick: &str, is_file: impl Fn(&Path) -> bool) -> (&str, Option<usize>) {
    if is_file(Path::new(pick)) {
        return (pick, None);
    }
    match pick.rsplit_once(':') {
        Some((path, line)) => match line.parse::<usize>() {
            Ok(line) if line > 0 => (path, Some(line)),
            _ => (pick, None),
        },
        None => (pick, None),
    }
}

/// Adds `undo` to `files`: a file named twice is undone once (whole wins, hunks add up).
fn merge(files: &mut Vec<Undo>, undo: Undo) {
    let Some(have) = files.iter_mut().find(|u| u.path == undo.path) else {
        files.push(undo);
        return;
    };
    match (&mut have.pick, undo.pick) {
        (Pick::Whole, _) => {}
        (mine @ Pick::Hunks(_), Pick::Whole) => *mine = Pick::Whole,
        (Pick::Hunks(mine), Pick::Hunks(more)) => {
            for h in more {
                if !mine.contains(&h) {
                    mine.push(h);
                }
            }
        }
    }
}

/// `path` relative to the workspace: as given when relative, else inside one of its `roots`.
fn relative(roots: &[PathBuf], path: &Path) -> CheckpointResult<PathBuf> {
    if path.is_relative() {
        return Ok(path.to_owned());
    }
    let canonical = path
        .parent()
        .and_then(|p| dunce::canonicalize(p).ok())
        .zip(path.file_name())
        .map(|(p, name)| p.join(name));
    roots
        .iter()
        .find_map(|r| {
            (path.strip_prefix(r).ok())
                .or_else(|| canonical.as_deref().and_then(|c| c.strip_prefix(r).ok()))
        })
        .map(Path::to_owned)
        .ok_or_else(|| CheckpointError::NotInWorkspace(path.to_owned()))
}

/// A checkpoint of the workspace holding `dir`, now.
pub(super) async fn checkpoint(
    workspaces: &Workspaces,
    checkpoints: &Checkpoints,
    dir: &Path,
) -> Result<Checkpointed> {
    let roots = workspace_of(workspaces, dir).await?;
    let made = checkpoints
        .with(&roots[0], |store| store.checkpoint())
        .await?;
    Ok(Checkpointed {
        workspace: roots[0].clone(),
        commit: made.commit.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::{Hunk, HunkLines};

    #[test]
    fn a_line_is_split_off_unless_the_whole_names_a_changed_file() {
        let none = |_: &Path| false;
        assert_eq!(split_line("src/a.rs:12", none), ("src/a.rs", Some(12)));
        assert_eq!(split_line("src/a.rs", none), ("src/a.rs", None));
        assert_eq!(split_line("a.rs:0", none), ("a.rs:0", None));
        assert_eq!(split_line("a.rs:x", none), ("a.rs:x", None));
        let colon = |p: &Path| p == Path::new("notes:3");
        assert_eq!(split_line("notes:3", colon), ("notes:3", None));
    }

    #[test]
    fn a_file_named_twice_is_undone_once_whole_winning() {
        let hunk = |first| Hunk {
            before: HunkLines { first, count: 1 },
            after: HunkLines { first, count: 1 },
        };
        let undo = |pick| Undo {
            path: "a".into(),
            pick,
        };
        let mut files = Vec::new();
        merge(&mut files, undo(Pick::Hunks(vec![hunk(1)])));
        merge(&mut files, undo(Pick::Hunks(vec![hunk(1), hunk(5)])));
        assert_eq!(files, [undo(Pick::Hunks(vec![hunk(1), hunk(5)]))]);
        merge(&mut files, undo(Pick::Whole));
        merge(&mut files, undo(Pick::Hunks(vec![hunk(9)])));
        assert_eq!(files, [undo(Pick::Whole)]);
    }

    // Unix paths: "/ws" is no absolute path on Windows.
    #[cfg(unix)]
    #[test]
    fn a_path_is_relative_to_the_workspace_or_absolute_inside_it() {
        let roots = [PathBuf::from("/ws")];
        assert_eq!(
            relative(&roots, Path::new("a/b")).unwrap(),
            Path::new("a/b")
        );
        assert_eq!(
            relative(&roots, Path::new("/ws/a/b")).unwrap(),
            Path::new("a/b")
        );
        assert!(matches!(
            relative(&roots, Path::new("/elsewhere/a")),
            Err(CheckpointError::NotInWorkspace(_))
        ));
    }
}
