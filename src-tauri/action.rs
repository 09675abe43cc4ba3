//! What a click on a tray menu item does: the core's calls, and the few things only the desktop
//! has (a folder picker, the clipboard, a file manager, the login item).

use crate::autostart;
use crate::main_thread::MainThread;
use redline_core::runtime::instance::Instance;
use redline_core::surfaces::menu::{self, Action};
use redline_core::{ControlFailure, Error, Result};
use rfd::{AsyncFileDialog, AsyncMessageDialog, MessageButtons, MessageDialogResult, MessageLevel};
use std::cell::RefCell;

pub async fn act(core: &Instance, main: &MainThread, action: Action) -> Result<()> {
    match action {
        // The launcher starts the window process if none runs, and it shows the reviews.
        Action::OpenReviews => {
            core.request_show();
        }
        // As Open reviews, the page then opening the turn in its Turns view (`turnAsked`).
        Action::OpenTurn { path, id } => {
            core.request_open_turn(path, id);
        }
        Action::ToggleWorkspace { path } => {
            let on = core
                .status()
                .await
                .workspaces
                .iter()
                .any(|w| w.path == path && w.port.is_some());
            core.workspaces().set_enabled(&path, !on).await?;
        }
        Action::ToggleContainers { path } => {
            let on = core
                .status()
                .await
                .workspaces
                .iter()
                .any(|w| w.path == path && w.containers.is_some());
            core.workspaces().set_containers(&path, !on, None).await?;
        }
        Action::AddWorkspace => add_workspace(core, main).await?,
        Action::RemoveWorkspace { path } => {
            core.workspaces().remove(&path).await?;
        }
        Action::CopyToken { path } => {
            let token = core.workspaces().token(&path).await?;
            main.run(move || copy(token))
                .await
                .unwrap_or_else(|| Err("Redline is quitting".into()))
                .map_err(|e| Error::Control(ControlFailure::Clipboard(e)))?;
        }
        Action::RotateToken { path } => {
            let question = format!(
                "Rotate the token of {}?\n\nCLIs connected to it must run /ide enable again.",
                path.display()
            );
            if confirm(main, "Rotate token", question, "Rotate").await {
                core.workspaces().rotate_token(&path).await?;
            }
        }
        Action::OpenFolder { path } => {
            // A file manager may take its time to start: not on a runtime thread.
            tokio::task::spawn_blocking(move || open::that(&path))
                .await
                .map_err(|e| Error::Control(ControlFailure::ActionStopped(e)))?
                .map_err(|e| Error::Control(ControlFailure::OpenFolder(e)))?;
        }
        Action::ToggleAutostart => {
            autostart::toggle().map_err(|e| Error::Control(ControlFailure::Autostart(e)))?;
        }
        Action::Quit => core.request_quit(),
        // On the store's blocking thread; the menu waits for nothing (a task per click).
        Action::CheckpointNow { path } => drop(core.turns_checkpoint(&path).await?),
    }
    Ok(())
}

/// Asks for a folder, beside the newest workspace (else at home), and adds it; nothing if the
/// user cancelled.
async fn add_workspace(core: &Instance, main: &MainThread) -> Result<()> {
    let status = core.status().await;
    let newest = status.workspaces.last().map(|w| w.path.as_path());
    let start = menu::add_workspace_folder(newest, Some(core.dirs().home.clone()));
    if let Some(folder) = pick_folder(main, start).await {
        core.workspaces().add(&folder, false).await?;
    }
    Ok(())
}

/// Asks for a folder; `None` if the user cancelled. The dialog is made where rfd wants it (the
/// main thread, as Tauri's dialog plugin made it) and awaited here.
async fn pick_folder(
    main: &MainThread,
    start: Option<std::path::PathBuf>,
) -> Option<std::path::PathBuf> {
    let picking = main
        .run(|| {
            let dialog = AsyncFileDialog::new().set_title("Add a workspace");
            match start {
                Some(folder) => dialog.set_directory(folder),
                None => dialog,
            }
            .pick_folder()
        })
        .await?;
    picking.await.map(|f| f.path().to_path_buf())
}

/// Asks a yes/no question; true for `yes`.
async fn confirm(main: &MainThread, title: &str, question: String, yes: &str) -> bool {
    let (title, yes_label) = (title.to_owned(), yes.to_owned());
    let buttons = MessageButtons::OkCancelCustom(yes_label.clone(), "Cancel".into());
    let Some(asking) = main
        .run(move || {
            AsyncMessageDialog::new()
                .set_level(MessageLevel::Info)
                .set_title(title)
                .set_description(question)
                .set_buttons(buttons)
                .show()
        })
        .await
    else {
        return false;
    };
    // GTK answers Ok for a custom yes; Windows and macOS name the button.
    match asking.await {
        MessageDialogResult::Ok | MessageDialogResult::Yes => true,
        MessageDialogResult::Custom(label) => label == yes_label,
        _ => false,
    }
}

/// Says what went wrong in a dialog: a tray click has no other place to answer.
pub async fn error(main: &MainThread, message: String) {
    tracing::warn!("tray: {message}");
    let shown = main
        .run(move || {
            AsyncMessageDialog::new()
                .set_level(MessageLevel::Error)
                .set_title("Redline")
                .set_description(message)
                .set_buttons(MessageButtons::Ok)
                .show()
        })
        .await;
    if let Some(shown) = shown {
        shown.await;
    }
}

thread_local! {
    /// The clipboard, kept for the process's life: on X11 and Wayland the copied text is served
    /// by its owner, so a dropped clipboard could take the token with it before it is pasted
    /// (arboard's documentation). Main thread only: it is not `Send` everywhere.
    static CLIPBOARD: RefCell<Option<arboard::Clipboard>> = const { RefCell::new(None) };
}

/// Puts `text` on the clipboard. Main thread.
fn copy(text: String) -> std::result::Result<(), String> {
    CLIPBOARD.with_borrow_mut(|held| {
        let clipboard = match held {
            Some(c) => c,
            None => held.insert(arboard::Clipboard::new().map_err(|e| e.to_string())?),
        };
        clipboard.set_text(text).map_err(|e| e.to_string())
    })
}
