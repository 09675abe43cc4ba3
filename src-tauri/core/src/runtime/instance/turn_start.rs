//! A turn's checkpoints from the CLI's hooks: its prompt hook (`redline hook CLI --turn-start`)
//! has the workspace holding its `cwd` checkpointed before it is answered, so the turn's first
//! edit lands after the checkpoint holds the files; its end-of-turn hook ends the turn; a
//! Continue begins the next (a prompt hook run for that Continue's instructions, as Gemini CLI
//! runs one, goes on with it). Never in the user's way: a checkpoint that fails lets the prompt go
//! on and says why (in the log and on the hook's standard error).

use super::checkpoints::Checkpoints;
use super::serve_checkpoint::spawn_checkpoint;
use super::workspaces::Workspaces;
use crate::checkpoint::TurnRecord;
use crate::protocols::hook::turn::{self, TurnBegun, TurnRuling};
use crate::protocols::hook::HookCall;
use std::path::Path;
use std::sync::Arc;

/// The prompt hook `call`: the turn begins in the workspace holding its `cwd`.
pub(super) async fn begin(
    workspaces: &Workspaces,
    checkpoints: &Checkpoints,
    call: &HookCall,
) -> TurnBegun {
    let start = match turn::read_start(call.cli, &call.input) {
        Ok(start) => start,
        Err(why) => return TurnBegun::Pass { why },
    };
    let cli = call.cli.name();
    let service = match workspaces.service_holding(Path::new(&start.cwd)).await {
        Ok(service) => service,
        Err(e) => {
            return TurnBegun::Pass {
                why: format!("{e}; {cli}'s turn is not checkpointed"),
            }
        }
    };
    // The turn's review may come at its end: the window gets ready now, hidden, as when a CLI
    // connects (the launcher follows this signal), so it does not pay a cold start then.
    service.session_started();
    let root = service.workspace.id();
    let session = (call.cli.id(), start.session.as_str());
    let same = |id: &String| checkpoints.for_same_prompt(session, id);
    if let Some(id) = start.prompt_id.as_ref().and_then(same) {
        tracing::info!("{cli}'s turn {id} goes on with the same prompt");
        return TurnBegun::Recorded { id };
    }
    let continued = |p: &str| checkpoints.continued(session, p, start.prompt_id.clone());
    if let Some(id) = start.prompt.as_deref().and_then(continued) {
        tracing::info!("{cli}'s turn {id} goes on with the user's Continue");
        return TurnBegun::Recorded { id };
    }
    match checkpoints
        .begin(root, session, start.prompt_id.clone())
        .await
    {
        Ok(turn) => {
            tracing::info!("{cli}'s turn {} begins in {}", turn.id, root.display());
            TurnBegun::Recorded { id: turn.id }
        }
        Err(e) => {
            tracing::warn!(
                "{cli}'s turn in {} is not checkpointed: {e}",
                root.display()
            );
            TurnBegun::Pass {
                why: format!("{cli}'s turn is not checkpointed ({e}); the prompt goes on"),
            }
        }
    }
}

/// The end-of-turn hook `call`: the session's running turn (if its prompt hook began one) ends;
/// the turn ended, checkpointed at both ends, when it is reviewed whole.
pub(super) async fn end(checkpoints: &Checkpoints, call: &HookCall) -> Option<TurnRecord> {
    let end = turn::read(call.cli, &call.input).ok()?;
    match checkpoints.end_as(call.cli.id(), &end.of.session).await? {
        (Ok(turn), whole) => {
            tracing::info!("{}'s turn {} ended", call.cli.name(), turn.id);
            whole.then_some(turn)
        }
        (Err(e), _) => {
            tracing::warn!("{}'s turn did not end well: {e}", call.cli.name());
            None
        }
    }
}

/// The user answered the turn's review: a Continue is a new turn, from the workspace as it is
/// now (the model's work after it is its change), reviewed whole if this one was (`whole`);
/// any other answer leaves a checkpoint of the workspace as the user left it, taken in the
/// background (the answer never waits for it).
pub(super) async fn answered(
    (workspaces, checkpoints): (&Workspaces, &Arc<Checkpoints>),
    call: &HookCall,
    ruling: &TurnRuling,
    whole: bool,
) {
    let Ok(end) = turn::read(call.cli, &call.input) else {
        return;
    };
    let Ok(service) = workspaces.service_holding(Path::new(&end.cwd)).await else {
        return;
    };
    let root = service.workspace.id();
    let TurnRuling::Continue { instructions } = ruling else {
        spawn_checkpoint(checkpoints.clone(), root.to_owned(), "its turn reviewed");
        return;
    };
    let session = (call.cli.id(), end.of.session.as_str());
    if let Err(e) = checkpoints
        .begin_as(root, session, whole, (Some(instructions.clone()), None))
        .await
    {
        tracing::warn!("the turn after a Continue is not checkpointed: {e}");
    }
}
