//! Parses the command line and prints results; every action is the core's.

use clap::{Parser, Subcommand};
use redline_core::api::status::{Pin, Status};
use redline_core::doctor;
use redline_core::platform::clock::SystemClock;
use redline_core::platform::dirs::Dirs;
use redline_core::platform::keyring::Tokens;
use redline_core::platform::process::{own_pid, OsProcessTable};
use redline_core::platform::stop::StopSignals;
use redline_core::review::Summary;
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::instance::{Instance, World};
use redline_core::surfaces::shell::{self, Shell};
use redline_core::workspace::config::{self, Config};
use redline_core::{Error, Result};
use serde_json::Value;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Parser)]
#[command(name = "redline", version, about = "Diff review for AI coding CLIs")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the companion servers of the enabled workspaces until stopped (what `redline` alone
    /// does, with a tray and the review window).
    Serve {
        /// No window and no tray: the servers and the control channel only.
        #[arg(long)]
        headless: bool,
    },
    /// Add, remove or list workspaces.
    #[command(subcommand)]
    Workspace(WorkspaceCmd),
    /// Ports, discovery files, clients and pending reviews of each workspace.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Pending reviews: list, show, accept, reject, wait.
    #[command(subcommand)]
    Review(ReviewCmd),
    /// Workspace tokens.
    #[command(subcommand)]
    Token(TokenCmd),
    /// Print the exports that pin a CLI in this terminal to a workspace's server.
    Env {
        #[arg(long, default_value = "sh")]
        shell: Shell,
        /// A path inside the workspace (default: the current directory).
        path: Option<PathBuf>,
    },
    /// Whether Gemini CLI, Qwen Code and Claude Code started in DIR would connect, and if not,
    /// why and the one command that fixes it. Exits 1 if an installed CLI would not connect.
    Doctor {
        /// The directory the CLI would start in (default: the current directory).
        dir: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Let CLIs inside Docker or Podman containers reach a workspace (off by default).
    #[command(subcommand)]
    Container(ContainerCmd),
    /// Stop the running instance.
    Quit,
}

