//! Keeps a Copilot CLI lock for each session running in a subfolder of an enabled workspace,
//! while Redline runs (`runtime::folders` reads the sessions).

use super::Instance;
use crate::runtime::folders::{self, SessionFolders};
use std::sync::{Arc, Weak};

impl Instance {
    /// Follows the CLIs' sessions until Redline quits; started once, with the instance.
    pub(super) fn follow_folders(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let quit = self.quit.clone();
        tokio::spawn(async move {
            let mut sessions = SessionFolders::default();
            let mut tick = tokio::time::interval(folders::POLL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = quit.cancelled() => return,
                    _ = tick.tick() => {}
                }
                let Some(found) = Self::scan(&weak, sessions).await else {
                    return;
                };
                let Some(instance) = weak.upgrade() else {
                    return;
                };
                instance.check_folders().await;
                drop(instance);
                sessions = found;
            }
        });
    }

    /// One look at the sessions (off the runtime: it reads files), then each companion's locks.
    async fn scan(weak: &Weak<Self>, mut sessions: SessionFolders) -> Option<SessionFolders> {
        let instance = weak.upgrade()?;
        let (dirs, procs) = (instance.world.dirs.clone(), instance.world.procs.clone());
        let (sessions, running) = tokio::task::spawn_blocking(move || {
            let running = sessions.scan(&dirs, procs.as_ref());
            (sessions, running)
        })
        .await
        .ok()?;
        let mut state = instance.state.lock().await;
        for companion in state.companions.values_mut() {
            let inside = folders::inside(&running, &companion.service.workspace.roots);
            companion.set_folders(&inside, &instance.world.dirs);
        }
        Some(sessions)
    }
}
