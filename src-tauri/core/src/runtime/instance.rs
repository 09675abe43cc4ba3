//! The running Redline: its parts, each a type with its own state, and the wiring between them.
//! - `Workspaces` (`workspaces.rs`): the config, each enabled workspace's companion (its servers),
//!   the folders gone, the settings saved with them, and the watch that says they changed;
//! - `Reviews` (`reviews.rs`): the review queue and what a surface does with its reviews;
//! - `Editors` (`editor.rs`): the open editor channels;
//! - `CodexChannel` (`codex_channel.rs`): Redline on Codex CLI's IDE socket, one per user;
//! - `Turns` (`review::turn`): what each CLI session's turn has touched;
//! - `Checkpoints` (`checkpoints.rs`): each workspace's checkpoint store and the turns running,
//!   begun and ended by the CLIs' hooks (`turn_start.rs`), read by `redline turns`
//!   (`turn_history.rs`);
//! - `WindowHub` (`runtime::window::hub`): the review windows attached;
//! - Copilot CLI's folder locks (`runtime::folders`): a task following the CLIs' sessions;
//! - `Remotes` (`runtime::remote::desktop`): the other machines whose reviews this one shows.
//!
//! `Instance` holds the parts, starts and stops them, and carries out what takes more than one
//! (a hook's reviews, an editor's message, the status). No other file writes `impl Instance`:
//! the others take only the parts they need.

use crate::api::status::Status;
use crate::api::turns::{Checkpointed, TurnSummary, TurnUndone};
use crate::discovery;
use crate::error::Result;
use crate::net::limits::Limits;
use crate::platform::dirs::Dirs;
use crate::protocols::hook::turn::{TurnBegun, TurnRuling};
use crate::protocols::hook::{HookCall, HookRuling};
use crate::review::decision::Decision;
use crate::review::editor::Message;
use crate::review::editor_context::Owner;
use crate::review::selection::Selection;
use crate::review::turn::Turns;
use crate::review::ReviewId;
use crate::runtime::remote::desktop::Remotes;
use crate::runtime::window::hub::WindowHub;
use crate::workspace::config::Config;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

mod asker;
mod batch;
pub mod checkpoints;
mod codex;
mod codex_channel;
pub mod deciding;
mod editor;
pub mod hook;
pub mod local;
pub mod reviews;
mod serve_checkpoint;
pub mod turn;
mod turn_ahead;
mod turn_history;
mod turn_start;
mod turn_view;
pub mod workspaces;
mod world;

pub use editor::{Applied, Editors};
pub use turn_view::Target as TurnTarget;
pub use world::World;

pub struct Instance {
    world: Arc<World>,
    workspaces: Arc<workspaces::Workspaces>,
    reviews: reviews::Reviews,
    editors: Editors,
    /// Codex CLI's IDE socket (one per user, so the instance's and no workspace's).
    codex: codex_channel::CodexChannel,
    /// What each CLI session's turn has touched, for its end-of-turn review (`--turn-review`).
    turns: Turns,
    /// Each workspace's checkpoints and turns (`redline turns`).
    checkpoints: Arc<checkpoints::Checkpoints>,
    windows: WindowHub,
    quit: CancellationToken,
    /// Asks a surface to show the reviews (a second launch, the tray, a command).
    show: tokio::sync::broadcast::Sender<()>,
    /// What the bridges to desktops share: this run's id, the decisions seen (`runtime::remote`).
    remote: crate::runtime::remote::end::RemoteEnd,
    /// The other machines whose reviews this one shows (`redline remote add`).
    remotes: Remotes,
}

impl Instance {
    /// Cleans up what a crashed run left, then starts every enabled workspace.
    pub async fn start(world: World) -> Result<Arc<Instance>> {
        Self::start_with_limits(world, Limits::default()).await
    }

