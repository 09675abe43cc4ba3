//! The desktop app: a tray icon, the review window and the core's companion servers. It only
//! wires: the core's state and events to the tray and the window, their actions back to the core.
//! Empty without the `desktop` feature: the headless `redline` links no GUI library.

#![cfg(feature = "desktop")]

mod commands;
mod instance;
mod tray;
mod window;

use instance::instance;
use redline_core::platform::dirs::Dirs;
use redline_core::platform::stop::StopSignals;
use redline_core::review::{Resolved, ReviewEvent};
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::instance::World;
use redline_core::runtime::serving::Serving;
use redline_core::Error;
use tauri::async_runtime::{block_on, spawn};
use tauri::{AppHandle, Emitter, RunEvent};

/// Settles process-wide settings before any thread starts; call first thing in `main`.
pub fn prepare_process() {
    // WebKit's accelerated compositing renders a diff view no better but keeps GL buffers in the
    // web process (software GL without a GPU): off unless the user asked for it. Measured in
    // bench/window: the web process drops from ~300 to ~210 MB RSS.
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        // SAFETY: called before any other thread exists (see above).
        unsafe { std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1") };
        // Without compositing nothing in this process draws with GL, yet GTK initialises GL
        // (Mesa, LLVM) when it opens a display no GTK app has opened before, to pick visuals:
        // 25 MiB PSS held all day for nothing (bench/window, idle 87 -> 63 MiB).
        if std::env::var_os("GDK_GL").is_none() {
            // SAFETY: as above.
            unsafe { std::env::set_var("GDK_GL", "disable") };
        }
    }
}

/// Why the desktop app cannot open a window here, if it cannot: checked before Tauri would
/// initialise GTK, which panics with a backtrace without a display (over SSH, on a server).
fn display_problem() -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            return Some("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)".into());
        }
        if gtk::init().is_err() {
            return Some("cannot open the display".into());
        }
    }
    None
}

/// A second launch: the running instance shows its window. A headless one has none: that is an
/// error (nothing opened, and a launcher or script must not think the app is up), saying what to
/// do instead.
fn show_running(dirs: &Dirs) -> Result<(), Error> {
    let shown = block_on(control::call(dirs, &Request::Show))?;
    if shown != serde_json::Value::Bool(true) {
        return Err(Error::Refused(
            "a headless Redline (`redline serve --headless`) is running, so no window opened; \
             stop it with `redline quit` and run `redline` again, or use `redline review list`"
                .into(),
        ));
    }
    Ok(())
}

