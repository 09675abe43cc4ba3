//! Reviews a CLI's pre-edit hook asks for (`redline hook`): one per file its edit touches, all
//! of one run, the hook answered once every file is accepted or as soon as one is rejected.

use super::asker::{absolute, asker};
use super::batch::Batch;
use super::local::run;
use super::reviews::Reviews;
use super::turn;
use super::workspaces::Workspaces;
use crate::protocols::hook::patched::Patched;
use crate::protocols::hook::{self, Accepted, FileChange, HookCall, HookCli, HookRuling};
use crate::review::service::{Ask, Service};
use crate::review::turn::Turns;
use crate::review::{Origin, Outcome, ReadOnly, ReviewId};
use crate::workspace::WorkspaceError;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A hook's reviews, waiting for the user.
pub struct Waiting {
    cli: HookCli,
    batch: Batch,
    /// Each file as the edit leaves it, paths as the CLI named them (its answer names them so).
    planned: Vec<Patched>,
}

/// Opens the reviews `call`'s edit asks for, in the enabled workspace holding the CLI's folder
/// (recording the files in its session's turn, with `--record-turn`); `Err`: the ruling at once
/// (not an edit, no workspace, a patch that does not apply).
pub(super) async fn open(
    (workspaces, turns, reviews): (&Workspaces, &Turns, &Reviews),
    call: HookCall,
    pid: Option<u32>,
) -> Result<Waiting, HookRuling> {
    let cli = call.cli;
    let (cwd, service, outcomes) = planned(workspaces, turns, &call).await?;
    let origin = Origin::Hook { run: run() };
    let who = asker(cli, pid).await;
    let mut waiting = Waiting {
        cli,
        batch: Batch::default(),
        planned: Vec::new(),
    };
    for o in outcomes {
        let reply = waiting.batch.reply();
        let shown = absolute(&cwd, o.to.as_deref().unwrap_or(&o.path));
        let ask = Ask {
            origin: origin.clone(),
            client: who.clone(),
            file_path: shown,
            original_from: None,
            proposal: o.after.clone().unwrap_or_default(),
            read_only: read_only(cli, &o),
            reason_heard: true,
        };
        let original = o.before.clone().map(Into::into);
        match service.propose_read(ask, original, reply) {
            Ok(id) => waiting.batch.opened(id),
            Err(e) => {
                reviews.dismiss_local(waiting.batch.ids());
                return Err(deny(e.to_string()));
            }
        }
        waiting.planned.push(o);
    }
    Ok(waiting)
}

/// The edit `call` asks about, read and worked out file by file in the workspace holding its
/// folder (and recorded in its session's turn, with `--record-turn`).
async fn planned(
    workspaces: &Workspaces,
    turns: &Turns,
    call: &HookCall,
) -> Result<(PathBuf, std::sync::Arc<Service>, Vec<Patched>), HookRuling> {
    let cli = call.cli;
    let edit = hook::read(cli, &call.input)?;
    let cwd = PathBuf::from(&edit.cwd);
    let service = workspaces
        .service_holding(&cwd)
        .await
        .map_err(|e| not_served(cli, &cwd, e))?;
    let texts = read_all(&service, &cwd, &edit.changes).await?;
    let read = |p: &str| Ok::<_, String>(texts.get(p).cloned().flatten());
    let outcomes = hook::plan::plan(&edit.changes, read).map_err(deny)?;
    if call.record_turn {
        turn::record(turns, cli, &call.input, &cwd, &service, &texts, &outcomes).await;
    }
    Ok((cwd, service, outcomes))
}

/// The turn mode's pre-edit hook (`--record-only`): the edit's files recorded for the turn's
/// review, no review opened; the edit goes on to the CLI's own approval, whatever happened.
pub(super) async fn record_only(workspaces: &Workspaces, turns: &Turns, mut call: HookCall) {
    call.record_turn = true;
    if let Err(HookRuling::Deny { reason } | HookRuling::Pass { why: reason }) =
        planned(workspaces, turns, &call).await
    {
        tracing::info!(
            "{}'s edit is not recorded for its turn: {reason}",
            call.cli.name()
        );
    }
}

