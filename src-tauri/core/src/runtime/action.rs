//! Each action carried out on the running instance: one `Handle` impl per action of
//! `surfaces::action`'s list, whichever channel asked it.

use crate::api::remote_info::RemoteInfo;
use crate::api::status::{ContainersOn, Pin, Status};
use crate::doctor::Welcome;
use crate::error::Result;
use crate::review::{Detail, Review, ReviewId, Summary};
use crate::runtime::companion::Decision;
use crate::runtime::instance::{deciding, Instance, TurnTarget};
use crate::surfaces::action::*;
use crate::surfaces::editor_jump;
use crate::workspace::config::{Config, WorkspaceEntry};
use crate::workspace::container::RunArgs;
use crate::workspace::settings::Settings;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

impl Handle<ReviewsList> for Instance {
    async fn handle(&self, _: ReviewsList) -> Result<Vec<Detail>> {
        Ok(self.reviews().details())
    }
}

impl Handle<ReviewSummaries> for Instance {
    async fn handle(&self, _: ReviewSummaries) -> Result<Vec<Summary>> {
        Ok(self.reviews().list())
    }
}

impl Handle<ReviewUpdate> for Instance {
    async fn handle(&self, r: ReviewUpdate) -> Result<()> {
        self.reviews().update(r.id, r.revision, r.content)
    }
}

impl Handle<ReviewAccept> for Instance {
    async fn handle(&self, r: ReviewAccept) -> Result<()> {
        let decision = Decision::Accept {
            content: r.content,
            revision: r.revision,
        };
        self.decide(r.id, decision).await
    }
}

impl Handle<ReviewReject> for Instance {
    async fn handle(&self, r: ReviewReject) -> Result<()> {
        let decision = Decision::Reject {
            reason: r.reason,
            comments: r.comments.unwrap_or_default(),
        };
        self.decide(r.id, decision).await
    }
}

impl Handle<CommentsMessage> for Instance {
    async fn handle(&self, r: CommentsMessage) -> Result<Option<String>> {
        Ok(crate::review::comment::compose(
            r.comments,
            r.reason.as_deref(),
        )?)
    }
}

impl Handle<ReviewOpenInEditor> for Instance {
    async fn handle(&self, r: ReviewOpenInEditor) -> Result<()> {
        let editor = editor_jump::chosen(&self.workspaces().settings().await, |k| {
            std::env::var(k).ok()
        });
        let terminals = editor_jump::Terminals::os(self.dirs().runtime.clone());
        if let Some(review) = elsewhere(self, r.id) {
            let command = (self.remotes()).command(review.origin.remote().unwrap_or_default())?;
            let editor = editor.as_deref();
            return editor_jump::open_far(&review, &command, r.line, editor, &terminals);
        }
        let review = self.reviews().review(r.id)?;
        editor_jump::open(&review, r.line, editor.as_deref(), &terminals)
    }
}

impl Handle<ReviewDiskChanged> for Instance {
    async fn handle(&self, r: ReviewDiskChanged) -> Result<bool> {
        if let Some(review) = elsewhere(self, r.id) {
            return self
                .remotes()
                .ask_about(&review, |id| ReviewDiskChanged { id })
                .await;
        }
        self.reviews().disk_changed(r.id)
    }
}

/// Review `id` when it is another machine's: what is asked about its file is asked there.
fn elsewhere(instance: &Instance, id: ReviewId) -> Option<Arc<Review>> {
    let review = instance.reviews().any(id).ok()?;
    review.origin.remote().is_some().then_some(review)
}

impl Handle<ReviewMention> for Instance {
    async fn handle(&self, r: ReviewMention) -> Result<()> {
        self.mention(r.id, r.line_start, r.line_end).await
    }
}

impl Handle<ReviewSelect> for Instance {
    async fn handle(&self, r: ReviewSelect) -> Result<()> {
        self.select(r.id, r.selection).await
    }
}

impl Handle<ReviewShown> for Instance {
    async fn handle(&self, r: ReviewShown) -> Result<()> {
        if let Some(ms) = self.reviews().since_added(r.id) {
            tracing::info!(review = r.id, ms, "review shown");
        }
        Ok(())
    }
}