#[derive(Subcommand)]
enum ContainerCmd {
    /// Also listen on the container bridge's host address (docker0, Podman's bridge, or
    /// ADDR) and accept `host.docker.internal`.
    Enable {
        path: PathBuf,
        /// The host address containers reach (default: the bridge interface's).
        #[arg(long)]
        address: Option<Ipv4Addr>,
    },
    /// Back to loopback only.
    Disable { path: PathBuf },
    /// Print `docker run` / `podman run` arguments, one per line: `docker run $(redline
    /// container args) IMAGE …`.
    Args {
        /// A path in the workspace (default: the current directory).
        path: Option<PathBuf>,
        /// Where the container sees the workspace (default: at its own path).
        #[arg(long = "path", value_name = "CONTAINER_PATH")]
        container_path: Option<String>,
        /// The CLI's home directory inside the container (Qwen Code looks in ~/.qwen/ide).
        #[arg(long, default_value = redline_core::workspace::container::DEFAULT_HOME)]
        home: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum WorkspaceCmd {
    Add {
        path: PathBuf,
    },
    Remove {
        path: PathBuf,
    },
    /// Turn a workspace on: its server starts and its discovery files are written.
    Enable {
        path: PathBuf,
    },
    /// Turn a workspace off: its server stops and its discovery files are removed.
    Disable {
        path: PathBuf,
    },
    List {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum ReviewCmd {
    List {
        #[arg(long)]
        json: bool,
    },
    /// A unified diff of the original and the current text.
    Show {
        id: u64,
    },
    /// Accept with the current text, or with a file's text as the edited result.
    Accept {
        id: u64,
        #[arg(long)]
        content_file: Option<PathBuf>,
    },
    Reject {
        id: u64,
    },
    /// Wait for a pending review and print it as JSON.
    Wait {
        /// Only a review of this file path (as the CLI sent it).
        #[arg(long)]
        file: Option<String>,
        /// Seconds to wait before giving up.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
    },
}

#[derive(Subcommand)]
enum TokenCmd {
    /// Replace a workspace's token and rewrite its discovery files.
    Rotate { workspace: PathBuf },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(cli.command, None | Some(Command::Serve { headless: false })) {
        redline_app::prepare_process();
    }
    // The desktop app runs Tauri's own event loop and runtime: start it outside ours.
    if matches!(cli.command, None | Some(Command::Serve { headless: false })) {
        init_logging();
        return match redline_app::run(Dirs::from_env()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("redline: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("redline: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli
        .command
        .unwrap_or(Command::Serve { headless: true })))
    {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("redline: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a command; `Ok(false)` is a check that found a problem (exit status 1).
async fn run(command: Command) -> Result<bool> {
    let dirs = Dirs::from_env();
    if let Command::Doctor { dir, json } = command {
        return doctor(&dirs, dir, json).await;
    }
    run_command(&dirs, command).await.map(|()| true)
}

async fn doctor(dirs: &Dirs, dir: Option<PathBuf>, json: bool) -> Result<bool> {
    let dir = match dir {
        Some(d) => d,
        None => std::env::current_dir().map_err(|e| Error::io(".", e))?,
    };
    let dir = config::canonical_dir(&dir)?;
    let status: Option<Status> = match control::call(dirs, &Request::Status).await {
        Ok(v) => Some(decode(v)?),
        Err(Error::NotRunning) => None,
        Err(e) => return Err(e),
    };
    let config = Config::load(&dirs.config_file())?;
    let report = doctor::diagnose(&doctor::Facts::from_os(dir, status, config)).await;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", doctor::render(&report));
    }
    Ok(report.ok)
}

async fn run_command(dirs: &Dirs, command: Command) -> Result<()> {
    let dirs = dirs.clone();
    match command {
        Command::Serve { headless: _ } => serve(dirs).await,
        Command::Workspace(cmd) => workspace(&dirs, cmd).await,
        Command::Status { json } => {
            let status: Status = decode(control::call(&dirs, &Request::Status).await?)?;
            print_status(&status, json);
            Ok(())
        }
        Command::Review(cmd) => review(&dirs, cmd).await,
        Command::Token(TokenCmd::Rotate { workspace }) => {
            let path = absolute(&workspace)?;
            control::call(&dirs, &Request::TokenRotate { path }).await?;
            println!("token rotated; CLIs already connected need `/ide enable` again");
            Ok(())
        }
        Command::Env { shell: sh, path } => {
            let path = match path {
                Some(p) => absolute(&p)?,
                None => std::env::current_dir().map_err(|e| Error::io(".", e))?,
            };
            let pin: Pin = decode(control::call(&dirs, &Request::Pin { path }).await?)?;
            print!("{}", shell::exports(&pin, sh));
            Ok(())
        }
        Command::Container(cmd) => container(&dirs, cmd).await,
        Command::Quit => {
            control::call(&dirs, &Request::Quit).await?;
            Ok(())
        }
        Command::Doctor { .. } => Ok(()),
    }
}

async fn container(dirs: &Dirs, cmd: ContainerCmd) -> Result<()> {
    use redline_core::workspace::container::{self as ctr, OsInterfaces, RunArgs};
    match cmd {
        ContainerCmd::Enable { path, address } => {
            let path = absolute(&path)?;
            let req = Request::ContainerEnable {
                path: path.clone(),
                address,
            };
            match control::call(dirs, &req).await {
                Err(Error::NotRunning) => {
                    let mut c = Config::load(&dirs.config_file())?;
                    let path = c.known_path(&path)?;
                    let addr = ctr::bridge_address(address, &OsInterfaces)?;
                    ctr::probe(addr).await?;
                    if let Some(e) = c.find_mut(&path) {
                        let paths = e.containers.take().map(|c| c.paths).unwrap_or_default();
                        e.containers = Some(ctr::Containers {
                            address: Some(addr),
                            paths,
                        });
                    }
                    c.save(&dirs.config_file())?;
                    println!(
                        "containers on for {} via {addr} (starts with the next `redline serve`)",
                        path.display()
                    );
                }
                Err(e) => return Err(e),
                Ok(v) => {
                    let path: PathBuf = decode(v)?;
                    let status: Status = decode(control::call(dirs, &Request::Status).await?)?;
                    let w = status.workspaces.iter().find(|w| w.path == path);
                    if w.is_some_and(|w| w.port.is_none()) {
                        println!(
                            "containers on for {} (the workspace is off; they apply when it is on)",
                            path.display()
                        );
                        return Ok(());
                    }
                    match w.and_then(|w| w.containers.as_ref()) {
                        Some(redline_core::api::status::ContainerStatus {
                            address: Some(a),
                            port: Some(p),
                            ..
                        }) => println!(
                            "containers on for {}: {a}:{p} (as host.docker.internal); \
                             CLIs already connected need `/ide enable` again",
                            path.display()
                        ),
                        Some(c) => println!(
                            "containers on for {}, but not reachable: {}",
                            path.display(),
                            c.error.as_deref().unwrap_or("unknown")
                        ),
                        None => println!("containers on for {}", path.display()),
                    }
                }
            }
        }
        ContainerCmd::Disable { path } => {
            let path = absolute(&path)?;
            match control::call(dirs, &Request::ContainerDisable { path: path.clone() }).await {
                Err(Error::NotRunning) => {
                    let mut c = Config::load(&dirs.config_file())?;
                    let path = c.known_path(&path)?;
                    if let Some(e) = c.find_mut(&path) {
                        e.containers = None;
                    }
                    c.save(&dirs.config_file())?;
                    println!("containers off for {}", path.display());
                }
                Err(e) => return Err(e),
                Ok(v) => {
                    let path: PathBuf = decode(v)?;
                    println!("containers off for {}: loopback only", path.display());
                }
            }
        }
        ContainerCmd::Args {
            path,
            container_path,
            home,
            json,
        } => {
            let path = match path {
                Some(p) => absolute(&p)?,
                None => std::env::current_dir().map_err(|e| Error::io(".", e))?,
            };
            let req = Request::ContainerArgs {
                path: path.clone(),
                container_path: container_path.clone(),
                home: home.clone(),
            };
            let args: RunArgs = match control::call(dirs, &req).await {
                Err(Error::NotRunning) => {
                    let mut c = Config::load(&dirs.config_file())?;
                    let ws = c.innermost(&path)?;
                    let (args, added) = redline_core::workspace::container::run_args(
                        c.containers_mut(&ws)?,
                        dirs,
                        &OsInterfaces,
                        &ws,
                        container_path.as_deref(),
                        &home,
                        None,
                    )?;
                    if added.is_some() {
                        c.save(&dirs.config_file())?;
                    }
                    args
                }
                Err(e) => return Err(e),
                Ok(v) => decode(v)?,
            };
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&args).unwrap_or_default()
                );
            } else {
                for a in &args.args {
                    println!("{a}");
                }
            }
        }
    }
    Ok(())
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

async fn serve(dirs: Dirs) -> Result<()> {
    init_logging();
    // The control socket first: a second instance stops here, before touching any file.
    let listener = control::bind(&dirs).await?;
    let mut signals = StopSignals::install().map_err(|e| Error::io("signals", e))?;
    let world = World {
        dirs,
        pid: own_pid(),
        procs: Arc::new(OsProcessTable),
        clock: Arc::new(SystemClock),
        tokens: Tokens::os(),
        interfaces: Arc::new(redline_core::workspace::container::OsInterfaces),
    };
    let instance = Instance::start(world).await?;
    tokio::spawn(control::serve(instance.clone(), listener));
    println!("ready");
    tokio::select! {
        _ = signals.recv() => {}
        _ = instance.quit_requested() => {}
    }
    tracing::info!("stopping: servers down, discovery files removed");
    instance.shutdown().await;
    Ok(())
}

async fn workspace(dirs: &Dirs, cmd: WorkspaceCmd) -> Result<()> {
    match cmd {
        WorkspaceCmd::Add { path } => {
            let path = config::canonical_dir(&path)?;
            match control::call(dirs, &Request::WorkspaceAdd { path: path.clone() }).await {
                Err(Error::NotRunning) => {
                    let mut c = Config::load(&dirs.config_file())?;
                    c.add(path.clone())?;
                    c.save(&dirs.config_file())?;
                    println!(
                        "added {} (starts with the next `redline serve`)",
                        path.display()
                    );
                }
                Err(e) => return Err(e),
                Ok(_) => println!("added {}", path.display()),
            }
            Ok(())
        }
        WorkspaceCmd::Remove { path } => {
            let path = absolute(&path)?;
            match control::call(dirs, &Request::WorkspaceRemove { path: path.clone() }).await {
                Err(Error::NotRunning) => {
                    let mut c = Config::load(&dirs.config_file())?;
                    let path = c.known_path(&path)?;
                    c.remove(&path)?;
                    c.save(&dirs.config_file())?;
                    // Without a keyring answer the token stays; it is useless without the files.
                    let _ = Tokens::os().forget(&path.to_string_lossy());
                    println!("removed {}", path.display());
                }
                Err(e) => return Err(e),
                Ok(v) => println!("removed {}", v.as_str().unwrap_or_default()),
            }
            Ok(())
        }
        WorkspaceCmd::Enable { ref path } | WorkspaceCmd::Disable { ref path } => {
            let enabled = matches!(cmd, WorkspaceCmd::Enable { .. });
            let path = absolute(path)?;
            let req = Request::WorkspaceEnable {
                path: path.clone(),
                enabled,
            };
            match control::call(dirs, &req).await {
                Err(Error::NotRunning) => {
                    let mut c = Config::load(&dirs.config_file())?;
                    let known = c.known_path(&path)?;
                    if let Some(w) = c.find_mut(&known) {
                        w.enabled = enabled;
                    }
                    c.save(&dirs.config_file())?;
                }
                Err(e) => return Err(e),
                Ok(_) => {}
            }
            let state = if enabled { "on" } else { "off" };
            println!("{} is {state}", path.display());
            Ok(())
        }
        WorkspaceCmd::List { json } => {
            let list: Vec<config::WorkspaceEntry> =
                match control::call(dirs, &Request::WorkspaceList).await {
                    Ok(v) => decode(v)?,
                    Err(Error::NotRunning) => Config::load(&dirs.config_file())?.workspaces,
                    Err(e) => return Err(e),
                };
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&list).unwrap_or_default()
                );
            } else if list.is_empty() {
                println!("no workspaces; add one with `redline workspace add PATH`");
            } else {
                for w in list {
                    let on = if w.enabled { "on " } else { "off" };
                    println!("{on}  {}", w.path.display());
                }
            }
            Ok(())
        }
    }
}

async fn review(dirs: &Dirs, cmd: ReviewCmd) -> Result<()> {
    match cmd {
        ReviewCmd::List { json } => {
            let list: Vec<Summary> = decode(control::call(dirs, &Request::ReviewList).await?)?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&list).unwrap_or_default()
                );
            } else if list.is_empty() {
                println!("no pending reviews");
            } else {
                for r in list {
                    let new = if r.new_file { " (new file)" } else { "" };
                    let file = if r.container {
                        format!("{} (container: {})", r.path.display(), r.file_path)
                    } else {
                        r.file_path.clone()
                    };
                    println!(
                        "{:>4}  +{} -{}  {file}{new}  [{}]",
                        r.id,
                        r.added,
                        r.removed,
                        r.client.label()
                    );
                }
            }
        }
        ReviewCmd::Show { id } => {
            let diff = control::call(dirs, &Request::ReviewShow { id }).await?;
            print!("{}", diff.as_str().unwrap_or_default());
        }
        ReviewCmd::Accept { id, content_file } => {
            let content = match content_file {
                Some(f) => Some(std::fs::read_to_string(&f).map_err(|e| Error::io(&f, e))?),
                None => None,
            };
            control::call(dirs, &Request::ReviewAccept { id, content }).await?;
        }
        ReviewCmd::Reject { id } => {
            control::call(dirs, &Request::ReviewReject { id }).await?;
        }
        ReviewCmd::Wait { file, timeout } => {
            let timeout_ms = timeout.saturating_mul(1000);
            let r = control::call(dirs, &Request::ReviewWait { file, timeout_ms }).await?;
            println!("{r}");
        }
    }
    Ok(())
}

