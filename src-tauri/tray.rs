//! The tray icon and its menu, rebuilt from the core's menu model whenever the state changes;
//! clicks go back to the core as actions.

use crate::instance::instance;
use crate::window;
use redline_core::surfaces::menu::{self, Action, Item};
use std::path::Path;
use tauri::image::Image;
use tauri::menu::{
    CheckMenuItem, IsMenuItem, Menu, MenuEvent, MenuItem, PredefinedMenuItem, Submenu,
};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Wry};
use tauri_plugin_autostart::ManagerExt as _;
use tauri_plugin_clipboard_manager::ClipboardExt;
use tauri_plugin_dialog::{DialogExt, MessageDialogButtons};
use tauri_plugin_opener::OpenerExt;

const ID: &str = "redline";

/// The glyph the core picks for this OS; the panel is assumed dark unless
/// `REDLINE_TRAY_THEME=light` says otherwise.
fn icon(pending: bool) -> tauri::Result<(Image<'static>, bool)> {
    let light = std::env::var("REDLINE_TRAY_THEME").as_deref() == Ok("light");
    let (name, template) = menu::tray_icon(pending, light);
    let bytes: &[u8] = match name {
        "tray-template@2x.png" => include_bytes!("../icons/tray-template@2x.png"),
        "tray-pending-template@2x.png" => include_bytes!("../icons/tray-pending-template@2x.png"),
        "tray-light@2x.png" => include_bytes!("../icons/tray-light@2x.png"),
        "tray-pending-light@2x.png" => include_bytes!("../icons/tray-pending-light@2x.png"),
        "tray-pending-dark@2x.png" => include_bytes!("../icons/tray-pending-dark@2x.png"),
        _ => include_bytes!("../icons/tray-dark@2x.png"),
    };
    Ok((Image::from_bytes(bytes)?, template))
}

pub fn create(app: &AppHandle) -> tauri::Result<TrayIcon> {
    let items = tauri::async_runtime::block_on(model(app));
    let (image, template) = icon(false)?;
    TrayIconBuilder::with_id(ID)
        .icon(image)
        .icon_as_template(template)
        .tooltip("Redline")
        .menu(&build(app, &items)?)
        .show_menu_on_left_click(true)
        .on_menu_event(on_click)
        .build(app)
}

/// The menu model for the current state.
pub async fn model(app: &AppHandle) -> Vec<Item> {
    let core = instance(app);
    let status = core.status().await;
    let mut hints = std::collections::HashMap::new();
    for w in &status.workspaces {
        if let Ok(t) = core.token(&w.path).await {
            hints.insert(w.path.clone(), menu::token_hint(&t));
        }
    }
    let autostart = app.autolaunch().is_enabled().unwrap_or(false);
    let pending = core.list();
    menu::tray(&status, &pending, autostart, |p: &Path| {
        hints.get(p).cloned()
    })
}

/// Rebuilds the menu and the icon (badged while reviews wait).
pub async fn refresh(app: &AppHandle) {
    let items = model(app).await;
    let pending = !instance(app).reviews().list().is_empty();
    let Some(tray) = app.tray_by_id(ID) else {
        return;
    };
    match build(app, &items) {
        Ok(m) => {
            let _ = tray.set_menu(Some(m));
        }
        Err(e) => tracing::warn!("tray menu: {e}"),
    }
    if let Ok((image, template)) = icon(pending) {
        let _ = tray.set_icon(Some(image));
        let _ = tray.set_icon_as_template(template);
    }
}

fn build(app: &AppHandle, items: &[Item]) -> tauri::Result<Menu<Wry>> {
    let built = entries(app, items)?;
    let refs: Vec<&dyn IsMenuItem<Wry>> = built.iter().map(|b| b.as_ref()).collect();
    Menu::with_items(app, &refs)
}