impl Handle<SettingsGet> for Instance {
    async fn handle(&self, _: SettingsGet) -> Result<Settings> {
        Ok(self.workspaces().settings().await)
    }
}

impl Handle<SettingsSet> for Instance {
    async fn handle(&self, r: SettingsSet) -> Result<()> {
        self.set_settings(r.settings).await
    }
}

impl Handle<WelcomeGet> for Instance {
    async fn handle(&self, _: WelcomeGet) -> Result<Welcome> {
        let config = Config::load(&self.dirs().config_file())?;
        Ok(crate::doctor::welcome(self.status().await, config).await)
    }
}

impl Handle<RejectAll> for Instance {
    async fn handle(&self, _: RejectAll) -> Result<()> {
        deciding::reject_all((self.reviews(), self.remotes())).await
    }
}

impl Handle<WorkspaceAdd> for Instance {
    async fn handle(&self, r: WorkspaceAdd) -> Result<PathBuf> {
        self.workspaces().add(&r.path, r.force).await
    }
}

impl Handle<StatusGet> for Instance {
    async fn handle(&self, _: StatusGet) -> Result<Status> {
        Ok(self.status().await)
    }
}

impl Handle<WorkspaceRemove> for Instance {
    async fn handle(&self, r: WorkspaceRemove) -> Result<PathBuf> {
        self.workspaces().remove(&r.path).await
    }
}

impl Handle<WorkspaceEnable> for Instance {
    async fn handle(&self, r: WorkspaceEnable) -> Result<()> {
        self.workspaces().set_enabled(&r.path, r.enabled).await
    }
}

impl Handle<WorkspaceList> for Instance {
    async fn handle(&self, _: WorkspaceList) -> Result<Vec<WorkspaceEntry>> {
        Ok(self.workspaces().list().await)
    }
}

impl Handle<RemoteAdd> for Instance {
    async fn handle(&self, r: RemoteAdd) -> Result<RemoteInfo> {
        deciding::add_remote(self.workspaces(), self.remotes(), r.remote).await
    }
}

impl Handle<RemoteRemove> for Instance {
    async fn handle(&self, r: RemoteRemove) -> Result<()> {
        deciding::remove_remote(self.workspaces(), self.remotes(), &r.name).await
    }
}

impl Handle<RemoteAsk> for Instance {
    async fn handle(&self, r: RemoteAsk) -> Result<serde_json::Value> {
        self.remotes().ask(&r.name, *r.call).await
    }
}

impl Handle<RemoteList> for Instance {
    async fn handle(&self, _: RemoteList) -> Result<Vec<RemoteInfo>> {
        Ok(self.remotes().list())
    }
}

impl Handle<ReviewShow> for Instance {
    async fn handle(&self, r: ReviewShow) -> Result<String> {
        self.review_show(r.id).await
    }
}

impl Handle<ReviewWait> for Instance {
    async fn handle(&self, r: ReviewWait) -> Result<Summary> {
        let timeout = Duration::from_millis(r.timeout_ms);
        self.reviews().wait(r.file.as_deref(), timeout).await
    }
}

impl Handle<TokenRotate> for Instance {
    async fn handle(&self, r: TokenRotate) -> Result<()> {
        self.workspaces().rotate_token(&r.path).await
    }
}

impl Handle<PinGet> for Instance {
    async fn handle(&self, r: PinGet) -> Result<Pin> {
        self.workspaces().pin(&r.path).await
    }
}

impl Handle<ContainerEnable> for Instance {
    async fn handle(&self, r: ContainerEnable) -> Result<ContainersOn> {
        let path = self
            .workspaces()
            .set_containers(&r.path, true, r.address)
            .await?;
        let status = self.status().await;
        let w = status.workspaces.into_iter().find(|w| w.path == path);
        Ok(ContainersOn {
            running: w.as_ref().is_some_and(|w| w.port.is_some()),
            containers: w.and_then(|w| w.containers),
            path,
        })
    }
}

impl Handle<ContainerDisable> for Instance {
    async fn handle(&self, r: ContainerDisable) -> Result<PathBuf> {
        self.workspaces().set_containers(&r.path, false, None).await
    }
}

impl Handle<ContainerArgs> for Instance {
    async fn handle(&self, r: ContainerArgs) -> Result<RunArgs> {
        self.workspaces()
            .container_args(&r.path, r.container_path.as_deref(), &r.home)
            .await
    }
}

