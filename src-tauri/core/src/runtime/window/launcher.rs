//! The review window's process: started when a review may come (a CLI connected, a review
//! arrived, the user asked), brought back when it crashes with a review to show, and, when it
//! cannot start at all, said why once (log and tray) and left alone until the next pop-up.

use super::hub::{Presence, WindowHub};
use crate::review::ReviewEvent;
use crate::runtime::instance::Instance;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::broadcast::error::RecvError;

/// How to start the window process.
#[derive(Debug, Clone)]
pub struct WindowProgram {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Set for the window on top of Redline's own environment.
    pub envs: Vec<(OsString, OsString)>,
}

impl WindowProgram {
    /// `redline-window` beside the running executable (as every package installs them).
    pub fn beside_current_exe() -> std::io::Result<WindowProgram> {
        let exe = std::env::current_exe()?;
        let name = format!("redline-window{}", std::env::consts::EXE_SUFFIX);
        let program = exe
            .parent()
            .map(|d| d.join(&name))
            .unwrap_or_else(|| PathBuf::from(&name));
        Ok(WindowProgram {
            program,
            args: Vec::new(),
            envs: Vec::new(),
        })
    }
}

/// Crashes this close together mean the window cannot run here: it is not started again until
/// the next pop-up.
const CRASHES: usize = 3;
const CRASH_SPELL: Duration = Duration::from_secs(60);

/// How long a window told to quit has before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(3);

/// The last lines a window printed, to say why it could not start (WebKit says it there).
const KEPT_LINES: usize = 6;
const KEPT_LINE_BYTES: u64 = 1024;

/// A window process that runs.
struct Running {
    child: Child,
    /// The hub's generation when it started: a later window that says it loaded is this one.
    generation: u64,
    ready: bool,
    said: Arc<Mutex<VecDeque<String>>>,
}

/// Why the window process was wanted: a pop-up retries a window that could not start; making
/// it ready ahead (a CLI connected) does not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Ahead,
    PopUp,
}

