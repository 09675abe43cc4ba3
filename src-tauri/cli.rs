//! Parses the command line and prints results; every action is the core's.

use crate::args::{Cli, Command};
use crate::here::Here;
use crate::output::{errln, out, outln, Printer};
use crate::request::ask;
use crate::resolve::{resolve, Action, ContainerAction, WorkspaceAction};
use crate::text;
use clap::Parser;
use redline_core::api::status::{Pin, Status};
use redline_core::doctor;
use redline_core::platform::dirs::Dirs;
use redline_core::runtime::command::{self, Via};
use redline_core::runtime::instance::World;
use redline_core::runtime::serving::Serving;
use redline_core::surfaces::action::{
    ContainerArgs, ContainerDisable, ContainerEnable, PinGet, Quit, StatusGet, TokenRotate,
    WorkspaceAdd, WorkspaceEnable, WorkspaceList, WorkspaceRemove,
};
use redline_core::surfaces::shell;
use redline_core::workspace::config::WorkspaceEntry;
use redline_core::workspace::container::RunArgs;
use redline_core::{Error, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use tokio::runtime::Runtime;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let (mut stdout, mut stderr) = (std::io::stdout(), std::io::stderr());
    let mut p = Printer::new(&mut stdout, &mut stderr);
    let command = match cli.command {
        None => {
            let launch = Launch::of(cli.foreground, cli.started_in_background);
            return desktop(&mut p, launch);
        }
        Some(Command::Serve { headless: false }) => {
            return desktop(&mut p, Launch::of(false, false))
        }
        Some(command) => command,
    };
    let runtime = match Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            errln!(p, "redline: cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    match resolve(command, &Here::os()) {
        Ok(action) => run_action(runtime, &mut p, action),
        Err(e) => failed(&mut p, &e),
    }
}

/// Runs `action` to its exit status.
fn run_action(runtime: Runtime, p: &mut Printer, action: Action) -> ExitCode {
    let dirs = Dirs::from_env();
    // Local reviews have their own exit statuses: 1 is "rejected", so an error is 2.
    let local = match action {
        Action::Propose(a) => runtime.block_on(crate::local::propose(&dirs, p, a)),
        Action::Diff(a) => runtime.block_on(crate::local::diff(&dirs, p, a)),
        // A hook's exit status is the CLI's to read: it says it itself.
        Action::Hook(a) => return runtime.block_on(crate::hook::run(&dirs, p, a)),
        action => {
            let joined = matches!(action, Action::Editor(_) | Action::Bridge { .. });
            let result = runtime.block_on(run(&dirs, p, action));
            if joined {
                // Its read of stdin may still be blocked in a thread (the instance went first):
                // that must not keep the process alive.
                runtime.shutdown_background();
            }
            return exit(p, result);
        }
    };
    match local {
        Ok(_) if p.out_failed() => ExitCode::from(2),
        Ok(ending) => ending.into(),
        Err(e) => failed(p, &e),
    }
}

/// The exit status a script reads (docs/cli.md): 0 yes, 1 no (a check that found a problem),
/// 2 an error, usage or no decision, 3 no Redline running.
fn exit(p: &mut Printer, done: Result<bool>) -> ExitCode {
    match done {
        Ok(_) if p.out_failed() => ExitCode::from(2),
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => failed(p, &e),
    }
}

/// Exit status when nothing is running to ask: a script starts Redline on it, retries on nothing else.
pub const NOT_RUNNING: u8 = 3;

fn failed(p: &mut Printer, e: &Error) -> ExitCode {
    match e {
        Error::NotRunning => {
            errln!(p, "redline: {e} (start one with `{}`)", start_command());
            ExitCode::from(NOT_RUNNING)
        }
        _ => {
            errln!(p, "redline: {e}");
            ExitCode::from(2)
        }
    }
}