    /// As `start`, with other bounds for every server (tests use small ones).
    pub async fn start_with_limits(world: World, limits: Limits) -> Result<Arc<Instance>> {
        if let Some(n) = crate::net::accept::raise_fd_limit() {
            tracing::debug!("open-file limit {n}");
        }
        let mut swept = discovery::sweep_stale(&world.dirs, world.procs.as_ref(), world.pid);
        swept.extend(discovery::sweep_containers(&world.dirs));
        #[cfg(unix)]
        swept.extend(crate::protocols::copilot::sweep(&world.dirs.runtime));
        for f in &swept {
            tracing::info!("removed stale discovery file {}", f.display());
        }
        let config = Config::load(&world.dirs.config_file())?;
        let checkpoints =
            checkpoints::Checkpoints::new(world.dirs.data.clone(), world.clock.clone());
        checkpoints.keep_within(config.settings.history.into());
        let world = Arc::new(world);
        let reviews = reviews::Reviews::new(world.clock.clone());
        let queue = reviews.queue().clone();
        let remote = crate::runtime::remote::end::RemoteEnd::new(limits.beat);
        let remotes = Remotes::new(queue.clone(), (limits.beat, &remote.run), &config.remotes);
        let instance = Arc::new(Instance {
            workspaces: Arc::new(workspaces::Workspaces::new(
                world.clone(),
                limits,
                queue,
                config,
            )),
            reviews,
            editors: Editors::new(world.clock.clone()),
            codex: Default::default(),
            turns: Default::default(),
            checkpoints: Arc::new(checkpoints),
            windows: Default::default(),
            quit: CancellationToken::new(),
            show: tokio::sync::broadcast::channel(4).0,
            remote,
            remotes,
            world,
        });
        instance.workspaces.start_enabled().await;
        let held = Arc::downgrade(&instance.workspaces);
        crate::runtime::folders::follow(held.clone(), instance.quit.clone());
        let quit = instance.quit.clone();
        serve_checkpoint::follow(held.clone(), instance.checkpoints.clone(), quit);
        instance
            .codex
            .serve(instance.world.codex_ipc.clone(), codex::source(held));
        Ok(instance)
    }

    pub fn dirs(&self) -> &Dirs {
        &self.world.dirs
    }

    /// The workspaces and their servers.
    pub fn workspaces(&self) -> &workspaces::Workspaces {
        &self.workspaces
    }

    /// What the bridges to desktops share (`runtime::remote`).
    pub(crate) fn remote_end(&self) -> &crate::runtime::remote::end::RemoteEnd {
        &self.remote
    }

    /// The review queue, and what a surface does with its reviews.
    pub fn reviews(&self) -> &reviews::Reviews {
        &self.reviews
    }

    /// The open editor channels.
    pub fn editors(&self) -> &Editors {
        &self.editors
    }

    /// The review windows attached to the channel, and the requests to show one.
    pub fn windows(&self) -> &WindowHub {
        &self.windows
    }

    /// Saves `settings` (refused, nothing saved, when a value is out of range); the turn
    /// history's bounds apply from each workspace's next turn end.
    pub async fn set_settings(&self, settings: crate::workspace::settings::Settings) -> Result<()> {
        let history = settings.history;
        self.workspaces.set_settings(settings).await?;
        self.checkpoints.keep_within(history.into());
        Ok(())
    }

    /// Asks whichever surface runs to show the reviews; false if none listens (headless).
    pub fn request_show(&self) -> bool {
        self.show.send(()).is_ok()
    }

    /// Shows the window with turn `turn` of `workspace` opened in its Turns view (the tray's
    /// *Recent turns*); false as `request_show`.
    pub fn request_open_turn(&self, workspace: std::path::PathBuf, turn: u64) -> bool {
        self.windows.ask_turn(workspace, turn);
        self.request_show()
    }

    pub fn show_requests(&self) -> tokio::sync::broadcast::Receiver<()> {
        self.show.subscribe()
    }

    /// Asks the process to stop; `quit_requested` resolves.
    pub fn request_quit(&self) {
        self.quit.cancel();
    }

    pub async fn quit_requested(&self) {
        self.quit.cancelled().await
    }

