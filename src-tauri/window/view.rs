//! The review window: made hidden when a CLI connects (or, at the latest, for the first review)
//! and kept while in use, so reviews pop up warm; after a long idle spell hidden it is destroyed
//! to give back WebKit's memory.

use redline_core::runtime::instance::Instance;
use redline_core::workspace::settings::PopupMode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tauri::{
    webview::PageLoadEvent, AppHandle, Emitter, Manager, WebviewUrl, WebviewWindow,
    WebviewWindowBuilder, Window, WindowEvent,
};

pub const LABEL: &str = "review";

/// How long a hidden, idle window is kept before its web processes are let go
/// (`REDLINE_WINDOW_IDLE_SECS` overrides it, for benchmarks and users who want it sooner).
fn reclaim_after() -> Duration {
    let secs = std::env::var("REDLINE_WINDOW_IDLE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10 * 60);
    Duration::from_secs(secs)
}

/// Counts shows and hides, so a reclaim scheduled before the window came back is void.
#[derive(Default)]
pub struct Visibility(AtomicU64);

/// WebDriver attaches to the first webview there is: under automation it must exist from the
/// start (and stay).
pub fn under_automation() -> bool {
    std::env::var_os("TAURI_WEBVIEW_AUTOMATION").is_some()
}

pub fn ensure(app: &AppHandle) -> tauri::Result<WebviewWindow> {
    if let Some(w) = app.get_webview_window(LABEL) {
        return Ok(w);
    }
    // Where a cold pop-up's time goes: making the window, then loading its page (bench/window).
    let made = std::time::Instant::now();
    let w = WebviewWindowBuilder::new(app, LABEL, WebviewUrl::App("index.html".into()))
        .title("Redline — review")
        .inner_size(1280.0, 820.0)
        .min_inner_size(640.0, 400.0)
        .visible(false)
        .focused(false)
        .on_page_load(move |_, payload| {
            if payload.event() == PageLoadEvent::Finished {
                let ms = made.elapsed().as_millis() as u64;
                tracing::info!(ms, "review window loaded");
            }
        })
        .build()?;
    lean(&w);
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
/// first show only maps it. On the main thread: `prepare` runs on a runtime worker, and GTK may
/// only be touched from the thread that runs its loop.
#[cfg(target_os = "linux")]
fn realize(w: &WebviewWindow) {
    let window = w.clone();
    let _ = w.run_on_main_thread(move || {
        use gtk::prelude::WidgetExt;
        if let Ok(gtk_window) = window.gtk_window() {
            debug_assert!(
                gtk::is_initialized_main_thread(),
                "GTK touched off its loop's thread"
            );
            gtk_window.realize();
        }
    });
}

#[cfg(not(target_os = "linux"))]
fn realize(_: &WebviewWindow) {}

/// Shows the window; with `focus`, it also takes the keyboard.
pub fn show(app: &AppHandle, focus: bool) {
    let w = match ensure(app) {
        Ok(w) => w,
        Err(e) => {
            tracing::error!("cannot open the review window: {e}");
            return;
        }
    };
    app.state::<Visibility>().0.fetch_add(1, Ordering::SeqCst);
    let _ = w.unminimize();
    // Built with `focused(false)`, the window does not take focus when it maps, so typing in
    // the terminal is never stolen; only `focus` asks for it.
    let _ = w.show();
    if focus {
        let _ = w.set_focus();
    }
}

/// A CLI connected, so a review may follow: the window is made now, hidden and unfocused, and
/// its page loads while the CLI works, so the first review pops up warm. Nothing shows until a
/// review does. Unused, it is released after the idle spell like a hidden one.
pub fn prepare(app: &AppHandle) {
    if app.get_webview_window(LABEL).is_some() {
        return;
    }
    match ensure(app) {
        Ok(w) => realize(&w),
        Err(e) => {
            tracing::warn!("cannot prepare the review window: {e}");
            return;
        }
    }
    tracing::info!("a CLI connected: review window prepared, hidden");
    let seen = app.state::<Visibility>().0.load(Ordering::SeqCst);
    release_when_idle(app, seen);
}

/// Hides the window and schedules its reclaim.
pub fn hide(app: &AppHandle) -> tauri::Result<()> {
    let Some(w) = app.get_webview_window(LABEL) else {
        return Ok(());
    };
    w.hide()?;
    let seen = app.state::<Visibility>().0.fetch_add(1, Ordering::SeqCst) + 1;
    release_when_idle(app, seen);
    Ok(())
}

/// After the idle spell, destroys the window unless it was shown or hidden since (`seen` is the
/// visibility count now) or reviews are pending.
fn release_when_idle(app: &AppHandle, seen: u64) {
    if under_automation() {
        return;
    }
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(reclaim_after()).await;
        let idle = app.state::<Arc<Instance>>().reviews().list().is_empty();
        if idle && app.state::<Visibility>().0.load(Ordering::SeqCst) == seen {
            if let Some(w) = app.get_webview_window(LABEL) {
                if w.is_visible().unwrap_or(true) {
                    return;
                }
                tracing::info!("review window idle: releasing it until the next review");
                let _ = w.destroy();
                end_network_process();
            }
        }
    });
}

/// WebKit keeps its network process after the last webview goes (the web context lives as long
/// as the app): 18 MiB PSS, 62 MiB RSS for nothing (bench/window). Ended with the window: WebKit
/// starts a new one for the next window, as it does after a crash.
#[cfg(target_os = "linux")]
fn end_network_process() {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return;
    };
    let children = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok())
                .collect::<Vec<_>>()
        });
    for pid in children {
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        // Read from our own children a moment ago: for the pid to be another process now, this
        // one would have to end, be reaped and its pid be handed out again in between.
        if comm.trim_end() == "WebKitNetworkPr" {
            tracing::info!("ending WebKit's network process {pid} with the window");
            // SAFETY: kill(2) on our own child process; no memory is involved.
            unsafe { libc::kill(pid, libc::SIGTERM) };
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn end_network_process() {}

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
        let instance = window.state::<Arc<Instance>>();
        if instance.reviews().list().is_empty() {
            let _ = hide(window.app_handle());
        } else {
            let _ = window.emit_to(LABEL, "close-requested", ());
        }
    }
}
