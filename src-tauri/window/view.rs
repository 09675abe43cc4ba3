//! The review window itself: made hidden when the process starts (its page loads while nothing is
//! shown, so a review pops up warm), shown and hidden as asked, and the core told of each.

use crate::idle::Idle;
use crate::queue;
use crate::visibility::Visibility;
use redline_core::runtime::window::link::Link;
use redline_core::runtime::window::message::Up;
use tauri::{
    webview::PageLoadEvent, AppHandle, Emitter, Manager, WebviewUrl, WebviewWindow,
    WebviewWindowBuilder, Window, WindowEvent,
};

pub const LABEL: &str = "review";

/// Under WebDriver the window stays for good: a test drives one process from start to end.
pub fn under_automation() -> bool {
    std::env::var_os("TAURI_WEBVIEW_AUTOMATION").is_some()
}

/// Makes the window, hidden and unfocused; its page starts loading at once.
pub fn make(app: &AppHandle) -> tauri::Result<WebviewWindow> {
    if let Some(w) = app.get_webview_window(LABEL) {
        return Ok(w);
    }
    // Where a cold pop-up's time goes: making the window, then loading its page (bench/window).
    let made = std::time::Instant::now();
    let w = WebviewWindowBuilder::new(app, LABEL, WebviewUrl::App("index.html".into()))
        .title("Redline")
        .inner_size(1280.0, 820.0)
        .min_inner_size(640.0, 400.0)
        .visible(false)
        .focused(false)
        // The page names itself (ui/src/title.ts): the welcome page or the review.
        .on_document_title_changed(|w, title| {
            let _ = w.set_title(&title);
        })
        .on_page_load(move |w, payload| {
            if payload.event() == PageLoadEvent::Finished {
                let ms = made.elapsed().as_millis() as u64;
                tracing::info!(ms, "review window loaded");
                // Again after a reload (a crashed web process): the core counts the window as
                // able to show a review only from here.
                let link = w.state::<Link>().inner().clone();
                tauri::async_runtime::spawn(async move { link.note(Up::Ready).await });
            }
        })
        .build()?;
    lean(&w);
    realize(&w);
    crate::web_process::revive_on_crash(&w);
    let ms = made.elapsed().as_millis() as u64;
    tracing::info!(ms, "review window made");
    Ok(w)
}

/// One local page needs none of WebKit's browsing caches: the smallest cache model and no
/// back/forward cache keep the web process's memory down.
#[cfg(target_os = "linux")]
fn lean(w: &WebviewWindow) {
    let _ = w.with_webview(|webview| {
        use webkit2gtk::{CacheModel, SettingsExt, WebContextExt, WebViewExt};
        let view = webview.inner();
        if let Some(context) = view.context() {
            context.set_cache_model(CacheModel::DocumentViewer);
        }
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_enable_page_cache(false);
        }
    });
}

#[cfg(not(target_os = "linux"))]
fn lean(_: &WebviewWindow) {}

/// Makes the window's native resources (the X window, its surfaces) without mapping it, so its
/// first show only maps it. On the main thread: GTK may only be touched from its loop's thread.
#[cfg(target_os = "linux")]
fn realize(w: &WebviewWindow) {
    let window = w.clone();
    let _ = w.run_on_main_thread(move || {
        use gtk::prelude::WidgetExt;
        if let Ok(gtk_window) = window.gtk_window() {
            gtk_window.realize();
        }
    });
}

#[cfg(not(target_os = "linux"))]
fn realize(_: &WebviewWindow) {}

/// Shows the window; with `focus`, it also takes the keyboard.
pub async fn show(app: &AppHandle, focus: bool) {
    let w = match make(app) {
        Ok(w) => w,
        Err(e) => {
            tracing::error!("cannot open the review window: {e}");
            return;
        }
    };
    app.state::<Idle>().stir();
    let visibility = app.state::<Visibility>();
    let mut state = visibility.lock().await;
    let _ = w.unminimize();
    // Built with `focused(false)`, the window does not take focus when it maps, so typing in
    // the terminal is never stolen; only `focus` asks for it.
    let _ = w.show();
    if focus {
        let _ = w.set_focus();
    }
    state.showing();
    app.state::<Link>()
        .note(Up::Visible { visible: true })
        .await;
}

/// Hides the window, unless it was shown again after `mark` (see `Visibility::mark`); the idle
/// countdown starts again from now.
pub async fn hide(app: &AppHandle, mark: Option<u64>) -> tauri::Result<()> {
    let Some(w) = app.get_webview_window(LABEL) else {
        return Ok(());
    };
    let visibility = app.state::<Visibility>();
    let mut state = visibility.lock().await;
    if !state.may_hide(mark) {
        return Ok(());
    }
    w.hide()?;
    state.shown = false;
    app.state::<Link>()
        .note(Up::Visible { visible: false })
        .await;
    drop(state);
    app.state::<Idle>().stir();
    Ok(())
}

/// Closing hides the window. With reviews pending the page asks first (reject them, or keep
/// them in the tray) and answers with `window_close_answer`.
pub fn on_event(window: &Window, event: &WindowEvent) {
    if let WindowEvent::CloseRequested { api, .. } = event {
        api.prevent_close();
        let app = window.app_handle().clone();
        tauri::async_runtime::spawn(async move {
            let mark = app.state::<Visibility>().mark().await;
            if queue::is_empty(&app).await {
                let _ = hide(&app, Some(mark)).await;
            } else {
                let _ = app.emit_to(LABEL, "close-requested", ());
            }
        });
    }
}
