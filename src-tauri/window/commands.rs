//! The page's commands: each one a call over the window channel, its answer read back as the
//! page expects it, errors as `{code, message}`. Reviews and the welcome check go to the page as
//! the core wrote them (JSON), as the events do: the window only passes them on.

use crate::visibility::Visibility;
use crate::{queue, view};
use redline_core::api::fault::Fault;
use redline_core::review::selection::Selection;
use redline_core::runtime::window::link::Link;
use redline_core::runtime::window::message::Call;
use redline_core::workspace::settings::Settings;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;

type Core<'a> = State<'a, Link>;
type Answer<T = ()> = Result<T, Fault>;

/// Asks the core and reads its answer as `T`.
async fn ask<T: DeserializeOwned>(link: &Link, call: Call) -> Answer<T> {
    let value = link.call(call).await?;
    serde_json::from_value(value).map_err(|e| Fault {
        code: redline_core::FaultCode::Internal,
        message: format!("Redline answered the review window with something it cannot read: {e}"),
    })
}

#[tauri::command]
pub async fn reviews_list(core: Core<'_>) -> Answer<Vec<Value>> {
    ask(&core, Call::ReviewsList).await
}

/// `revision` is the `ReviewDetail.revision` the edits were made against: once the CLI has
/// re-proposed the file, they are refused (`superseded`) rather than replacing its new proposal.
#[tauri::command]
pub async fn review_update(core: Core<'_>, id: u64, revision: u64, content: String) -> Answer {
    ask(
        &core,
        Call::ReviewUpdate {
            id,
            revision,
            content,
        },
    )
    .await
}

/// `content` is the edited text; `None` accepts as proposed (a read-only review takes no edits).
#[tauri::command]
pub async fn review_accept(
    core: Core<'_>,
    id: u64,
    revision: u64,
    content: Option<String>,
) -> Answer {
    ask(
        &core,
        Call::ReviewAccept {
            id,
            revision,
            content,
        },
    )
    .await
}

/// Opens the review's file at `line` (1-based) in the user's editor: the core does, on its
/// machine, so the window never needs the workspace's files.
#[tauri::command]
pub async fn review_open_in_editor(core: Core<'_>, id: u64, line: u32) -> Answer {
    ask(&core, Call::ReviewOpenInEditor { id, line }).await
}

/// `reason`: why, for whoever asked (where its protocol carries it).
#[tauri::command]
pub async fn review_reject(core: Core<'_>, id: u64, reason: Option<String>) -> Answer {
    ask(&core, Call::ReviewReject { id, reason }).await
}

/// "Ask about this part": the lines go to the Claude Code that opened the review.
#[tauri::command]
pub async fn review_mention(core: Core<'_>, id: u64, line_start: u32, line_end: u32) -> Answer {
    ask(
        &core,
        Call::ReviewMention {
            id,
            line_start,
            line_end,
        },
    )
    .await
}

#[tauri::command]
pub async fn review_select(core: Core<'_>, id: u64, selection: Selection) -> Answer {
    ask(&core, Call::ReviewSelect { id, selection }).await
}

#[tauri::command]
pub async fn review_disk_changed(core: Core<'_>, id: u64) -> Answer<bool> {
    ask(&core, Call::ReviewDiskChanged { id }).await
}

/// The page painted a new review: the core logs how long it took from the proposal's arrival.
#[tauri::command]
pub async fn review_shown(core: Core<'_>, id: u64) -> Answer {
    ask(&core, Call::ReviewShown { id }).await
}

#[tauri::command]
pub async fn settings_get(core: Core<'_>) -> Answer<Settings> {
    ask(&core, Call::SettingsGet).await
}

#[tauri::command]
pub async fn settings_set(core: Core<'_>, settings: Settings) -> Answer {
    ask(&core, Call::SettingsSet { settings }).await
}

/// The page has nothing left to show. A review that arrived meanwhile keeps the window up: the
/// page's request may be older than the core's show, and the core's answer older than a show.
#[tauri::command]
pub async fn window_hide(app: AppHandle) -> Answer {
    let mark = app.state::<Visibility>().mark().await;
    if queue::is_empty(&app).await {
        hide(&app, Some(mark)).await?;
    }
    Ok(())
}

async fn hide(app: &AppHandle, mark: Option<u64>) -> Answer {
    view::hide(app, mark).await.map_err(|e| Fault {
        code: redline_core::FaultCode::Window,
        message: e.to_string(),
    })
}

/// The answer to "close the window with reviews pending?": reject them, or keep them pending.
#[tauri::command]
pub async fn window_close_answer(core: Core<'_>, app: AppHandle, reject_pending: bool) -> Answer {
    if reject_pending {
        ask::<()>(&core, Call::RejectAll).await?;
    }
    hide(&app, None).await
}

/// The welcome page's live check: what `redline doctor` says for the newest workspace.
#[tauri::command]
pub async fn welcome(core: Core<'_>) -> Answer<Value> {
    ask(&core, Call::Welcome).await
}

/// Picks a folder here, on the user's screen, and has the core add it as a workspace; `None`
/// if the user cancelled. The tray hears of it from the core.
#[tauri::command]
pub async fn workspace_add(core: Core<'_>, app: AppHandle) -> Answer<Option<String>> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Add a workspace")
        .pick_folder(move |folder| {
            let _ = tx.send(folder);
        });
    let Ok(Some(folder)) = rx.await else {
        return Ok(None);
    };
    let path = folder.into_path().map_err(|e| Fault {
        code: redline_core::FaultCode::BadPath,
        message: format!("the folder picked cannot be a workspace: {e}"),
    })?;
    let added: String = ask(&core, Call::WorkspaceAdd { path }).await?;
    Ok(Some(added))
}