impl Handle<WindowShow> for Instance {
    async fn handle(&self, _: WindowShow) -> Result<bool> {
        Ok(self.request_show())
    }
}

impl Handle<EditorSend> for Instance {
    async fn handle(&self, r: EditorSend) -> Result<()> {
        self.editor_message(None, r.message).await.map(drop)
    }
}

impl Handle<Quit> for Instance {
    async fn handle(&self, _: Quit) -> Result<()> {
        self.request_quit();
        Ok(())
    }
}

impl Handle<TurnsList> for Instance {
    async fn handle(&self, r: TurnsList) -> Result<Vec<crate::api::turns::TurnSummary>> {
        self.turns_list(&r.dir).await
    }
}

impl Handle<TurnsShow> for Instance {
    async fn handle(&self, r: TurnsShow) -> Result<String> {
        self.turns_show(&r.dir, r.id, r.path).await
    }
}

impl Handle<TurnsUndo> for Instance {
    async fn handle(&self, r: TurnsUndo) -> Result<crate::api::turns::TurnUndone> {
        self.turns_undo(&r.dir, r.id, r.picks).await
    }
}

impl Handle<TurnFilesGet> for Instance {
    async fn handle(&self, r: TurnFilesGet) -> Result<crate::api::turns::TurnFiles> {
        if let Some(review) = elsewhere(self, r.id) {
            return self
                .remotes()
                .ask_about(&review, |id| TurnFilesGet { id })
                .await;
        }
        self.turn_files(TurnTarget::Review(r.id)).await
    }
}

impl Handle<TurnFileGet> for Instance {
    async fn handle(&self, r: TurnFileGet) -> Result<crate::api::turns::TurnFileView> {
        if let Some(review) = elsewhere(self, r.id) {
            let path = r.path;
            return (self.remotes())
                .ask_about(&review, |id| TurnFileGet { id, path })
                .await;
        }
        self.turn_file(TurnTarget::Review(r.id), r.path).await
    }
}

impl Handle<TurnUndo> for Instance {
    async fn handle(&self, r: TurnUndo) -> Result<crate::api::turns::TurnUndone> {
        if let Some(review) = elsewhere(self, r.id) {
            let picks = r.picks;
            return (self.remotes())
                .ask_about(&review, |id| TurnUndo { id, picks })
                .await;
        }
        self.turn_undo(TurnTarget::Review(r.id), r.picks).await
    }
}

impl Handle<TurnsHistory> for Instance {
    async fn handle(&self, _: TurnsHistory) -> Result<Vec<crate::api::turns::HistoryTurn>> {
        Ok(self.turns_history().await)
    }
}

impl Handle<PastTurnFiles> for Instance {
    async fn handle(&self, r: PastTurnFiles) -> Result<crate::api::turns::TurnFiles> {
        self.turn_files(past(r.workspace, r.turn)).await
    }
}

impl Handle<PastTurnFile> for Instance {
    async fn handle(&self, r: PastTurnFile) -> Result<crate::api::turns::TurnFileView> {
        self.turn_file(past(r.workspace, r.turn), r.path).await
    }
}

impl Handle<PastTurnUndo> for Instance {
    async fn handle(&self, r: PastTurnUndo) -> Result<crate::api::turns::TurnUndone> {
        self.turn_undo(past(r.workspace, r.turn), r.picks).await
    }
}

impl Handle<TurnAskedGet> for Instance {
    async fn handle(&self, _: TurnAskedGet) -> Result<Option<crate::api::turns::TurnAsked>> {
        let asked = self.windows().take_turn();
        Ok(asked.map(|(workspace, turn)| crate::api::turns::TurnAsked { workspace, turn }))
    }
}

/// Turn `turn` of the workspace `workspace`, as the Turns view names it.
fn past(workspace: PathBuf, turn: u64) -> TurnTarget {
    TurnTarget::Past { workspace, turn }
}

impl Handle<TurnsCheckpoint> for Instance {
    async fn handle(&self, r: TurnsCheckpoint) -> Result<crate::api::turns::Checkpointed> {
        self.turns_checkpoint(&r.dir).await
    }
}
