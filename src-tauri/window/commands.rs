//! The review window's commands: each one a call into the core, errors as `{code, message}`.

use redline_core::api::fault::Fault;
use redline_core::doctor::Welcome;
use redline_core::review::selection::Selection;
use redline_core::review::Detail;
use redline_core::runtime::companion::Decision;
use redline_core::runtime::instance::Instance;
use redline_core::surfaces::editor_jump;
use redline_core::workspace::settings::Settings;
use std::sync::Arc;
use tauri::{AppHandle, State};

type Core<'a> = State<'a, Arc<Instance>>;
type Answer<T = ()> = Result<T, Fault>;

fn fault(e: redline_core::Error) -> Fault {
    Fault::from(&e)
}

#[tauri::command]
pub fn reviews_list(core: Core<'_>) -> Vec<Detail> {
    core.details()
}

#[tauri::command]
/// `revision` is the `ReviewDetail.revision` the edits were made against: once the CLI has
/// re-proposed the file, they are refused (`superseded`) rather than replacing its new proposal.
pub fn review_update(core: Core<'_>, id: u64, revision: u64, content: String) -> Answer {
    core.update(id, revision, content).map_err(fault)
}

#[tauri::command]
/// `content` is the edited text; `None` accepts as proposed (a read-only review takes no edits).
/// `revision` is the proposal the window showed: once the CLI has re-proposed, `superseded`.
pub async fn review_accept(
    core: Core<'_>,
    id: u64,
    revision: u64,
    content: Option<String>,
) -> Answer {
    core.decide(id, Decision::AcceptRevision { revision, content })
        .await
        .map_err(fault)
}

/// Opens the review's file at `line` (1-based, in the file on disk) in the settings' editor,
/// else `$VISUAL`/`$EDITOR`.
#[tauri::command]
pub async fn review_open_in_editor(core: Core<'_>, id: u64, line: u32) -> Answer {
    let review = core.review(id).map_err(fault)?;
    let editor = editor_jump::chosen(&core.settings().await, |k| std::env::var(k).ok());
    let terminals = editor_jump::Terminals::os(core.dirs().runtime.clone());
    editor_jump::open(&review, line, editor.as_deref(), &terminals).map_err(fault)
}

#[tauri::command]
pub async fn review_reject(core: Core<'_>, id: u64) -> Answer {
    core.decide(id, Decision::Reject).await.map_err(fault)
}

/// "Ask about this part": the lines go to the Claude Code that opened the review.
#[tauri::command]
pub async fn review_mention(core: Core<'_>, id: u64, line_start: u32, line_end: u32) -> Answer {
    core.mention(id, line_start, line_end).await.map_err(fault)
}

#[tauri::command]
pub async fn review_select(core: Core<'_>, id: u64, selection: Selection) -> Answer {
    core.select(id, selection).await.map_err(fault)
}

#[tauri::command]
pub fn review_disk_changed(core: Core<'_>, id: u64) -> Answer<bool> {
    core.disk_changed(id).map_err(fault)
}

/// The page painted a new review: log how long it took from the proposal's arrival.
#[tauri::command]
pub fn review_shown(core: Core<'_>, id: u64) {
    if let Some(ms) = core.since_added(id) {
        tracing::info!(review = id, ms, "review shown");
    }
}

#[tauri::command]
pub async fn settings_get(core: Core<'_>) -> Answer<Settings> {
    Ok(core.settings().await)
}

#[tauri::command]
pub async fn settings_set(core: Core<'_>, settings: Settings) -> Answer {
    core.set_settings(settings).await.map_err(fault)
}

/// The page has nothing left to show. A review that arrived meanwhile keeps the window up: the
/// page's request may be older than the backend's show.
#[tauri::command]
pub fn window_hide(core: Core<'_>, app: AppHandle) -> Answer {
    if !core.reviews().list().is_empty() {
        return Ok(());
    }
    hide(&app)
}

fn hide(app: &AppHandle) -> Answer {
    crate::window::hide(app).map_err(|e| Fault {
        code: "window".into(),
        message: e.to_string(),
    })
}

/// The answer to "close the window with reviews pending?": reject them, or keep them pending.
#[tauri::command]
pub async fn window_close_answer(core: Core<'_>, app: AppHandle, reject_pending: bool) -> Answer {
    if reject_pending {
        core.reject_all().await.map_err(fault)?;
    }
    hide(&app)
}

/// The welcome page's live check: what `redline doctor` says for the newest workspace.
#[tauri::command]
pub async fn welcome(core: Core<'_>) -> Answer<Welcome> {
    let config =
        redline_core::workspace::config::Config::load(&core.dirs().config_file()).map_err(fault)?;
    Ok(redline_core::doctor::welcome(core.status().await, config).await)
}

/// Picks a folder and adds it as a workspace; `None` if the user cancelled.
#[tauri::command]
pub async fn workspace_add(app: AppHandle) -> Answer<Option<String>> {
    let added = crate::tray::add_workspace(&app).await.map_err(fault)?;
    crate::tray::refresh(&app).await;
    Ok(added.map(|p| p.to_string_lossy().into_owned()))
}