/// What starts Redline here: the desktop app where this build has one and there is a display,
/// else the headless servers.
fn start_command() -> &'static str {
    if cfg!(feature = "desktop") && redline_core::platform::display::missing().is_none() {
        "redline"
    } else {
        "redline serve --headless"
    }
}

/// How the desktop app runs this time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Launch {
    /// Started in the background; this process returns once its tray is up (Linux, macOS).
    Background,
    /// In this process, logging to stderr, until stopped (`--foreground`; Windows always).
    Foreground,
    /// In this process, as the one `Background` started: logging to the file, `ready` on stdout.
    Started,
}

impl Launch {
    fn of(foreground: bool, started: bool) -> Launch {
        match (foreground, started) {
            (_, true) => Launch::Started,
            (true, false) => Launch::Foreground,
            (false, false) if cfg!(unix) => Launch::Background,
            // Not done on Windows yet (docs/cli.md): the app stays in the foreground there.
            (false, false) => Launch::Foreground,
        }
    }
}

/// The servers, the tray and the review window's process. The tray's event loop owns the main
/// thread and the servers get their own runtime: started outside ours.
#[cfg(feature = "desktop")]
fn desktop(p: &mut Printer, launch: Launch) -> ExitCode {
    #[cfg(unix)]
    if launch == Launch::Background {
        return crate::launch::start(p);
    }
    crate::desktop::prepare_process();
    let announce = match launch {
        Launch::Started => {
            crate::logging::to_log_file();
            crate::desktop::Announce::Starter
        }
        Launch::Foreground | Launch::Background => {
            crate::logging::to_stderr();
            crate::desktop::Announce::Terminal
        }
    };
    match crate::desktop::run(Dirs::from_env(), announce) {
        Ok(outcome) => crate::outcome::ended(p, outcome),
        Err(e) => {
            errln!(p, "redline: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(not(feature = "desktop"))]
fn desktop(p: &mut Printer, _: Launch) -> ExitCode {
    errln!(
        p,
        "redline: this build has no desktop window; `redline serve --headless` runs the servers"
    );
    ExitCode::from(2)
}

/// Runs a command; `Ok(false)` is a check that found a problem (exit status 1).
async fn run(dirs: &Dirs, p: &mut Printer<'_>, action: Action) -> Result<bool> {
    match action {
        Action::Serve => {
            crate::logging::to_stderr();
            let serving = match Serving::start(dirs, || World::os(dirs.clone())).await {
                Err(Error::AlreadyRunning) => return Err(already_running(dirs).await),
                started => started?,
            };
            outln!(p, "ready");
            serving.until_stopped().await;
        }
        Action::Doctor { dir, format } => {
            let report = command::diagnose(dirs, dir).await?;
            p.show(format, &report, |p, r| out!(p, "{}", doctor::render(r)));
            return Ok(report.ok);
        }
        Action::Workspace(a) => workspace(dirs, p, a).await?,
        Action::Status { format } => {
            let status: Status = ask(dirs, StatusGet {}).await?.value;
            p.show(format, &status, text::status);
        }
        Action::Review(a) => crate::review_cli::run(dirs, p, a).await?,
        Action::Turns(a) => return crate::turns_cli::run(dirs, p, a).await,
        Action::TokenRotate { path } => {
            ask(dirs, TokenRotate { path }).await?;
            outln!(
                p,
                "token rotated; CLIs already connected need `/ide enable` again"
            );
        }
        Action::Env { shell: sh, path } => {
            let pin: Pin = ask(dirs, PinGet { path }).await?.value;
            out!(p, "{}", shell::exports(&pin, sh));
        }
        Action::Container(a) => container(dirs, p, a).await?,
        Action::Hooks(cmd) => crate::hook_config::run(dirs, p, cmd)?,
        Action::Quit => {
            ask(dirs, Quit {}).await?;
            // Said, so that a quit that worked does not look like one that did nothing.
            outln!(p, "Redline is quitting");
        }
        Action::Completions { shell } => crate::manual::completions(shell)?,
        Action::Man => crate::manual::man()?,
        Action::Propose(_) | Action::Diff(_) | Action::Hook(_) => {
            return Err(Error::Usage("a local review runs from main".into()))
        }
        Action::Editor(a) => crate::editor_cli::run(dirs, a).await?,
        Action::Bridge { start } => crate::bridge_cli::run(dirs, start).await?,
        Action::Remote(a) => return crate::remote_cli::run(dirs, p, a).await,
    }
    Ok(true)
}

async fn workspace(dirs: &Dirs, p: &mut Printer<'_>, action: WorkspaceAction) -> Result<()> {
    let next = "(starts with the next `redline serve`)";
    match action {
        WorkspaceAction::Add { path, force } => {
            let answer = ask(dirs, WorkspaceAdd { path, force }).await?;
            let (via, path) = (answer.via, answer.value);
            match via {
                Via::Instance => outln!(p, "added {}", path.display()),
                Via::Stored => outln!(p, "added {} {next}", path.display()),
            }
        }
        WorkspaceAction::Remove { path } => {
            let path: PathBuf = ask(dirs, WorkspaceRemove { path }).await?.value;
            outln!(p, "removed {}", path.display());
        }
        WorkspaceAction::Enable { path, enabled } => {
            let req = WorkspaceEnable {
                path: path.clone(),
                enabled,
            };
            ask(dirs, req).await?;
            let state = if enabled { "on" } else { "off" };
            outln!(p, "{} is {state}", path.display());
        }
        WorkspaceAction::List { format } => {
            let list: Vec<WorkspaceEntry> = ask(dirs, WorkspaceList {}).await?.value;
            p.show(format, &list, workspace_list);
        }
    }
    Ok(())
}

/// A second `serve`: which instance runs, and how to stop it to start this one.
async fn already_running(dirs: &Dirs) -> Error {
    let pid = match ask(dirs, StatusGet {}).await {
        Ok(status) => format!(" (pid {})", status.value.pid),
        Err(_) => String::new(),
    };
    Error::Refused(format!(
        "another Redline instance is already running{pid}; it serves already: \
         stop it with `redline quit` to start this one"
    ))
}

fn workspace_list(p: &mut Printer, list: &Vec<WorkspaceEntry>) {
    if list.is_empty() {
        outln!(
            p,
            "no workspaces; add one with `redline workspace add PATH`"
        );
    }
    for w in list {
        // As `redline status` says it: a folder that is gone is served by nobody.
        if !w.path.is_dir() {
            let path = w.path.display();
            outln!(
                p,
                "MISSING  {path}  (the folder is gone; `redline workspace remove {path}`)"
            );
            continue;
        }
        let on = if w.enabled { "on " } else { "off" };
        outln!(p, "{on}  {}", w.path.display());
    }
}

async fn container(dirs: &Dirs, p: &mut Printer<'_>, action: ContainerAction) -> Result<()> {
    match action {
        ContainerAction::Enable { path, address } => {
            let answer = ask(dirs, ContainerEnable { path, address }).await?;
            text::containers_on(p, answer.via, &answer.value);
        }
        ContainerAction::Disable { path } => {
            let answer = ask(dirs, ContainerDisable { path }).await?;
            let (via, path) = (answer.via, answer.value);
            match via {
                Via::Instance => outln!(p, "containers off for {}: loopback only", path.display()),
                Via::Stored => outln!(p, "containers off for {}", path.display()),
            }
        }
        ContainerAction::Args {
            path,
            container_path,
            home,
            format,
        } => {
            let req = ContainerArgs {
                path,
                container_path,
                home,
            };
            let args: RunArgs = ask(dirs, req).await?.value;
            p.show(format, &args, |p, args| {
                for a in &args.args {
                    outln!(p, "{a}");
                }
            });
        }
    }
    Ok(())
}