/// Runs the app until Quit. A second launch shows the running instance's window and returns.
pub fn run(dirs: Dirs) -> Result<(), Error> {
    // Without a display a running instance is still reachable; a new one would panic in GTK.
    if let Some(problem) = display_problem() {
        return match show_running(&dirs) {
            Err(Error::NotRunning) => Err(Error::NoDisplay(problem)),
            other => other,
        };
    }
    let serving = match block_on(Serving::start(&dirs, || World::os(dirs.clone()))) {
        Ok(s) => s,
        Err(Error::AlreadyRunning) => return show_running(&dirs),
        Err(e) => return Err(e),
    };
    let Serving { instance, signals } = serving;
    // Before any webview exists: the window's storage follows a changed bundle identifier.
    match redline_core::platform::bundle_id::carry_over(&std::env::vars().collect()) {
        Ok(Some(from)) => tracing::info!("window storage carried over from {}", from.display()),
        Ok(None) => {}
        Err(e) => tracing::warn!("window storage not carried over: {e}"),
    }

    // The first launch shows the welcome page, as a tray icon may have no host to show it (GNOME
    // without the AppIndicator extension); later launches start in the tray. Not remembered
    // (the config cannot be written): welcomed now, and the reason is logged.
    let welcome = block_on(instance.first_launch()).unwrap_or_else(|e| {
        tracing::warn!("the first launch's welcome is not remembered: {e}");
        true
    });

    let app = tauri::Builder::default()
        .plugin(tauri_plugin_autostart::init(
            tauri_plugin_autostart::MacosLauncher::LaunchAgent,
            None,
        ))
        .plugin(tauri_plugin_clipboard_manager::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .manage(instance.clone())
        .invoke_handler(tauri::generate_handler![
            commands::reviews_list,
            commands::review_update,
            commands::review_accept,
            commands::review_reject,
            commands::review_open_in_editor,
            commands::review_disk_changed,
            commands::review_mention,
            commands::review_select,
            commands::review_shown,
            commands::settings_get,
            commands::settings_set,
            commands::window_hide,
            commands::window_close_answer,
            commands::welcome,
            commands::workspace_add,
        ])
        .manage(window::Visibility::default())
        .setup(move |app| {
            if window::under_automation() {
                window::ensure(app.handle())?;
            }
            tray::create(app.handle())?;
            if welcome {
                window::show(app.handle(), true);
            }
            let handle = app.handle().clone();
            spawn(forward_reviews(handle.clone()));
            spawn(forward_show_requests(handle.clone()));
            spawn(prepare_on_connect(handle.clone()));
            spawn(exit_on_quit(handle, signals));
            Ok(())
        })
        .on_window_event(window::on_event)
        .build(tauri::generate_context!())
        .map_err(|e| Error::Control(format!("cannot start the desktop app: {e}")))?;
    say_started();

    app.run(move |_, event| match event {
        // Closing the window never quits a tray app; only Quit does.
        RunEvent::ExitRequested {
            code: None, api, ..
        } => api.prevent_exit(),
        RunEvent::Exit => block_on(instance.shutdown()),
        _ => {}
    });
    Ok(())
}

/// One line on the terminal that launched the app: it runs on, and where to find it. Not a
/// failure when nobody reads it (launched from a menu, stderr closed).
fn say_started() {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "redline: started; its menu is the Redline icon in the system tray (no tray? run \
         `redline` again to open its window; `redline quit` stops it)"
    );
}

/// The core's review events, to the window (as events) and the tray (as a rebuilt menu, only
/// when the pending count can change: edits pushed while typing must not rebuild it).
async fn forward_reviews(app: AppHandle) {
    let instance = instance(&app);
    let mut events = instance.reviews().subscribe();
    loop {
        match events.recv().await {
            Ok(ReviewEvent::Added(r)) => {
                let _ = app.emit("review-added", r.detail());
                window::pop_up(&app, instance.settings().await.popup);
            }
            Ok(ReviewEvent::Updated(r)) => {
                let _ = app.emit("review-updated", r.detail());
                continue;
            }
            Ok(ReviewEvent::Resolved { id, outcome, .. }) => {
                let _ = app.emit("review-resolved", Resolved { id, outcome });
            }
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        }
        tray::refresh(&app).await;
    }
}

async fn forward_show_requests(app: AppHandle) {
    let mut requests = instance(&app).show_requests();
    while requests.recv().await.is_ok() {
        window::show(&app, true);
    }
}

/// Each CLI session that starts (any workspace, any protocol) makes the review window ready,
/// hidden, if there is none: the review it may send pops up warm.
async fn prepare_on_connect(app: AppHandle) {
    let mut started = instance(&app).reviews().sessions_started();
    // Sessions that started before this task ran count too: they may send a review next.
    let mut seen = 0;
    loop {
        seen = match started.wait_for(|n| *n > seen).await {
            Ok(n) => *n,
            Err(_) => return,
        };
        window::prepare(&app);
    }
}

/// `redline quit`, the tray's Quit, SIGTERM and Ctrl+C all end the app the same way.
async fn exit_on_quit(app: AppHandle, mut signals: StopSignals) {
    let core = instance(&app);
    tokio::select! {
        _ = core.quit_requested() => {}
        _ = signals.recv() => {}
    }
    app.exit(0);
}