/// Starts and watches the window process for `instance` until it quits. It listens from the
/// call on (a show asked for right after is not missed); the future does the rest.
pub fn run(
    instance: Arc<Instance>,
    launch: WindowProgram,
) -> impl std::future::Future<Output = ()> {
    let mut reviews = instance.reviews().queue().subscribe();
    let mut shows = instance.show_requests();
    let mut sessions = instance.reviews().queue().sessions_started();
    let mut presence = instance.windows().presence();
    async move {
        let hub = instance.windows();
        let mut launcher = Launcher {
            launch,
            running: None,
            failed: false,
            crashes: VecDeque::new(),
        };
        launcher.at_start(hub, *sessions.borrow_and_update() > 0);
        loop {
            tokio::select! {
                _ = instance.quit_requested() => break,
                event = reviews.recv() => match event {
                    Ok(ReviewEvent::Added(_)) => {
                        let Some(focus) = instance.workspaces().settings().await.popup.pop_up() else {
                            continue;
                        };
                        hub.show(focus);
                        launcher.want(hub, Want::PopUp);
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                },
                shown = shows.recv() => match shown {
                    Ok(()) | Err(RecvError::Lagged(_)) => {
                        hub.show(true);
                        launcher.want(hub, Want::PopUp);
                    }
                    Err(RecvError::Closed) => break,
                },
                changed = sessions.changed() => {
                    if changed.is_err() {
                        break;
                    }
                    launcher.want(hub, Want::Ahead);
                }
                changed = presence.changed() => {
                    if changed.is_err() {
                        break;
                    }
                    let now = *presence.borrow_and_update();
                    launcher.heard(hub, now);
                }
                status = exited(&mut launcher.running) => {
                    let pending = !instance.reviews().queue().list().is_empty();
                    let pop_up = instance.workspaces().settings().await.popup.pop_up();
                    launcher.ended(hub, status, pending, pop_up);
                }
            }
        }
        launcher.quit(hub).await;
    }
}

/// Resolves when the running window process ends (never, with none).
async fn exited(running: &mut Option<Running>) -> std::io::Result<ExitStatus> {
    match running {
        Some(r) => r.child.wait().await,
        None => std::future::pending().await,
    }
}

struct Launcher {
    launch: WindowProgram,
    running: Option<Running>,
    /// The last start failed: only a pop-up tries again.
    failed: bool,
    crashes: VecDeque<Instant>,
}

impl Launcher {
    /// What is wanted before anything happens: under automation (WebDriver attaches to the
    /// window's webview as it starts) or with a show asked for, the window now; with a CLI
    /// session started already (`sessions`: it may send a review next), the window ready.
    fn at_start(&mut self, hub: &WindowHub, sessions: bool) {
        if std::env::var_os("TAURI_WEBVIEW_AUTOMATION").is_some() || hub.show_pending() {
            self.want(hub, Want::PopUp);
        }
        if sessions {
            self.want(hub, Want::Ahead);
        }
    }
}

impl Launcher {
    fn want(&mut self, hub: &WindowHub, why: Want) {
        if self.running.is_some() || (self.failed && why == Want::Ahead) {
            return;
        }
        match self.spawn(hub) {
            Ok(r) => self.running = Some(r),
            Err(e) => self.cannot_start(hub, format!("{}: {e}", self.launch.program.display())),
        }
    }

    fn spawn(&self, hub: &WindowHub) -> std::io::Result<Running> {
        let mut child = Command::new(&self.launch.program)
            .args(&self.launch.args)
            .envs(self.launch.envs.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let said = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = child.stderr.take() {
            tokio::spawn(pass_on(err, said.clone()));
        }
        tracing::info!(pid = child.id(), "review window process started");
        Ok(Running {
            child,
            generation: hub.presence().borrow().generation,
            ready: false,
            said,
        })
    }

    /// The window loaded its page: it can start here, whatever failed before.
    fn heard(&mut self, hub: &WindowHub, now: Presence) {
        if let Some(r) = &mut self.running {
            if now.ready && now.generation > r.generation && !r.ready {
                r.ready = true;
                if std::mem::take(&mut self.failed) {
                    tracing::info!("the review window starts again");
                }
                hub.set_problem(None);
            }
        }
    }

    fn ended(
        &mut self,
        hub: &WindowHub,
        status: std::io::Result<ExitStatus>,
        pending: bool,
        pop_up: Option<bool>,
    ) {
        let Some(r) = self.running.take() else {
            return;
        };
        let visible = hub.presence().borrow().visible;
        match status {
            // Released after its idle spell (or it was told to quit): a show that came meanwhile
            // still wants a window. A window releases only with no review pending, so one pending
            // now came as it ended, its pop-up sent to it and lost with it: a new window shows it.
            Ok(s) if s.success() => {
                if let Some(focus) = pop_up.filter(|_| pending && !hub.show_pending()) {
                    hub.keep_for_next(focus);
                }
                if hub.show_pending() {
                    self.want(hub, Want::PopUp);
                }
            }
            Ok(s) if !r.ready => {
                let why = last_words(&r.said).map_or(String::new(), |w| format!(": {w}"));
                self.cannot_start(hub, format!("it ended before its page loaded ({s}){why}"));
            }
            status => {
                let how = status.map_or_else(|e| e.to_string(), |s| s.to_string());
                let now = Instant::now();
                self.crashes
                    .retain(|t| now.duration_since(*t) < CRASH_SPELL);
                self.crashes.push_back(now);
                if self.crashes.len() >= CRASHES {
                    self.crashes.clear();
                    self.cannot_start(hub, format!("it crashed {CRASHES} times in a row ({how})"));
                    return;
                }
                tracing::warn!("the review window crashed ({how})");
                // Back with the review it showed; a window the user had closed waits for the
                // next pop-up.
                if pending && visible {
                    // Not `show`: the dead window's channel may not have closed yet, and a show
                    // broadcast to it would be lost with it.
                    hub.keep_for_next(false);
                }
                if hub.show_pending() {
                    self.want(hub, Want::PopUp);
                }
            }
        }
    }

    fn cannot_start(&mut self, hub: &WindowHub, why: String) {
        self.failed = true;
        let problem = format!(
            "the review window cannot start: {why}; answer reviews with `redline review list`, \
             `redline review accept ID` and `redline review reject ID`"
        );
        if hub.set_problem(Some(problem.clone())) {
            tracing::error!("{problem}");
        }
    }

    async fn quit(mut self, hub: &WindowHub) {
        hub.quit();
        let Some(mut r) = self.running.take() else {
            return;
        };
        if tokio::time::timeout(QUIT_GRACE, r.child.wait())
            .await
            .is_err()
        {
            tracing::warn!("the review window did not quit in time: killed");
            let _ = r.child.kill().await;
        }
    }
}

/// Passes the window's stderr on to ours, keeping its last lines.
async fn pass_on(err: tokio::process::ChildStderr, said: Arc<Mutex<VecDeque<String>>>) {
    let mut err = BufReader::new(err);
    let mut line = Vec::new();
    loop {
        line.clear();
        // A longer line comes on as the next: bounded either way.
        let read = (&mut err)
            .take(KEPT_LINE_BYTES)
            .read_until(b'\n', &mut line)
            .await;
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        if text.is_empty() {
            continue;
        }
        eprintln!("{text}");
        let mut kept = said.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() == KEPT_LINES {
            kept.pop_front();
        }
        kept.push_back(text);
    }
}

fn last_words(said: &Mutex<VecDeque<String>>) -> Option<String> {
    let kept = said.lock().unwrap_or_else(|e| e.into_inner());
    kept.back().cloned()
}
