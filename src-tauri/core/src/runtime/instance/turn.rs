//! The review at the end of a CLI's turn (`redline hook --turn-review`), answered Done or
//! Continue with instructions: when the turn was checkpointed, one review of the whole turn
//! (every file any tool changed, start against end checkpoint, `review_whole`); else every file
//! the turn's edits touched, at the turn's start against now, one read-only tab each; and the
//! record the pre-edit hook keeps of those files (`--record-turn`).

use super::asker::{absolute, asker};
use super::batch::Batch;
use super::checkpoints::Checkpoints;
use super::local::run;
use super::reviews::Reviews;
use super::workspaces::Workspaces;
use crate::checkpoint::{CheckpointResult, Delta, Store, TurnRecord};
use crate::protocols::hook::patched::Patched;
use crate::protocols::hook::turn::{self, TurnRuling, CONTINUE_WITHOUT_WORDS};
use crate::protocols::hook::{HookCall, HookCli};
use crate::review::service::{Ask, Service};
use crate::review::turn::MAX_TURN_TABS;
use crate::review::turn::{TurnChange, TurnKey, Turns};
use crate::review::{ClientInfo, Origin, Outcome, ReadOnly, ReviewId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A turn review's tabs, waiting for the user's one answer.
pub struct TurnWaiting {
    batch: Batch,
    /// One review of the whole turn (`review_whole`), not the edit tools' tabs.
    whole: bool,
}

/// Records in `turns`, for the turn of the session `input` names, each file the edit touches as
/// it is before the edit (`texts`, read for the review; a move's destination read here): only the
/// first time the turn touches it.
pub(super) async fn record(
    turns: &Turns,
    cli: HookCli,
    input: &serde_json::Value,
    cwd: &Path,
    service: &Service,
    texts: &HashMap<String, Option<String>>,
    planned: &[Patched],
) {
    if turn::event(cli).is_none() {
        return;
    }
    let Some(of) = turn::of(cli, input) else {
        tracing::warn!(
            "{}'s hook named no session: its turn is not recorded",
            cli.name()
        );
        return;
    };
    let mut files: Vec<(String, Option<String>)> = texts
        .iter()
        .map(|(p, t)| (absolute(cwd, p), t.clone()))
        .collect();
    for to in planned
        .iter()
        .filter_map(|p| p.to.as_ref().filter(|to| **to != p.path))
    {
        let shown = absolute(cwd, to);
        match service.original(&shown).await {
            Ok(o) => files.push((shown, o.map(|o| o.text))),
            Err(e) => tracing::warn!("{shown} is not recorded for the turn's review: {e}"),
        }
    }
    // The order the edit named them in: the review's tabs follow it.
    files.sort_by_key(|(p, _)| {
        planned
            .iter()
            .position(|o| absolute(cwd, &o.path) == *p)
            .unwrap_or(usize::MAX)
    });
    let key = TurnKey {
        cli: cli.id().to_owned(),
        session: of.session,
    };
    let done = turns.touch(key, of.turn.as_deref(), cwd.to_owned(), files);
    if let Some(k) = done.evicted {
        tracing::warn!(
            "over {} sessions with a turn recorded: {} session {}'s turn is dropped and will \
             show nothing",
            crate::review::turn::MAX_TURN_SESSIONS,
            k.cli,
            k.session
        );
    }
    for p in done.unrecorded {
        tracing::warn!("{p} is past the turn's bounds: the turn's review will not show it");
    }
}

/// Opens the review of the turn `call` ends, one read-only tab per file it changed; `Err`: the
/// answer at once (nothing changed, nothing recorded, no workspace).
pub(super) async fn review(
    (workspaces, turns, reviews): (&Workspaces, &Turns, &Reviews),
    call: HookCall,
    pid: Option<u32>,
) -> Result<TurnWaiting, TurnRuling> {
    let cli = call.cli;
    let end = turn::read(cli, &call.input).map_err(|why| TurnRuling::Pass { why })?;
    let key = TurnKey {
        cli: cli.id().to_owned(),
        session: end.of.session.clone(),
    };
    // Answered once: whatever the user says, this turn's record is done.
    let Some(record) = turns.take(&key, end.of.turn.as_deref()) else {
        return Err(TurnRuling::Done);
    };
    let cwd = PathBuf::from(&end.cwd);
    let service = workspaces
        .service_holding(&record.cwd)
        .await
        .map_err(|e| TurnRuling::Pass {
            why: format!("{e}; the turn's changes are not reviewed"),
        })?;
    let now = read_now(&service, record.files.iter().map(|(path, _)| path)).await;
    let mut changes = record.changes(&now);
    if changes.is_empty() {
        return Err(TurnRuling::Done);
    }
    let past = bound_tabs(&mut changes);
    let origin = Origin::Hook { run: run() };
    let who = asker(cli, pid).await;
    let mut waiting = TurnWaiting {
        batch: Batch::default(),
        whole: false,
    };
    let read_only = ReadOnly::Turn {
        cli: cli.name().to_owned(),
        not_shown: record.unrecorded.len() + past,
        checkpointed: None,
    };
    for c in changes {
        let reply = waiting.batch.reply();
        let start = c.start.clone();
        let ask = tab(&origin, &who, &read_only, c);
        match service.propose_read(ask, start.map(Into::into), reply) {
            Ok(id) => waiting.batch.opened(id),
            Err(e) => {
                reviews.dismiss_local(waiting.batch.ids());
                return Err(TurnRuling::Pass {
                    why: format!("cannot show the turn's changes: {e}"),
                });
            }
        }
    }
    tracing::info!(
        "{}'s turn in {}: {} file(s) to review{}",
        cli.name(),
        cwd.display(),
        waiting.batch.ids().len(),
        if end.again { " (again)" } else { "" }
    );
    Ok(waiting)
}

/// Opens the one review of the checkpointed turn `ended`, which the hook `call` ends: every
/// file changed from its start to its end checkpoint, by whatever tool; `Err`: the answer at
/// once (nothing changed, no workspace, the review cannot open).
pub(super) async fn review_whole(
    (workspaces, turns, checkpoints): (&Workspaces, &Turns, &Checkpoints),
    call: HookCall,
    pid: Option<u32>,
    ended: TurnRecord,
) -> Result<TurnWaiting, TurnRuling> {
    let cli = call.cli;
    let end = turn::read(cli, &call.input).map_err(|why| TurnRuling::Pass { why })?;
    let key = TurnKey {
        cli: cli.id().to_owned(),
        session: end.of.session.clone(),
    };
    // The edit tools' record is not needed: the checkpoints hold every file.
    drop(turns.take(&key, end.of.turn.as_deref()));
    let pass = |e: crate::error::Error| TurnRuling::Pass {
        why: format!("{e}; the turn's changes are not reviewed"),
    };
    let service = workspaces
        .service_holding(Path::new(&end.cwd))
        .await
        .map_err(pass)?;
    let root = service.workspace.id().to_owned();
    let turn = ended.clone();
    let changed = checkpoints
        .with(&root, move |st| changes(st, &turn))
        .await
        .map_err(pass)?;
    if changed.is_empty() {
        return Err(TurnRuling::Done);
    }
    let mut waiting = TurnWaiting {
        batch: Batch::default(),
        whole: true,
    };
    let ask = Ask {
        origin: Origin::Hook { run: run() },
        client: asker(cli, pid).await,
        file_path: root.to_string_lossy().into_owned(),
        original_from: None,
        proposal: String::new(),
        read_only: Some(ReadOnly::Turn {
            cli: cli.name().to_owned(),
            not_shown: 0,
            checkpointed: Some(ended.id),
        }),
        reason_heard: true,
    };
    let id = service
        .propose_read(ask, None, waiting.batch.reply())
        .map_err(|e| TurnRuling::Pass {
            why: format!("cannot show the turn's changes: {e}"),
        })?;
    waiting.batch.opened(id);
    // The window opens the first file as soon as it has the list: read it meanwhile.
    super::turn_view::open_ahead(checkpoints, &root, ended.id).await;
    tracing::info!(
        "{}'s turn {} in {}: {} file(s) to review",
        cli.name(),
        ended.id,
        root.display(),
        changed.len()
    );
    Ok(waiting)
}

/// What `turn` changed. Nothing: the history's bound is kept now, there being no review (else
/// once the review's first file is open, `turn_view::open_ahead`).
fn changes(st: &mut Store, turn: &TurnRecord) -> CheckpointResult<Vec<Delta>> {
    let changed = match &turn.end {
        Some(end) => st.changes(&turn.start, end)?,
        None => Vec::new(),
    };
    if changed.is_empty() {
        st.prune_if_due()?;
    }
    Ok(changed)
}

/// Keeps the first of the changes a review's tabs are bounded to, as any session's; returns how
/// many went (they are counted, not shown).
fn bound_tabs(changes: &mut Vec<TurnChange>) -> usize {
    let shown = changes.len().min(MAX_TURN_TABS);
    let past = changes.len() - shown;
    changes.truncate(shown);
    past
}

/// The read-only tab of one changed file: the turn's start against now.
fn tab(origin: &Origin, who: &ClientInfo, read_only: &ReadOnly, c: TurnChange) -> Ask {
    Ask {
        origin: origin.clone(),
        client: who.clone(),
        file_path: c.path,
        original_from: None,
        proposal: c.now.unwrap_or_default(),
        read_only: Some(read_only.clone()),
        reason_heard: true,
    }
}

/// The recorded files as they are now; one that cannot be read, or is no longer text, is left
/// out of the review (and said so in the log).
async fn read_now<'a>(
    service: &Service,
    paths: impl Iterator<Item = &'a String>,
) -> HashMap<String, Option<String>> {
    let mut now = HashMap::new();
    for path in paths {
        match service.original(path).await {
            Ok(Some(o)) if !o.utf8 => {
                tracing::warn!("{path} is no longer UTF-8 text: left out of the turn's review")
            }
            Ok(o) => {
                now.insert(path.clone(), o.map(|o| o.text));
            }
            Err(e) => tracing::warn!("{path} is left out of the turn's review: {e}"),
        }
    }
    now
}

