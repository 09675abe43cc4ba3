//! Follows the CLIs' sessions while Redline runs: at each look, each running workspace keeps a
//! lock for the sessions inside it, and the workspaces whose folder went or came back are seen to.

use super::sessions::SessionFolders;
use crate::runtime::instance::workspaces::Workspaces;
use std::sync::Weak;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How often the session folders are looked at: Copilot CLI connects within a second of a
/// matching lock appearing, so a new session is connected within about two.
const POLL: Duration = Duration::from_millis(500);

/// Follows the sessions until `quit`, or until the workspaces go (held weakly: the follower never
/// keeps a stopped instance's workspaces alive); started once, with the instance.
pub(crate) fn follow(workspaces: Weak<Workspaces>, quit: CancellationToken) {
    tokio::spawn(async move {
        let mut sessions = SessionFolders::default();
        let mut tick = tokio::time::interval(POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = quit.cancelled() => return,
                _ = tick.tick() => {}
            }
            let Some(found) = scan(&workspaces, sessions).await else {
                return;
            };
            let Some(w) = workspaces.upgrade() else {
                return;
            };
            w.check_folders().await;
            drop(w);
            sessions = found;
        }
    });
}

/// One look at the sessions (off the runtime: it reads files), then each workspace's locks.
async fn scan(
    workspaces: &Weak<Workspaces>,
    mut sessions: SessionFolders,
) -> Option<SessionFolders> {
    let w = workspaces.upgrade()?;
    let (dirs, procs) = (w.world().dirs.clone(), w.world().procs.clone());
    let (sessions, running) = tokio::task::spawn_blocking(move || {
        let running = sessions.scan(&dirs, procs.as_ref());
        (sessions, running)
    })
    .await
    .ok()?;
    w.lock_folders(&running).await;
    Some(sessions)
}