/// The ruling for an edit outside every workspace Redline has on: the CLI's own approval.
fn not_served(cli: HookCli, cwd: &Path, e: crate::Error) -> HookRuling {
    let why = match e {
        crate::Error::Workspace(WorkspaceError::NotInWorkspace(_)) => {
            format!("{} is in no workspace Redline has on", cwd.display())
        }
        e => e.to_string(),
    };
    HookRuling::Pass {
        why: format!("{why}; {}'s own approval runs", cli.name()),
    }
}

fn deny(reason: String) -> HookRuling {
    HookRuling::Deny {
        reason: format!("Redline refused this edit: {reason}"),
    }
}

/// Every file the edit reads, read once: what the review shows is what it applies to.
async fn read_all(
    service: &Service,
    cwd: &Path,
    changes: &[FileChange],
) -> Result<HashMap<String, Option<String>>, HookRuling> {
    let mut texts: HashMap<String, Option<String>> = HashMap::new();
    for path in changes.iter().flat_map(|c| c.reads()) {
        if texts.contains_key(path) {
            continue;
        }
        let shown = absolute(cwd, path);
        let text = match service.original(&shown).await {
            Ok(Some(o)) if !o.utf8 => {
                return Err(deny(format!("{path} is not UTF-8 text")));
            }
            Ok(o) => o.map(|o| o.text),
            Err(e) => return Err(deny(e.to_string())),
        };
        texts.insert(path.to_owned(), text);
    }
    Ok(texts)
}

/// Why a file's review cannot be edited, if it cannot: a deletion, or a CLI that writes its own.
fn read_only(cli: HookCli, o: &Patched) -> Option<ReadOnly> {
    match (&o.after, cli.site().takes_edits) {
        (None, _) => Some(ReadOnly::Deletion {
            cli: cli.name().to_owned(),
        }),
        (Some(_), false) => Some(ReadOnly::CliWritesItsOwn {
            cli: cli.name().to_owned(),
        }),
        (Some(_), true) => None,
    }
}

impl Waiting {
    /// The review ids, in the edit's order.
    pub fn ids(&self) -> &[ReviewId] {
        self.batch.ids()
    }

    /// The ruling once the user decides, unless `gone` comes first (the hook was killed: Ctrl-C
    /// in the CLI, its timeout): then the reviews are withdrawn and there is no ruling.
    pub async fn ruling(
        mut self,
        reviews: &Reviews,
        gone: impl std::future::Future<Output = ()>,
    ) -> Option<HookRuling> {
        let ids = self.batch.ids().to_vec();
        // A rejection decides the whole edit: the other files' reviews go.
        Batch::until(&ids, reviews, self.decide(), gone, "a hook").await
    }

    async fn decide(&mut self) -> HookRuling {
        let mut accepted: Vec<Option<String>> = vec![None; self.planned.len()];
        while accepted.iter().any(Option::is_none) {
            // Every sender gone: the reviews went without a word (Redline stopping).
            let Some(d) = self.batch.next().await else {
                return undecided("Redline stopped before the user decided");
            };
            let Some(p) = self.planned.get(d.index) else {
                continue;
            };
            match d.outcome {
                Outcome::Accepted => accepted[d.index] = Some(d.text),
                Outcome::Rejected => {
                    let shown = p.to.as_deref().unwrap_or(&p.path);
                    return HookRuling::Deny {
                        reason: d.reason.unwrap_or_else(|| hook::rejected(shown)),
                    };
                }
                // Fail closed: only the user's accept lets an edit through.
                Outcome::Closed => {
                    return undecided("its review was closed (replaced by another) undecided")
                }
                Outcome::Dismissed => {
                    return undecided(
                        "its review was withdrawn (its workspace was turned off, or Redline \
                         stopped)",
                    )
                }
            }
        }
        let files: Vec<Accepted> = self
            .planned
            .iter()
            .zip(accepted)
            .map(|(p, text)| {
                let after = p.after.as_ref().map(|_| text.unwrap_or_default());
                Accepted {
                    edited: after != p.after,
                    path: p.path.clone(),
                    to: p.to.clone(),
                    before: p.before.clone(),
                    after,
                }
            })
            .collect();
        hook::settle(self.cli, files)
    }
}

/// The ruling on an edit whose review ended without the user's decision: a no, with why.
pub(crate) fn undecided(why: &str) -> HookRuling {
    HookRuling::Deny {
        reason: format!(
            "Redline did not let this edit through: {why}, so nobody accepted it and it was not \
             made. Ask the user before trying it again."
        ),
    }
}
