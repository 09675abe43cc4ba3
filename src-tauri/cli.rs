//! Parses the command line and prints results; every action is the core's.

use crate::args::{Cli, Command, ContainerCmd, ReviewCmd, TokenCmd, WorkspaceCmd};
use crate::output::{print_containers_on, print_json, print_status, print_summary};
use crate::request::{absolute, ask, current_dir};
use clap::Parser;
use redline_core::api::status::{Pin, Status};
use redline_core::doctor;
use redline_core::platform::dirs::Dirs;
use redline_core::review::Summary;
use redline_core::runtime::command::{self, Via};
use redline_core::runtime::control::Request;
use redline_core::runtime::instance::World;
use redline_core::runtime::serving::Serving;
use redline_core::surfaces::shell;
use redline_core::workspace::config::{self, WorkspaceEntry};
use redline_core::workspace::container::RunArgs;
use redline_core::{Error, Result};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn main() -> ExitCode {
    let command = match Cli::parse().command {
        None | Some(Command::Serve { headless: false }) => return desktop(),
        Some(command) => command,
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("redline: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let dirs = Dirs::from_env();
    // Local reviews have their own exit statuses: 1 is "rejected", so an error is 2.
    let local = match command {
        Command::Propose(a) => runtime.block_on(crate::local::propose(&dirs, a)),
        Command::Diff(a) => runtime.block_on(crate::local::diff(&dirs, a)),
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
        Ok(verdict) => verdict.into(),
        Err(e) => {
            eprintln!("redline: {e}");
            ExitCode::from(2)
        }
    }
}

fn exit(done: Result<bool>) -> ExitCode {
    match done {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e @ Error::Usage(_)) => {
            eprintln!("redline: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("redline: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The tray and the review window. Tauri runs its own event loop and runtime: started outside ours.
#[cfg(feature = "desktop")]
fn desktop() -> ExitCode {
    redline_app::prepare_process();
    init_logging();
    match redline_app::run(Dirs::from_env()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("redline: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(feature = "desktop"))]
fn desktop() -> ExitCode {
    eprintln!(
        "redline: this build has no desktop window; `redline serve --headless` runs the servers"
    );
    ExitCode::from(2)
}

/// Logs to stderr; `RUST_LOG` overrides the level. Tokens never reach a log line.
fn init_logging() {
    use std::io::IsTerminal;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Colour escapes only for a person at a terminal: never in a file or a journal.
        .with_ansi(std::io::stderr().is_terminal())
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
            println!("ready");
            serving.until_stopped().await;
        }
        Command::Doctor { dir, json } => {
            let dir = dir.map_or_else(current_dir, Ok)?;
            let report = command::diagnose(dirs, dir).await?;
            if json {
                print_json(&report);
            } else {
                print!("{}", doctor::render(&report));
            }
            return Ok(report.ok);
        }
        Command::Workspace(cmd) => workspace(dirs, cmd).await?,
        Command::Status { json } => {
            let status: Status = ask(dirs, Request::Status).await?.decode()?;
            if json {
                print_json(&status);
            } else {
                print_status(&status);
            }
        }
        Command::Review(cmd) => review(dirs, cmd).await?,
        Command::Token(TokenCmd::Rotate { workspace }) => {
            let path = workspace.map_or_else(current_dir, |p| absolute(&p))?;
            ask(dirs, Request::TokenRotate { path }).await?;
            println!("token rotated; CLIs already connected need `/ide enable` again");
        }
        Command::Env { shell: sh, path } => {
            let path = path.map_or_else(current_dir, |p| absolute(&p))?;
            let pin: Pin = ask(dirs, Request::Pin { path }).await?.decode()?;
            print!("{}", shell::exports(&pin, sh));
        }
        Command::Container(cmd) => container(dirs, cmd).await?,
        Command::Quit => {
            ask(dirs, Request::Quit).await?;
        }
        Command::Propose(_) | Command::Diff(_) => {
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
            let path = config::canonical_dir(&path)?;
            let answer = ask(dirs, Request::WorkspaceAdd { path, force }).await?;
            let via = answer.via;
            let path: PathBuf = answer.decode()?;
            match via {
                Via::Instance => println!("added {}", path.display()),
                Via::Stored => println!("added {} {next}", path.display()),
            }
        }
        WorkspaceCmd::Remove { path } => {
            let path = absolute(&path)?;
            let path: PathBuf = ask(dirs, Request::WorkspaceRemove { path })
                .await?
                .decode()?;
            println!("removed {}", path.display());
        }
        WorkspaceCmd::Enable { ref path } | WorkspaceCmd::Disable { ref path } => {
            let enabled = matches!(cmd, WorkspaceCmd::Enable { .. });
            let path = absolute(path)?;
            let req = Request::WorkspaceEnable {
                path: path.clone(),
                enabled,
            };
            ask(dirs, req).await?;
            let state = if enabled { "on" } else { "off" };
            println!("{} is {state}", path.display());
        }
        WorkspaceCmd::List { json } => {
            let list: Vec<WorkspaceEntry> = ask(dirs, Request::WorkspaceList).await?.decode()?;
            if json {
                print_json(&list);
            } else if list.is_empty() {
                println!("no workspaces; add one with `redline workspace add PATH`");
            } else {
                for w in list {
                    let on = if w.enabled { "on " } else { "off" };
                    println!("{on}  {}", w.path.display());
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
            let answer = ask(dirs, Request::ContainerEnable { path, address }).await?;
            let via = answer.via;
            print_containers_on(via, &answer.decode()?);
        }
        ContainerCmd::Disable { path } => {
            let path = absolute(&path)?;
            let answer = ask(dirs, Request::ContainerDisable { path }).await?;
            let via = answer.via;
            let path: PathBuf = answer.decode()?;
            match via {
                Via::Instance => println!("containers off for {}: loopback only", path.display()),
                Via::Stored => println!("containers off for {}", path.display()),
            }
        }
        ContainerCmd::Args {
            path,
            container_path,
            home,
            json,
        } => {
            let path = path.map_or_else(current_dir, |p| absolute(&p))?;
            let req = Request::ContainerArgs {
                path,
                container_path,
                home,
            };
            let args: RunArgs = ask(dirs, req).await?.decode()?;
            if json {
                print_json(&args);
            } else {
                for a in &args.args {
                    println!("{a}");
                }
            }
        }
    }
    Ok(())
}

async fn review(dirs: &Dirs, cmd: ReviewCmd) -> Result<()> {
    match cmd {
        ReviewCmd::List { json } => {
            let list: Vec<Summary> = ask(dirs, Request::ReviewList).await?.decode()?;
            if json {
                print_json(&list);
            } else if list.is_empty() {
                println!("no pending reviews");
            } else {
                for r in list {
                    print_summary(&r);
                }
            }
        }
        ReviewCmd::Show { id } => {
            let diff: String = ask(dirs, Request::ReviewShow { id }).await?.decode()?;
            print!("{diff}");
        }
        ReviewCmd::Accept { id, content_file } => {
            let content = match content_file {
                Some(f) => Some(std::fs::read_to_string(&f).map_err(|e| Error::io(&f, e))?),
                None => None,
            };
            ask(dirs, Request::ReviewAccept { id, content }).await?;
        }
        ReviewCmd::Reject { id } => {
            ask(dirs, Request::ReviewReject { id }).await?;
        }
        ReviewCmd::Wait { file, timeout } => {
            let timeout_ms = timeout.saturating_mul(1000);
            let r = ask(dirs, Request::ReviewWait { file, timeout_ms }).await?;
            println!("{}", r.value);
        }
    }
    Ok(())
}
