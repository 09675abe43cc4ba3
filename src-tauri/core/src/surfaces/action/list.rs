//! The one list of actions: each line a request (its wire name, its fields) and its reply.
//! `bridge` marks what a desktop may ask of a remote instance (`runtime::remote`).
//! Adding an action is a line here, its `Handle` impl in `runtime/action.rs`, and, for a `Page`
//! action, the page's use of the generated client function (docs/architecture.md).

use super::declare::actions;
use crate::api::remote_info::RemoteInfo;
use crate::api::status::{ContainersOn, Pin, Status};
use crate::api::turns::{
    Checkpointed, HistoryTurn, TurnAsked, TurnFileView, TurnFiles, TurnPick, TurnSummary,
    TurnUndone,
};
use crate::doctor::Welcome;
use crate::review::comment::Comment;
use crate::review::editor::Message;
use crate::review::selection::Selection;
use crate::review::{Detail, ReviewId, Summary};
use crate::workspace::config::WorkspaceEntry;
use crate::workspace::container::RunArgs;
use crate::workspace::remote_entry::RemoteEntry;
use crate::workspace::settings::Settings;
use std::path::PathBuf;

actions! {
    /// Every pending review, as the review window shows it.
    Page bridge "reviewsList" ReviewsList {} -> Vec<Detail>;
    /// The user's edits, made against proposal `revision` (a newer one refuses them:
    /// `superseded`).
    Page bridge "reviewUpdate" ReviewUpdate {
        #[ts(type = "number")] id: ReviewId,
        #[ts(type = "number")] revision: u64,
        content: String,
    } -> ();
    /// `content`: the edited text; `None` accepts as proposed. `revision`: the proposal the
    /// edits were made against (the window always names it; a command accepts the latest).
    Page bridge "reviewAccept" ReviewAccept {
        #[ts(type = "number")] id: ReviewId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(type = "number | null")]
        revision: Option<u64>,
        content: Option<String>,
    } -> ();
    /// `reason`: why, for whoever asked (where its protocol carries it); absent, a plain
    /// rejection.
    Page bridge "reviewReject" ReviewReject {
        #[ts(type = "number")] id: ReviewId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
        /// Comments on lines of the diff, sent before the reason (`review::comment::message`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        comments: Option<Vec<Comment>>,
    } -> ();
    /// The one message a reject (or a turn's Continue) with these comments and `reason` sends
    /// (`review::comment::compose`), for the user to copy as a prompt where the review's CLI
    /// hears no reason; `None`: nothing to say. Too long a part is refused as in a reject.
    Page bridge "commentsMessage" CommentsMessage {
        comments: Vec<Comment>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    } -> Option<String>;
    /// Opens the file at `line` (1-based, in the file on disk) in the user's editor, on the
    /// core's machine.
    Page "reviewOpenInEditor" ReviewOpenInEditor {
        #[ts(type = "number")] id: ReviewId,
        line: u32,
    } -> ();
    /// Whether the file changed on disk since the review opened.
    Page bridge "reviewDiskChanged" ReviewDiskChanged { #[ts(type = "number")] id: ReviewId } -> bool;
    /// "Ask about this part": the lines go to the CLI that opened the review.
    Page "reviewMention" ReviewMention {
        #[ts(type = "number")] id: ReviewId,
        line_start: u32,
        line_end: u32,
    } -> ();
    Page "reviewSelect" ReviewSelect {
        #[ts(type = "number")] id: ReviewId,
        selection: Selection,
    } -> ();
    /// The page painted a review (the core logs how long it took).
    Page bridge "reviewShown" ReviewShown { #[ts(type = "number")] id: ReviewId } -> ();
    /// The files turn review `id` lists (a whole turn's review: `turnId` set).
    Page bridge "turnFiles" TurnFilesGet { #[ts(type = "number")] id: ReviewId } -> TurnFiles;
    /// One file of turn review `id`, opened: its text at the start and now, and its hunks.
    Page bridge "turnFile" TurnFileGet { #[ts(type = "number")] id: ReviewId, path: PathBuf } -> TurnFileView;
    /// Undoes what `picks` name of turn review `id` (empty: every file), back to the turn's
    /// start; refused, writing nothing, when a file is no longer what the review shows.
    Page bridge "turnUndo" TurnUndo {
        #[ts(type = "number")] id: ReviewId,
        picks: Vec<TurnPick>,
    } -> TurnUndone;
    /// The Turns view: every served workspace's kept turns, newest first (the newest
    /// `HISTORY_PER_WORKSPACE` of each).
    Page "turnsHistory" TurnsHistory {} -> Vec<HistoryTurn>;
    /// `turnFiles` of a past turn: turn `turn` of the workspace `workspace` (a Turns row).
    Page "pastTurnFiles" PastTurnFiles {
        workspace: PathBuf,
        #[ts(type = "number")] turn: u64,
    } -> TurnFiles;
    /// `turnFile` of a past turn.
    Page "pastTurnFile" PastTurnFile {
        workspace: PathBuf,
        #[ts(type = "number")] turn: u64,
        path: PathBuf,
    } -> TurnFileView;
    /// `turnUndo` of a past turn: each file that is still what the turn left is undone (whole
    /// or by the hunks picked), each other one named and left (`partly`).
    Page "pastTurnUndo" PastTurnUndo {
        workspace: PathBuf,
        #[ts(type = "number")] turn: u64,
        picks: Vec<TurnPick>,
    } -> TurnUndone;
    /// The past turn the tray asked the window to open, taken (`None`: none asked since).
    Page "turnAsked" TurnAskedGet {} -> Option<TurnAsked>;
    Page "settingsGet" SettingsGet {} -> Settings;
    Page "settingsSet" SettingsSet { settings: Settings } -> ();
    /// The welcome page's live check: what `redline doctor` says for the newest workspace.
    Page "welcome" WelcomeGet {} -> Welcome;

    /// Closing the window with reviews pending, and the user chose to reject them.
    Window "rejectAll" RejectAll {} -> ();
    /// A folder to add as a workspace (the window's own dialog picked it, or a command named
    /// it); `force` adds `/`, the home folder or a folder around other workspaces too.
    Window bridge "workspaceAdd" WorkspaceAdd {
        path: PathBuf,
        #[serde(default)]
        force: bool,
    } -> PathBuf;

    Control "status" StatusGet {} -> Status;
    Control bridge "workspaceRemove" WorkspaceRemove { path: PathBuf } -> PathBuf;
    Control bridge "workspaceEnable" WorkspaceEnable { path: PathBuf, enabled: bool } -> ();
    Control bridge "workspaceList" WorkspaceList {} -> Vec<WorkspaceEntry>;
    /// The pending reviews as `redline review list` prints them: no texts, which the window's
    /// `reviewsList` carries and a command does not need.
    Control "reviewSummaries" ReviewSummaries {} -> Vec<Summary>;
    /// A unified diff of the review's original and current text.
    Control "reviewShow" ReviewShow { id: ReviewId } -> String;
    /// The next review (of `file`, if named), waiting up to `timeout_ms`.
    Control "reviewWait" ReviewWait { file: Option<String>, timeout_ms: u64 } -> Summary;
    Control "tokenRotate" TokenRotate { path: PathBuf } -> ();
    Control "pin" PinGet { path: PathBuf } -> Pin;
    Control "containerEnable" ContainerEnable {
        path: PathBuf,
        address: Option<std::net::Ipv4Addr>,
    } -> ContainersOn;
    Control "containerDisable" ContainerDisable { path: PathBuf } -> PathBuf;
    Control "containerArgs" ContainerArgs {
        path: PathBuf,
        container_path: Option<String>,
        home: String,
    } -> RunArgs;
    /// Show the review window (a second `redline` launch reaching the running one); true if a
    /// window was attached to take it.
    Control "show" WindowShow {} -> bool;
    /// One editor message from a one-shot command (`redline mention`, `redline context`).
    Control "editorSend" EditorSend { message: Message } -> ();
    /// The turns of the workspace holding `dir`, newest first, each with the files it changed.
    Control "turnsList" TurnsList { dir: PathBuf } -> Vec<TurnSummary>;
    /// Turn `id`'s unified diff (git style), of `path` alone if named (relative to the
    /// workspace's root, or absolute).
    Control "turnsShow" TurnsShow { dir: PathBuf, id: u64, path: Option<String> } -> String;
    /// Undoes turn `id`: whole when `picks` is empty, else each `PATH` whole and each
    /// `PATH:LINE` by the hunk covering LINE (1-based, in the file as the turn left it).
    Control "turnsUndo" TurnsUndo { dir: PathBuf, id: u64, picks: Vec<String> } -> TurnUndone;
    /// A checkpoint of the workspace holding `dir`, now.
    Control "turnsCheckpoint" TurnsCheckpoint { dir: PathBuf } -> Checkpointed;
    /// Adds a remote machine (`redline remote add`): its reviews are shown here from then on.
    Control "remoteAdd" RemoteAdd { remote: RemoteEntry } -> RemoteInfo;
    /// Removes a remote: its link ends and its reviews here go (they wait on there).
    Control "remoteRemove" RemoteRemove { name: String } -> ();
    /// An action of another machine's Redline, asked over its link (`redline remote workspace`):
    /// only what it marks `bridge` is done there; its reply as it gave it.
    Control "remoteAsk" RemoteAsk { name: String, call: Box<Call> } -> serde_json::Value;
    /// Each remote, its link's state and its reviews waiting here.
    Control "remoteList" RemoteList {} -> Vec<RemoteInfo>;
    Control "quit" Quit {} -> ();
}