fn entries(app: &AppHandle, items: &[Item]) -> tauri::Result<Vec<Box<dyn IsMenuItem<Wry>>>> {
    let mut out: Vec<Box<dyn IsMenuItem<Wry>>> = Vec::new();
    for (n, item) in items.iter().enumerate() {
        match item {
            Item::Action { label, action } => out.push(Box::new(MenuItem::with_id(
                app,
                action.id(),
                label,
                true,
                None::<&str>,
            )?)),
            Item::Check {
                label,
                checked,
                action,
            } => out.push(Box::new(CheckMenuItem::with_id(
                app,
                action.id(),
                label,
                true,
                *checked,
                None::<&str>,
            )?)),
            Item::Note(label) => out.push(Box::new(MenuItem::with_id(
                app,
                format!("note-{n}-{label}"),
                label,
                false,
                None::<&str>,
            )?)),
            Item::Separator => out.push(Box::new(PredefinedMenuItem::separator(app)?)),
            Item::Submenu { label, items } => {
                let children = entries(app, items)?;
                let refs: Vec<&dyn IsMenuItem<Wry>> = children.iter().map(|b| b.as_ref()).collect();
                out.push(Box::new(Submenu::with_items(app, label, true, &refs)?));
            }
        }
    }
    Ok(out)
}

fn on_click(app: &AppHandle, event: MenuEvent) {
    let Some(action) = Action::from_id(event.id().as_ref()) else {
        return;
    };
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        if let Err(e) = act(&app, action).await {
            app.dialog()
                .message(e.to_string())
                .title("Redline")
                .kind(tauri_plugin_dialog::MessageDialogKind::Error)
                .show(|_| {});
        }
        refresh(&app).await;
    });
}

/// Asks for a folder and adds it as a workspace; `None` if the user cancelled.
pub async fn add_workspace(app: &AppHandle) -> redline_core::Result<Option<std::path::PathBuf>> {
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
    let path = folder
        .into_path()
        .map_err(|e| redline_core::Error::Control(e.to_string()))?;
    Ok(Some(instance(app).add_workspace(&path, false).await?))
}

async fn act(app: &AppHandle, action: Action) -> redline_core::Result<()> {
    let core = instance(app);
    match action {
        Action::OpenReviews => window::show(app, true),
        Action::ToggleWorkspace { path } => {
            let on = core
                .status()
                .await
                .workspaces
                .iter()
                .any(|w| w.path == path && w.port.is_some());
            core.set_enabled(&path, !on).await?;
        }
        Action::ToggleContainers { path } => {
            let on = core
                .status()
                .await
                .workspaces
                .iter()
                .any(|w| w.path == path && w.containers.is_some());
            core.set_containers(&path, !on, None).await?;
        }
        Action::AddWorkspace => {
            add_workspace(app).await?;
        }
        Action::RemoveWorkspace { path } => {
            core.remove_workspace(&path).await?;
        }
        Action::CopyToken { path } => {
            let token = core.token(&path).await?;
            app.clipboard()
                .write_text(token)
                .map_err(|e| redline_core::Error::Control(e.to_string()))?;
        }
        Action::RotateToken { path } => {
            let (tx, rx) = tokio::sync::oneshot::channel();
            app.dialog()
                .message(format!(
                    "Rotate the token of {}?\n\nCLIs connected to it must run /ide enable again.",
                    path.display()
                ))
                .title("Rotate token")
                .buttons(MessageDialogButtons::OkCancelCustom(
                    "Rotate".into(),
                    "Cancel".into(),
                ))
                .show(move |ok| {
                    let _ = tx.send(ok);
                });
            if rx.await.unwrap_or(false) {
                core.rotate_token(&path).await?;
            }
        }
        Action::OpenFolder { path } => {
            app.opener()
                .open_path(path.to_string_lossy(), None::<&str>)
                .map_err(|e| redline_core::Error::Control(e.to_string()))?;
        }
        Action::ToggleAutostart => {
            let launch = app.autolaunch();
            let result = if launch.is_enabled().unwrap_or(false) {
                launch.disable()
            } else {
                launch.enable()
            };
            result.map_err(|e| redline_core::Error::Control(e.to_string()))?;
        }
        Action::Quit => core.request_quit(),
    }
    Ok(())
}
