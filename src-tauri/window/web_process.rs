//! WebKit's web process, which renders the page in a process of its own: when it dies the page
//! goes blank, so it is reloaded, and the page lists the pending reviews afresh on load.

use tauri::WebviewWindow;

/// Crashes this close together mean the page cannot render here (a broken GL, a page that
/// kills its renderer): the window ends with a failure instead of reloading forever, and the
/// launcher decides what comes next.
#[cfg(target_os = "linux")]
const CRASH_LOOP: (usize, std::time::Duration) = (3, std::time::Duration::from_secs(30));

/// Reloads the page each time its web process ends, saying why once per end.
#[cfg(target_os = "linux")]
pub fn revive_on_crash(w: &WebviewWindow) {
    use tauri::Manager;
    let app = w.app_handle().clone();
    let _ = w.with_webview(move |webview| {
        use std::cell::RefCell;
        use std::time::Instant;
        use webkit2gtk::{WebProcessTerminationReason, WebViewExt};
        // Signal handlers run on GTK's thread, one at a time: a RefCell is enough.
        let ends: RefCell<Vec<Instant>> = RefCell::default();
        webview
            .inner()
            .connect_web_process_terminated(move |view, reason| {
                let why = match reason {
                    WebProcessTerminationReason::Crashed => "it crashed",
                    WebProcessTerminationReason::ExceededMemoryLimit => {
                        "it went over its memory limit"
                    }
                    WebProcessTerminationReason::TerminatedByApi => "it was ended",
                    _ => "for a reason WebKit did not name",
                };
                let mut ends = ends.borrow_mut();
                let now = Instant::now();
                ends.retain(|t| now.duration_since(*t) < CRASH_LOOP.1);
                ends.push(now);
                if ends.len() >= CRASH_LOOP.0 {
                    tracing::error!(
                        "the review window's web process ended {} times in {} s ({why}): \
                         giving up",
                        ends.len(),
                        CRASH_LOOP.1.as_secs()
                    );
                    app.exit(1);
                    return;
                }
                tracing::warn!("the review window's web process ended ({why}): reloading the page");
                view.reload();
            });
    });
}

#[cfg(not(target_os = "linux"))]
pub fn revive_on_crash(_: &WebviewWindow) {}
