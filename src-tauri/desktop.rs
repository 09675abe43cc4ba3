//! The desktop `redline`: the servers and the review queue on a Tokio runtime, the tray on the
//! main thread's event loop, the review window a child process (`redline-window`) the core's
//! launcher starts. Links no WebKit: a fault in the window never takes the servers down.

use crate::main_thread::{Event, MainThread};
use crate::outcome::Outcome;
use crate::tray::{self, Tray};
use redline_core::platform::dirs::Dirs;
use redline_core::runtime::control;
use redline_core::runtime::instance::World;
use redline_core::runtime::serving::Serving;
use redline_core::runtime::window::launcher::{self, WindowProgram};
use redline_core::surfaces::action::WindowShow;
use redline_core::{ControlFailure, Error};
use std::path::Path;
use std::time::Duration;
use tao::event::Event as LoopEvent;
use tao::event_loop::{ControlFlow, EventLoopBuilder};
use tao::platform::run_return::EventLoopExtRunReturn;

/// How long the launcher has, once told to quit, to see the window process out (it gives the
/// window 3 s, then kills it).
const LAUNCHER_GRACE: Duration = Duration::from_secs(5);

/// Settles process-wide settings before any thread starts; call first thing in `main`.
pub fn prepare_process() {
    // SAFETY: called first thing in `main`, before any other thread exists.
    unsafe { redline_core::platform::display::settle() };
}

/// What the app started in the background says on stdout once its tray is up.
pub const READY: &str = "ready";

/// Who hears that the tray is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Announce {
    /// The person at the terminal that started it: one line on stderr.
    Terminal,
    /// The `redline` that started this one in the background and waits on its stdout.
    Starter,
}

/// Runs Redline until Quit. A second launch shows the running instance's window and returns.
pub fn run(dirs: Dirs, announce: Announce) -> Result<Outcome, Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("the async runtime", e))?;
    // Without a display a running instance is still reachable; a new one would panic in GTK.
    if let Some(problem) = crate::display::problem() {
        return match runtime.block_on(show_running(&dirs)) {
            Err(Error::NotRunning) => Err(Error::NoDisplay(problem)),
            other => other,
        };
    }
    let mut event_loop = EventLoopBuilder::<Event>::with_user_event().build();
    let main = MainThread::new(event_loop.create_proxy());
    // The servers start on the runtime's threads; the loop below already runs meanwhile, and
    // the tray appears with its first menu once they are up.
    let serving = runtime.spawn(serve(dirs, main.clone()));
    runtime.spawn(async move {
        // A panic in there must end the loop too, not leave a process with no servers behind.
        let done = serving
            .await
            .unwrap_or_else(|e| Err(Error::Control(ControlFailure::ServersStopped(e))));
        main.send(Event::Done(done));
    });

    let mut icon: Option<Tray> = None;
    let mut result = Ok(Outcome::Stopped);
    event_loop.run_return(|event, _, flow| {
        *flow = ControlFlow::Wait;
        let LoopEvent::UserEvent(event) = event else {
            return;
        };
        match event {
            Event::Menu { items, pending } => match &mut icon {
                Some(t) => t.update(&items, pending),
                None => {
                    match Tray::new(&items, pending) {
                        Ok(t) => icon = Some(t),
                        // The servers serve without it; `redline` again shows the window.
                        Err(e) => tracing::error!("no tray icon: {e}"),
                    }
                    say_started(announce);
                }
            },
            Event::Run(f) => f(),
            Event::Done(done) => {
                result = done;
                *flow = ControlFlow::Exit;
            }
        }
    });
    drop(icon);
    // Everything was stopped in `serve`; what is left (a blocked read) must not hold the exit.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

/// Starts the servers, the window's launcher and the tray's feed, and serves until `redline
/// quit`, the tray's Quit, SIGTERM or Ctrl+C; then stops them all.
async fn serve(dirs: Dirs, main: MainThread) -> Result<Outcome, Error> {
    let serving = match Serving::start(&dirs, || World::os(dirs.clone())).await {
        Ok(s) => s,
        Err(Error::AlreadyRunning) => return show_running(&dirs).await,
        Err(e) => return Err(e),
    };
    let Serving {
        instance,
        mut signals,
    } = serving;

    // The first launch shows the welcome page, as a tray icon may have no host to show it (GNOME
    // without the AppIndicator extension); later launches start in the tray. Not remembered
    // (the config cannot be written): welcomed now, and the reason is logged.
    let welcome = instance
        .workspaces()
        .first_launch()
        .await
        .unwrap_or_else(|e| {
            tracing::warn!("the first launch's welcome is not remembered: {e}");
            true
        });
    // The launcher listens for show requests from this call on.
    let launcher = match WindowProgram::beside_current_exe() {
        Ok(program) => Some(tokio::spawn(launcher::run(instance.clone(), program))),
        Err(e) => {
            let why = format!("the review window cannot start: where is redline-window? {e}");
            tracing::error!("{why}");
            instance.windows().set_problem(Some(why));
            None
        }
    };
    if welcome {
        instance.request_show();
    }
    tray::feed(instance.clone(), main);

    tokio::select! {
        _ = instance.quit_requested() => {}
        _ = signals.recv() => {}
    }
    tracing::info!("stopping: servers down, discovery files removed");
    // A signal asked no one else: the launcher and the tray's feed end on this.
    instance.request_quit();
    instance.windows().quit();
    instance.shutdown().await;
    if let Some(l) = launcher {
        let _ = tokio::time::timeout(LAUNCHER_GRACE, l).await;
    }
    Ok(Outcome::Stopped)
}

/// A second launch: the running instance shows its window, if it has one.
pub async fn show_running(dirs: &Dirs) -> Result<Outcome, Error> {
    match control::ask(dirs, WindowShow {}).await? {
        true => Ok(Outcome::Shown),
        false => Ok(Outcome::Headless),
    }
}

/// The line that says the app runs on, and where to find it; with where it logs when it runs
/// in the background.
pub fn started_line(log: Option<&Path>) -> String {
    let (how, log) = match log {
        Some(log) => (
            " in the background",
            format!("; its log: {}", log.display()),
        ),
        None => ("", String::new()),
    };
    format!(
        "redline: started{how}; its menu is the Redline icon in the system tray (no tray? run \
         `redline` again to open its window; `redline quit` stops it){log}"
    )
}

/// Says the tray is up: one line on stderr, whatever the log level (the terminal, or the log
/// file in the background), not a failure when nobody reads it (launched from a menu, stderr
/// closed). To the `redline` that started this one, `ready` on stdout too, which is then let go
/// (that one exits on reading it).
fn say_started(announce: Announce) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{}", started_line(None));
    if announce == Announce::Starter {
        let mut out = std::io::stdout();
        let _ = writeln!(out, "{READY}").and_then(|()| out.flush());
        #[cfg(unix)]
        if let Err(e) = redline_core::platform::background::stdout_to_null() {
            tracing::warn!("standard output stays the starter's pipe: {e}");
        }
    }
}
