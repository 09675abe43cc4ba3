//! The window process from start to end: its environment, its link to the core, the Tauri app
//! that holds the review window, and the exit status the launcher reads.

use crate::{commands, events, idle, view, visibility};
use redline_core::platform::dirs::Dirs;
use redline_core::platform::stop::StopSignals;
use redline_core::runtime::window::link::{self, Event, Link};
use std::process::ExitCode;
use tauri::async_runtime::{block_on, spawn};
use tauri::{AppHandle, RunEvent};
use tokio::sync::mpsc::Receiver;

/// Runs the window until the core tells it to quit, the core goes, or it is idle long enough.
/// 0 for each of those; non-zero only when something failed, so the launcher can tell a crash
/// from a release.
pub fn main() -> ExitCode {
    prepare_process();
    init_logging();
    let (link, events, signals) = match connect() {
        Ok(started) => started,
        Err(code) => return code,
    };
    carry_over_storage();
    let app = match build(link, events, signals) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("redline-window: cannot start the review window: {e}");
            return ExitCode::from(1);
        }
    };
    let code = app.run_return(|_, event| {
        // Closing the window only hides it; the process ends on an explicit exit (with a code).
        if let RunEvent::ExitRequested {
            code: None, api, ..
        } = event
        {
            api.prevent_exit();
        }
    });
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// The display, the channel to the core and the stop signals, each said in one line when it
/// fails: `Err` is the exit status (2: nothing to show on, or no core; 1: a failure).
fn connect() -> Result<(Link, Receiver<Event>, StopSignals), ExitCode> {
    // Without a display GTK panics with a backtrace: one line instead.
    if let Some(problem) = crate::display::problem() {
        eprintln!("redline-window: {problem}");
        return Err(ExitCode::from(2));
    }
    let (link, events) = block_on(link::connect(&Dirs::from_env())).map_err(|e| {
        eprintln!("redline-window: cannot reach Redline ({e}); it is started by redline");
        ExitCode::from(2)
    })?;
    let signals = block_on(async { StopSignals::install() }).map_err(|e| {
        eprintln!("redline-window: cannot listen for stop signals: {e}");
        ExitCode::from(1)
    })?;
    Ok((link, events, signals))
}

/// Before any webview exists: the window's storage follows a changed bundle identifier.
fn carry_over_storage() {
    match redline_core::platform::bundle_id::carry_over(&std::env::vars().collect()) {
        Ok(Some(from)) => tracing::info!("window storage carried over from {}", from.display()),
        Ok(None) => {}
        Err(e) => tracing::warn!("window storage not carried over: {e}"),
    }
}

/// The Tauri app: the window's commands, and once set up its view, the core's events, the stop
/// signals and the idle countdown.
fn build(link: Link, events: Receiver<Event>, signals: StopSignals) -> tauri::Result<tauri::App> {
    tauri::Builder::default()
        // The welcome page's "Add a workspace" picks the folder here, on the user's screen.
        .plugin(tauri_plugin_dialog::init())
        .manage(link)
        .manage(visibility::Visibility::default())
        .manage(idle::Idle::default())
        .invoke_handler(tauri::generate_handler![
            commands::call,
            commands::window_hide,
            commands::window_close_answer,
            commands::workspace_add,
        ])
        .setup(move |app| {
            view::make(app.handle())?;
            spawn(events::forward(app.handle().clone(), events));
            spawn(exit_on_signal(app.handle().clone(), signals));
            if !view::under_automation() {
                spawn(idle::count_down(app.handle().clone()));
            }
            Ok(())
        })
        .on_window_event(view::on_event)
        .build(tauri::generate_context!())
}

/// SIGTERM or Ctrl+C (the session ending, the terminal that runs `redline`) is being told to
/// end, not a failure: status 0, as for `Down::Quit`, so the launcher does not count a crash.
async fn exit_on_signal(app: AppHandle, mut signals: StopSignals) {
    signals.recv().await;
    tracing::info!("stopped by a signal: the review window ends");
    app.exit(0);
}

/// Settles process-wide settings before any thread starts.
fn prepare_process() {
    // SAFETY: called first thing in `main`, before any other thread exists.
    unsafe { redline_core::platform::display::settle() };
    // A review is short bursts of script (build the editor, diff, paint), never the long hot
    // loops JavaScriptCore's optimising DFG tier pays off for; without it the web process holds
    // ~12 MiB less and spends less CPU per review (bench/window: 124 against 136 MiB PSS, the
    // pop-ups as fast). The baseline JIT stays. WebKit's processes inherit it; a user's own
    // setting wins.
    #[cfg(target_os = "linux")]
    if std::env::var_os("JSC_useDFGJIT").is_none() {
        // SAFETY: as above, no other thread exists yet.
        unsafe { std::env::set_var("JSC_useDFGJIT", "false") };
    }
}

/// Logs to stderr (the launcher passes it on to Redline's log); `RUST_LOG` overrides the level.
fn init_logging() {
    use std::io::IsTerminal;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Colour escapes only for a person at a terminal who did not opt out (no-color.org).
        .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
}