impl TurnWaiting {
    /// One review of the whole turn: a Continue on it is reviewed whole too.
    pub fn whole(&self) -> bool {
        self.whole
    }

    pub fn ids(&self) -> &[ReviewId] {
        self.batch.ids()
    }

    /// The user's one answer, for every tab: the first decided answers the turn and the other
    /// tabs go; `None` when `gone` comes first (the CLI stopped the hook).
    pub async fn ruling(
        mut self,
        reviews: &Reviews,
        gone: impl std::future::Future<Output = ()>,
    ) -> Option<TurnRuling> {
        let ids = self.batch.ids().to_vec();
        let decided = async {
            match self.batch.next().await.map(|d| (d.outcome, d.reason)) {
                Some((Outcome::Accepted, _)) => TurnRuling::Done,
                Some((Outcome::Rejected, reason)) => TurnRuling::Continue {
                    instructions: reason
                        .filter(|r| !r.trim().is_empty())
                        .unwrap_or_else(|| CONTINUE_WITHOUT_WORDS.to_owned()),
                },
                Some((Outcome::Closed | Outcome::Dismissed, _)) | None => TurnRuling::Pass {
                    why: "the turn's review ended without an answer (its workspace was turned \
                          off or Redline stopped)"
                        .into(),
                },
            }
        };
        Batch::until(&ids, reviews, decided, gone, "an end-of-turn hook").await
    }
}
