//! Parses the command line and prints results; every action is the core's.

use crate::args::{Cli, Command, ContainerCmd, ReviewCmd, TokenCmd, WorkspaceCmd};
use crate::output::{
    errln, out, outln, print_containers_on, print_json, print_status, print_summary,
};
use crate::request::{absolute, ask, current_dir, utf8};
use clap::Parser;
use redline_core::api::status::{Pin, Status};
use redline_core::doctor;
use redline_core::platform::dirs::Dirs;
use redline_core::review::Summary;
use redline_core::runtime::command::{self, Via};
use redline_core::runtime::instance::World;
use redline_core::runtime::serving::Serving;
use redline_core::surfaces::action::{
    ContainerArgs, ContainerDisable, ContainerEnable, PinGet, Quit, ReviewAccept, ReviewReject,
    ReviewShow, ReviewWait, ReviewsList, StatusGet, TokenRotate, WorkspaceAdd, WorkspaceEnable,
    WorkspaceList, WorkspaceRemove,
};
use redline_core::surfaces::shell;
use redline_core::workspace::config::{self, WorkspaceEntry};
use redline_core::workspace::container::RunArgs;
use redline_core::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn main() -> ExitCode {
    let command = match Cli::parse().command {
        None | Some(Command::Serve { headless: false }) => return desktop(),
        Some(command) => command,
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            errln!("redline: cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    let dirs = Dirs::from_env();
    // Local reviews have their own exit statuses: 1 is "rejected", so an error is 2.
    let local = match command {
        Command::Propose(a) => runtime.block_on(crate::local::propose(&dirs, a)),
        Command::Diff(a) => runtime.block_on(crate::local::diff(&dirs, a)),
        // A hook's exit status is the CLI's to read: it says it itself.
        Command::Hook(a) => return runtime.block_on(crate::hook::run(&dirs, a)),
        command => {
            let bridge = matches!(command, Command::Editor { .. });
            let result = runtime.block_on(run(&dirs, command));
            if bridge {
                // Its read of stdin may still be blocked in a thread (the instance went first):
                // that must not keep the process alive.
                runtime.shutdown_background();
            }
            return exit(result);
        }
    };
    match local {
        Ok(_) if crate::output::stdout_failed() => ExitCode::from(2),
        Ok(verdict) => verdict.into(),
        Err(e) => failed(&e),
    }
}

/// The exit status a script reads (docs/cli.md): 0 yes, 1 no (a check that found a problem),
/// 2 an error, usage or no decision, 3 no Redline running.
fn exit(done: Result<bool>) -> ExitCode {
    match done {
        Ok(_) if crate::output::stdout_failed() => ExitCode::from(2),
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => failed(&e),
    }
}

/// Exit status when nothing is running to ask: a script starts Redline on it, retries on nothing else.
pub const NOT_RUNNING: u8 = 3;

fn failed(e: &Error) -> ExitCode {
    match e {
        Error::NotRunning => {
            errln!("redline: {e} (start one with `{}`)", start_command());
            ExitCode::from(NOT_RUNNING)
        }
        _ => {
            errln!("redline: {e}");
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

/// The servers, the tray and the review window's process. The tray's event loop owns the main
/// thread and the servers get their own runtime: started outside ours.
#[cfg(feature = "desktop")]
fn desktop() -> ExitCode {
    crate::desktop::prepare_process();
    init_logging();
    match crate::desktop::run(Dirs::from_env()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("redline: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(not(feature = "desktop"))]
fn desktop() -> ExitCode {
    errln!(
        "redline: this build has no desktop window; `redline serve --headless` runs the servers"
    );
    ExitCode::from(2)
}

/// Logs to stderr; `RUST_LOG` overrides the level. Tokens never reach a log line.
fn init_logging() {
    use std::io::IsTerminal;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Colour escapes only for a person at a terminal who did not opt out (no-color.org):
        // never in a file or a journal.
        .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,rmcp=warn".into()),
        )
        .init();
}

/// Runs a command; `Ok(false)` is a check that found a problem (exit status 1).
async fn run(dirs: &Dirs, command: Command) -> Result<bool> {
    match command {
        Command::Serve { .. } => {
            init_logging();
            let serving = Serving::start(dirs, || World::os(dirs.clone())).await?;
            outln!("ready");
            serving.until_stopped().await;
        }
        Command::Doctor { dir, json } => {
            let dir = dir.map_or_else(current_dir, |d| absolute(&d))?;
            let report = command::diagnose(dirs, dir).await?;
            if json {
                print_json(&report);
            } else {
                out!("{}", doctor::render(&report));
            }
            return Ok(report.ok);
        }
        Command::Workspace(cmd) => workspace(dirs, cmd).await?,
        Command::Status { json } => {
            let status: Status = ask(dirs, StatusGet {}).await?.value;
            if json {
                print_json(&status);
            } else {
                print_status(&status);
            }
        }
        Command::Review(cmd) => review(dirs, cmd).await?,
        Command::Token(TokenCmd::Rotate { workspace }) => {
            let path = workspace.map_or_else(current_dir, |p| absolute(&p))?;
            ask(dirs, TokenRotate { path }).await?;
            outln!("token rotated; CLIs already connected need `/ide enable` again");
        }
        Command::Env { shell: sh, path } => {
            let path = path.map_or_else(current_dir, |p| absolute(&p))?;
            let pin: Pin = ask(dirs, PinGet { path }).await?.value;
            out!("{}", shell::exports(&pin, sh));
        }
        Command::Container(cmd) => container(dirs, cmd).await?,
        Command::Hooks(cmd) => crate::hook_config::run(dirs, cmd)?,
        Command::Quit => {
            ask(dirs, Quit {}).await?;
        }
        Command::Completions { shell } => crate::manual::completions(shell)?,
        Command::Man => crate::manual::man()?,
        Command::Propose(_) | Command::Diff(_) | Command::Hook(_) => {
            return Err(Error::Usage("a local review runs from main".into()))
        }
        Command::Editor { .. } | Command::Mention { .. } | Command::Context { .. } => {
            crate::editor_cli::run(dirs, command).await?
        }
    }
    Ok(true)
}

async fn workspace(dirs: &Dirs, cmd: WorkspaceCmd) -> Result<()> {
    let next = "(starts with the next `redline serve`)";
    match cmd {
        WorkspaceCmd::Add { path, force } => {
            let path = config::canonical_dir(&absolute(&path)?)?;
            utf8(&path)?;
            let answer = ask(dirs, WorkspaceAdd { path, force }).await?;
            let (via, path) = (answer.via, answer.value);
            match via {
                Via::Instance => outln!("added {}", path.display()),
                Via::Stored => outln!("added {} {next}", path.display()),
            }
        }
        WorkspaceCmd::Remove { path } => {
            let path = absolute(&path)?;
            let path: PathBuf = ask(dirs, WorkspaceRemove { path }).await?.value;
            outln!("removed {}", path.display());
        }
        WorkspaceCmd::Enable { ref path } | WorkspaceCmd::Disable { ref path } => {
            let enabled = matches!(cmd, WorkspaceCmd::Enable { .. });
            let path = absolute(path)?;
            let req = WorkspaceEnable {
                path: path.clone(),
                enabled,
            };
            ask(dirs, req).await?;
            let state = if enabled { "on" } else { "off" };
            outln!("{} is {state}", path.display());
        }
        WorkspaceCmd::List { json } => {
            let list: Vec<WorkspaceEntry> = ask(dirs, WorkspaceList {}).await?.value;
            if json {
                print_json(&list);
            } else if list.is_empty() {
                outln!("no workspaces; add one with `redline workspace add PATH`");
            } else {
                for w in list {
                    let on = if w.enabled { "on " } else { "off" };
                    outln!("{on}  {}", w.path.display());
                }
            }
        }
    }
    Ok(())
}

async fn container(dirs: &Dirs, cmd: ContainerCmd) -> Result<()> {
    match cmd {
        ContainerCmd::Enable { path, address } => {
            let path = absolute(&path)?;
            let answer = ask(dirs, ContainerEnable { path, address }).await?;
            print_containers_on(answer.via, &answer.value);
        }
        ContainerCmd::Disable { path } => {
            let path = absolute(&path)?;
            let answer = ask(dirs, ContainerDisable { path }).await?;
            let (via, path) = (answer.via, answer.value);
            match via {
                Via::Instance => outln!("containers off for {}: loopback only", path.display()),
                Via::Stored => outln!("containers off for {}", path.display()),
            }
        }
        ContainerCmd::Args {
            path,
            container_path,
            home,
            json,
        } => {
            let path = path.map_or_else(current_dir, |p| absolute(&p))?;
            let req = ContainerArgs {
                path,
                container_path,
                home,
            };
            let args: RunArgs = ask(dirs, req).await?.value;
            if json {
                print_json(&args);
            } else {
                for a in &args.args {
                    outln!("{a}");
                }
            }
        }
    }
    Ok(())
}

async fn review(dirs: &Dirs, cmd: ReviewCmd) -> Result<()> {
    match cmd {
        ReviewCmd::List { json } => {
            let list = summaries(dirs).await?;
            if json {
                print_json(&list);
            } else if list.is_empty() {
                outln!("no pending reviews");
            } else {
                for r in list {
                    print_summary(&r);
                }
            }
        }
        ReviewCmd::Show { id } => {
            let diff: String = ask(dirs, ReviewShow { id }).await?.value;
            out!("{diff}");
        }
        ReviewCmd::Accept { id, content_file } => {
            let content = match content_file {
                Some(f) => Some(crate::local::bounded_text(Some(&f))?),
                None => None,
            };
            // Looked up first: once decided, the review and why it is read-only are gone.
            let note = read_only_note(dirs, id).await;
            let accept = ReviewAccept {
                id,
                revision: None,
                content,
            };
            ask(dirs, accept).await?;
            outln!("accepted review {id}{note}");
        }
        ReviewCmd::Reject { id, reason } => {
            // Looked up first, as for accept: once decided, the review is gone.
            let note = unheard_note(dirs, id, reason.as_deref()).await;
            ask(dirs, ReviewReject { id, reason }).await?;
            outln!("rejected review {id}{note}");
        }
        ReviewCmd::Wait { file, timeout } => {
            // As `propose` and `mention` take it: relative to where the command runs.
            let file = match file {
                Some(f) => Some(utf8(&absolute(Path::new(&f))?)?.to_owned()),
                None => None,
            };
            let timeout_ms = timeout.saturating_mul(1000);
            let r = ask(dirs, ReviewWait { file, timeout_ms }).await?;
            outln!("{}", serde_json::to_string(&r.value).unwrap_or_default());
        }
    }
    Ok(())
}

/// The pending reviews, as `redline review list` prints them.
async fn summaries(dirs: &Dirs) -> Result<Vec<Summary>> {
    let details = ask(dirs, ReviewsList {}).await?.value;
    Ok(details.iter().map(Summary::from).collect())
}

/// That `reason` reaches nobody, when review `id`'s asker cannot hear one (an IDE protocol's
/// rejection carries none): the user would otherwise think the CLI was told.
async fn unheard_note(dirs: &Dirs, id: u64, reason: Option<&str>) -> String {
    if reason.is_none_or(|r| r.trim().is_empty()) {
        return String::new();
    }
    let list = summaries(dirs).await.unwrap_or_default();
    match list.iter().find(|r| r.id == id) {
        Some(r) if !r.reason_heard => {
            " (its CLI's protocol carries no reason: the reason was not sent)".into()
        }
        _ => String::new(),
    }
}

/// Why accepting review `id` writes nothing, when it does not (`: nothing is written…`).
async fn read_only_note(dirs: &Dirs, id: u64) -> String {
    let list = summaries(dirs).await.unwrap_or_default();
    list.iter()
        .find(|r| r.id == id)
        .and_then(|r| r.read_only.as_deref())
        .map(|why| format!(" ({})", why.trim_end_matches('.')))
        .unwrap_or_default()
}
