//! The review window: created hidden at start, shown as the user's popup setting says, and
//! never closed (hidden instead) so the next review appears at once.

use redline_core::settings::PopupMode;
use tauri::{
    AppHandle, Emitter, Manager, WebviewUrl, WebviewWindow, WebviewWindowBuilder, Window,
    WindowEvent,
};

pub const LABEL: &str = "review";

pub fn create(app: &AppHandle) -> tauri::Result<WebviewWindow> {
    WebviewWindowBuilder::new(app, LABEL, WebviewUrl::App("index.html".into()))
        .title("Redline — review")
        .inner_size(1280.0, 820.0)
        .min_inner_size(640.0, 400.0)
        .visible(false)
        .focused(false)
        .build()
}

/// Shows the window; with `focus`, it also takes the keyboard.
pub fn show(app: &AppHandle, focus: bool) {
    let Some(w) = app.get_webview_window(LABEL) else {
        return;
    };
    let _ = w.unminimize();
    if focus {
        let _ = w.show();
        let _ = w.set_focus();
    } else {
        // Typing in the terminal must never be stolen: shown, but not focusable while it appears.
        let _ = w.set_focusable(false);
        let _ = w.show();
        let _ = w.set_focusable(true);
    }
}

/// A review arrived: get the user's attention the way they chose.
pub fn pop_up(app: &AppHandle, mode: PopupMode) {
    match mode {
        PopupMode::Focus => show(app, true),
        PopupMode::NoFocus => show(app, false),
        PopupMode::TrayOnly => {}
    }
}

/// Closing hides the window. With reviews pending the page asks first (reject them, or keep
/// them in the tray) and answers with `window_close_answer`.
pub fn on_event(window: &Window, event: &WindowEvent) {
    if let WindowEvent::CloseRequested { api, .. } = event {
        api.prevent_close();
        let instance = window.state::<std::sync::Arc<redline_core::instance::Instance>>();
        if instance.reviews().list().is_empty() {
            let _ = window.hide();
        } else {
            let _ = window.emit_to(LABEL, "close-requested", ());
        }
    }
}
