//! The page's commands: `call`, the one door for every action the page may ask (the action
//! list's `Page` ones, `surfaces::action`), passed on to the core as they are and answered as
//! the core wrote them (JSON); and the window's own, which act on this window (hide it, close
//! it) or on the user's screen (the folder dialog) before they ask the core. Errors as
//! `{code, message}`.

use crate::visibility::Visibility;
use crate::{queue, view};
use redline_core::api::fault::Fault;
use redline_core::runtime::window::link::Link;
use redline_core::surfaces::action::{Call, Reach, RejectAll, WorkspaceAdd};
use redline_core::surfaces::menu;
use redline_core::FaultCode;
use serde_json::Value;
use std::path::PathBuf;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;

type Core<'a> = State<'a, Link>;
type Answer<T = ()> = Result<T, Fault>;

/// A page action (`action`: its wire name, `request`: its fields), carried out by the core.
#[tauri::command]
pub async fn call(core: Core<'_>, action: String, request: Value) -> Answer<Value> {
    core.forward(page_call(&action, request)?).await
}

/// The page's request as the action it names; refused unless the page may ask it.
fn page_call(action: &str, request: Value) -> Answer<Call> {
    let mut fields = match request {
        Value::Object(fields) => fields,
        _ => serde_json::Map::new(),
    };
    fields.insert("cmd".into(), Value::String(action.to_owned()));
    let refused = |message: String| Fault {
        code: FaultCode::BadRequest,
        message,
    };
    let call: Call = serde_json::from_value(Value::Object(fields))
        .map_err(|e| refused(format!("the review window asked `{action}` wrongly: {e}")))?;
    if call.reach() != Reach::Page {
        return Err(refused(format!("`{action}` is not the page's to ask")));
    }
    Ok(call)
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
        code: FaultCode::Window,
        message: e.to_string(),
    })
}

/// The answer to "close the window with reviews pending?": reject them, or keep them pending.
#[tauri::command]
pub async fn window_close_answer(core: Core<'_>, app: AppHandle, reject_pending: bool) -> Answer {
    if reject_pending {
        core.call(RejectAll {}).await?;
    }
    hide(&app, None).await
}

/// Picks a folder here, on the user's screen, and has the core add it as a workspace; `None`
/// if the user cancelled. The tray hears of it from the core. The dialog opens beside `near`
/// (the page's newest workspace), else in the home folder.
#[tauri::command]
pub async fn workspace_add(
    core: Core<'_>,
    app: AppHandle,
    near: Option<PathBuf>,
) -> Answer<Option<String>> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let mut dialog = app.dialog().file().set_title("Add a workspace");
    if let Some(start) = menu::add_workspace_folder(near.as_deref(), app.path().home_dir().ok()) {
        dialog = dialog.set_directory(start);
    }
    dialog.pick_folder(move |folder| {
        let _ = tx.send(folder);
    });
    let Ok(Some(folder)) = rx.await else {
        return Ok(None);
    };
    let path = folder.into_path().map_err(|e| Fault {
        code: FaultCode::BadPath,
        message: format!("the folder picked cannot be a workspace: {e}"),
    })?;
    let added = core.call(WorkspaceAdd { path, force: false }).await?;
    Ok(Some(added.to_string_lossy().into_owned()))
}