    /// What the running Redline says of itself: each workspace (served, off, or its folder
    /// gone), the keyring, the editors connected, the window and Codex's socket.
    pub async fn status(&self) -> Status {
        let gone = self.workspaces.check_folders().await;
        // Before the workspaces' own look: listing the editors takes their lock too.
        let editors = self.editors.list(&self.workspaces).await;
        Status {
            pid: self.world.pid,
            keyring: self.world.tokens.state().into(),
            workspaces: self.workspaces.status(&gone).await,
            editors,
            window_problem: self.windows.problem().borrow().clone(),
            codex_ide: self.codex.status(),
            log_file: crate::platform::background::in_use(),
            remotes: self.remotes.list(),
        }
    }

    /// Opens the reviews a CLI's pre-edit hook asks for (`hook::open`).
    pub async fn hook(
        &self,
        call: HookCall,
        pid: Option<u32>,
    ) -> Result<hook::Waiting, HookRuling> {
        let parts = (&*self.workspaces, &self.turns, &self.reviews);
        hook::open(parts, call, pid).await
    }

    /// A CLI's pre-edit hook in the turn mode: the edit's files recorded for the turn's
    /// review, nothing asked (`hook::record_only`).
    pub async fn hook_record(&self, call: HookCall) {
        hook::record_only(&self.workspaces, &self.turns, call).await
    }

    /// A CLI's prompt hook: its turn begins, the workspace checkpointed (`turn_start::begin`).
    pub async fn turn_start(&self, call: HookCall) -> TurnBegun {
        turn_start::begin(&self.workspaces, &self.checkpoints, &call).await
    }

    /// The user answered a turn's review (`whole`: the whole turn's): after a Continue the
    /// next turn begins.
    pub async fn turn_answered(&self, call: &HookCall, ruling: &TurnRuling, whole: bool) {
        let parts = (&*self.workspaces, &self.checkpoints);
        turn_start::answered(parts, call, ruling, whole).await
    }

    /// The turns of the workspace holding `dir`, newest first (`turn_history::list`).
    pub async fn turns_list(&self, dir: &std::path::Path) -> Result<Vec<TurnSummary>> {
        turn_history::list(&self.workspaces, &self.checkpoints, dir).await
    }

    /// The newest `n` turns of the workspace holding `dir` (`turn_history::recent`).
    pub async fn turns_recent(&self, dir: &std::path::Path, n: usize) -> Result<Vec<TurnSummary>> {
        turn_history::recent(&self.workspaces, &self.checkpoints, dir, n).await
    }

    /// Turn `id`'s unified diff (`turn_history::show`).
    pub async fn turns_show(
        &self,
        dir: &std::path::Path,
        id: u64,
        path: Option<String>,
    ) -> Result<String> {
        let parts = (&*self.workspaces, &*self.checkpoints);
        turn_history::show(parts, dir, id, path).await
    }

    /// Undoes turn `id`, or what `picks` name of it (`turn_history::undo`).
    pub async fn turns_undo(
        &self,
        dir: &std::path::Path,
        id: u64,
        picks: Vec<String>,
    ) -> Result<TurnUndone> {
        let parts = (&*self.workspaces, &*self.checkpoints);
        turn_history::undo(parts, dir, id, picks).await
    }

    /// Review `id`'s diff, a whole turn's included (`turn_view::show`).
    pub async fn review_show(&self, id: ReviewId) -> Result<String> {
        turn_view::show((&self.reviews, &self.checkpoints), id).await
    }

    /// The files the turn `target` names lists (`turn_view::files`).
    pub async fn turn_files(&self, target: TurnTarget) -> Result<crate::api::turns::TurnFiles> {
        turn_view::files(self.turn_parts(), target).await
    }

    /// One file of the turn `target` names, opened (`turn_view::file`).
    pub async fn turn_file(
        &self,
        target: TurnTarget,
        path: std::path::PathBuf,
    ) -> Result<crate::api::turns::TurnFileView> {
        turn_view::file(self.turn_parts(), target, path).await
    }