fn print_status(s: &Status, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(s).unwrap_or_default());
        return;
    }
    let keyring = if s.keyring.available {
        "tokens in the OS keyring".to_owned()
    } else {
        format!("keyring {}", s.keyring.detail)
    };
    println!("Redline (pid {}), {keyring}", s.pid);
    if s.workspaces.is_empty() {
        println!("no workspaces; add one with `redline workspace add PATH`");
    }
    for w in &s.workspaces {
        match w.port {
            Some(port) => println!("{}  on  127.0.0.1:{port}", w.path.display()),
            None => println!("{}  off", w.path.display()),
        }
        if let Some(ws_port) = w.ws_port {
            println!("  claude code     ws://127.0.0.1:{ws_port}");
        }
        for f in &w.discovery_files {
            println!("  discovery file  {}", f.display());
        }
        for f in &w.discovery_failures {
            println!("  NOT WRITTEN     {f}");
        }
        for c in &w.clients {
            match &c.process {
                Some(p) => println!(
                    "  client          {} (pid {}{})",
                    p.label(),
                    p.pid,
                    p.cwd
                        .as_deref()
                        .map(|d| format!(", in {d}"))
                        .unwrap_or_default()
                ),
                None => println!("  client          {} {}", c.name, c.version),
            }
        }
        if w.port.is_some() {
            println!("  pending reviews {}", w.pending_reviews);
        }
        if let Some(c) = &w.containers {
            let at = match (c.address, c.port) {
                (Some(a), Some(p)) => format!("on  {a}:{p} as host.docker.internal"),
                (Some(a), None) if w.port.is_none() => format!("on  {a}"),
                (None, _) if w.port.is_none() => "on  (bridge looked up at start)".into(),
                _ => format!(
                    "NOT REACHABLE   {}",
                    c.error.as_deref().unwrap_or("no address")
                ),
            };
            println!("  containers      {at}");
            if let (Some(a), Some(p)) = (c.address, c.ws_port) {
                println!("  containers ws   {a}:{p} as host.docker.internal (Claude Code)");
            }
            for p in &c.paths {
                println!("  container path  {p}");
            }
        }
    }
}

fn decode<T: serde::de::DeserializeOwned>(v: Value) -> Result<T> {
    serde_json::from_value(v).map_err(|e| Error::Control(format!("unexpected answer: {e}")))
}

fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).map_err(|e| Error::io(p, e))
}