    /// Undoes what `picks` name of the turn `target` names (`turn_view::undo`).
    pub async fn turn_undo(
        &self,
        target: TurnTarget,
        picks: Vec<crate::api::turns::TurnPick>,
    ) -> Result<TurnUndone> {
        turn_view::undo(self.turn_parts(), target, picks).await
    }

    /// The Turns view's rows: every served workspace's kept turns, newest first.
    pub async fn turns_history(&self) -> Vec<crate::api::turns::HistoryTurn> {
        turn_view::history(&self.workspaces, &self.checkpoints).await
    }

    fn turn_parts(&self) -> turn_view::Parts<'_> {
        (&self.reviews, &self.workspaces, &self.checkpoints)
    }

    /// A checkpoint of the workspace holding `dir`, now.
    pub async fn turns_checkpoint(&self, dir: &std::path::Path) -> Result<Checkpointed> {
        turn_history::checkpoint(&self.workspaces, &self.checkpoints, dir).await
    }

    /// Opens the review of the turn a CLI's end-of-turn hook ends (`turn::review`), once the
    /// turn's checkpoint is taken (`turn_start::end`).
    pub async fn turn_review(
        &self,
        call: HookCall,
        pid: Option<u32>,
    ) -> Result<turn::TurnWaiting, TurnRuling> {
        let ended = turn_start::end(&self.checkpoints, &call).await;
        let Some(ended) = ended else {
            let parts = (&*self.workspaces, &self.turns, &self.reviews);
            return turn::review(parts, call, pid).await;
        };
        let parts = (&*self.workspaces, &self.turns, &*self.checkpoints);
        turn::review_whole(parts, call, pid, ended).await
    }

    /// Opens `redline propose`'s review (`local::propose`).
    pub async fn propose_local(
        &self,
        p: local::Propose,
        pid: Option<u32>,
    ) -> Result<local::Opened> {
        local::propose(&self.workspaces, &self.reviews, p, pid).await
    }

    /// Opens `redline diff`'s reviews (`local::diff`).
    pub async fn diff_local(&self, d: local::Diff, pid: Option<u32>) -> Result<local::Opened> {
        local::diff(&self.workspaces, &self.reviews, d, pid).await
    }

    /// Applies one editor message. `owner` is the editor channel, or none for a one-shot command.
    pub async fn editor_message(&self, owner: Owner, message: Message) -> Result<Applied> {
        let parts = (&*self.workspaces, &self.reviews);
        (self.editors)
            .message(parts, owner, message, || self.request_show())
            .await
    }

    /// The editor channel `owner` closed: what it said goes from every workspace.
    pub async fn editor_closed(&self, owner: u64) {
        self.editors.closed(owner, &self.workspaces).await
    }

    /// "Ask about this part": lines `a..=b` (0-based) of review `id` go to the CLI session that
    /// proposed it, through its workspace's service, if its protocol can take a mention.
    pub async fn mention(&self, id: ReviewId, a: u32, b: u32) -> Result<()> {
        let review = self.reviews.review(id)?;
        self.workspaces.mention(&review, a, b).await
    }

    /// The user's selection in review `id`: kept for the CLIs that ask for it and sent to the
    /// session that proposed it, if its protocol follows a selection.
    pub async fn select(&self, id: ReviewId, sel: Selection) -> Result<()> {
        let review = self.reviews.review(id)?;
        self.workspaces.select(&review, sel).await
    }

    /// The user's decision on review `id`: settled here, or sent to the machine it is on.
    pub async fn decide(&self, id: ReviewId, decision: Decision) -> Result<()> {
        deciding::decide((&self.reviews, &self.remotes), id, decision).await
    }

    /// The other machines whose reviews this one shows.
    pub fn remotes(&self) -> &Remotes {
        &self.remotes
    }

    /// Stops every server and removes every discovery file.
    pub async fn shutdown(&self) {
        self.remotes.stop_all();
        self.codex.stop().await;
        self.workspaces.stop_all().await;
    }
}
