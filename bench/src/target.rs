//! Starting and stopping the two servers under test.

use crate::mcp::Endpoint;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod discovery;

/// A child process that is sent SIGTERM (then SIGKILL after a grace period) when dropped.
pub struct Server {
    pub name: String,
    child: Option<Child>,
    pub log: PathBuf,
    lines: Option<mpsc::Receiver<String>>,
}

impl Server {
    fn new(name: &str, mut child: Child, log: PathBuf) -> Server {
        let (tx, rx) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines() {
                    let Ok(line) = line else { break };
                    // Keep draining after the reader is gone so the child never blocks.
                    let _ = tx.send(line);
                }
            });
        }
        Server {
            name: name.to_string(),
            child: Some(child),
            log,
            lines: Some(rx),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(|c| c.id()).unwrap_or(0)
    }

    /// Waits for the first stdout line for which `accept` returns Some.
    fn wait_line<T>(
        &mut self,
        timeout: Duration,
        mut accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<T> {
        let deadline = Instant::now() + timeout;
        let rx = self.lines.as_ref().expect("stdout reader");
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    if let Some(v) = accept(line.trim()) {
                        return Ok(v);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    bail!(
                        "{}: not ready within {timeout:?}\n--- its stderr ({}):\n{}",
                        self.name,
                        self.log.display(),
                        tail(&self.log, 3000)
                    )
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .as_mut()
                        .and_then(|c| c.try_wait().ok().flatten());
                    bail!(
                        "{}: stdout closed before it was ready (exit: {status:?})\n--- its stderr ({}):\n{}",
                        self.name,
                        self.log.display(),
                        tail(&self.log, 3000)
                    )
                }
            }
        }
    }

    /// SIGTERM, wait up to 5 s, then SIGKILL. Returns how it ended.
    pub fn stop(&mut self) -> String {
        let Some(mut child) = self.child.take() else {
            return "already stopped".into();
        };
        if let Ok(Some(st)) = child.try_wait() {
            return format!("had already exited ({st})");
        }
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(st)) = child.try_wait() {
                return format!("stopped on SIGTERM ({st})");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        "did not stop within 5 s of SIGTERM: killed".into()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

pub fn tail(path: &Path, max: usize) -> String {
    let mut s = String::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let _ = f.read_to_string(&mut s);
    }
    if s.len() > max {
        let mut cut = s.len() - max;
        while !s.is_char_boundary(cut) {
            cut += 1;
        }
        s = format!("…{}", &s[cut..]);
    }
    s
}

pub fn random_token() -> Result<String> {
    let mut b = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .context("read /dev/urandom")?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// A scratch directory tree removed on drop (unless `keep`).
pub struct Scratch {
    pub root: PathBuf,
    pub keep: bool,
}

impl Scratch {
    pub fn new() -> Result<Scratch> {
        let base = std::env::temp_dir();
        let root = base.join(format!(
            "redline-bench-{}-{}",
            std::process::id(),
            random_token()?.get(..8).unwrap_or("x")
        ));
        std::fs::create_dir_all(&root)?;
        let root = root.canonicalize()?;
        Ok(Scratch { root, keep: false })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

/// Redline started isolated: its own HOME, TMPDIR, XDG_CONFIG_HOME, XDG_RUNTIME_DIR, XDG_DATA_HOME,
/// QWEN_HOME under `scratch`, one workspace `ws`.
pub struct RedlineTarget {
    pub server: Server,
    pub endpoint: Endpoint,
    pub discovery: PathBuf,
    pub(crate) bin: PathBuf,
    pub(crate) dirs: RedlineDirs,
}

pub(crate) fn redline_cmd(bin: &Path, dirs: &RedlineDirs) -> Command {
    let mut c = Command::new(bin);
    c.env("HOME", &dirs.home)
        .env("TMPDIR", &dirs.tmp)
        .env("XDG_CONFIG_HOME", &dirs.config)
        .env("XDG_RUNTIME_DIR", &dirs.runtime)
        // Where Redline keeps its data (the workspaces' checkpoint stores): never the user's.
        .env("XDG_DATA_HOME", dirs.home.join(".local").join("share"))
        .env("QWEN_HOME", dirs.home.join(".qwen"))
        .env("CLAUDE_CONFIG_DIR", dirs.home.join(".claude"))
        // Node's os.tmpdir() reads TMPDIR first; drop the others so nothing disagrees.
        .env_remove("TMP")
        .env_remove("TEMP")
        // Keep the bench away from any real keyring of the user running it.
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .stdin(Stdio::null());
    c
}

pub struct RedlineDirs {
    pub home: PathBuf,
    pub tmp: PathBuf,
    pub config: PathBuf,
    pub runtime: PathBuf,
}

impl RedlineDirs {
    pub fn create(root: &Path) -> Result<RedlineDirs> {
        let d = RedlineDirs {
            home: root.join("home"),
            tmp: root.join("tmp"),
            config: root.join("config"),
            runtime: root.join("runtime"),
        };
        for p in [&d.home, &d.tmp, &d.config, &d.runtime] {
            std::fs::create_dir_all(p)?;
        }
        // Redline refuses a runtime dir others can enter (Unix permissions; Windows uses a pipe).
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&d.runtime, std::fs::Permissions::from_mode(0o700))?;
        }
        Ok(d)
    }
}

/// Redline on `ws` (added as its workspace first), served headless from `scratch`, once it says
/// `ready`; its MCP endpoint is read from the discovery file it wrote.
pub fn start_redline(
    bin: &Path,
    scratch: &Path,
    ws: &Path,
    ready_timeout: Duration,
) -> Result<RedlineTarget> {
    if !bin.is_file() {
        bail!(
            "redline binary {} not found (build it with `cargo build --release --bins`, or pass --redline-bin)",
            bin.display()
        );
    }
    let dirs = RedlineDirs::create(&scratch.join("redline"))?;
    add_workspace(bin, &dirs, ws)?;
    let log = scratch.join("redline.stderr.log");
    let child = redline_cmd(bin, &dirs)
        .args(["serve", "--headless"])
        .env(
            "RUST_LOG",
            std::env::var("BENCH_REDLINE_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log)?)
        .spawn()
        .with_context(|| format!("spawn {} serve --headless", bin.display()))?;
    let mut server = Server::new("redline", child, log);
    server.wait_line(ready_timeout, |l| (l == "ready").then_some(()))?;
    let found = discovery::read(&dirs.tmp, server.pid())?;
    Ok(RedlineTarget {
        server,
        endpoint: Endpoint {
            addr: SocketAddr::from(([127, 0, 0, 1], found.port)),
            token: found.token,
        },
        discovery: found.file,
        bin: bin.to_owned(),
        dirs,
    })
}

/// `redline workspace add WS`, in the bench's own Redline dirs.
fn add_workspace(bin: &Path, dirs: &RedlineDirs, ws: &Path) -> Result<()> {
    let out = redline_cmd(bin, dirs)
        .args(["workspace", "add"])
        .arg(ws)
        .output()
        .with_context(|| format!("run {} workspace add", bin.display()))?;
    if !out.status.success() {
        bail!(
            "`redline workspace add {}` failed ({}):\n{}{}",
            ws.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// The Redline binary a bench runs: `--redline-bin`, else `$REDLINE_BIN`, else the release build.
pub fn redline_bin(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("REDLINE_BIN").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("target/release/redline"))
}

pub fn start_reference(
    node: &str,
    script: &Path,
    json_response: bool,
    scratch: &Path,
    ready_timeout: Duration,
) -> Result<(Server, Endpoint)> {
    if !script.is_file() {
        bail!(
            "reference server {} not found (pass --reference)",
            script.display()
        );
    }
    let modules = script
        .parent()
        .map(|p| {
            p.join("node_modules")
                .join("@modelcontextprotocol")
                .join("sdk")
        })
        .unwrap_or_default();
    if !modules.is_dir() {
        bail!(
            "{} missing: run `npm install --no-audit --no-fund` in {}",
            modules.display(),
            script
                .parent()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        );
    }
    let token = random_token()?;
    let log = scratch.join("reference.stderr.log");
    let child = Command::new(node)
        .arg(script)
        .env("REF_TOKEN", &token)
        .env("NODE_ENV", "production")
        .env("REF_JSON_RESPONSE", if json_response { "1" } else { "0" })
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log)?)
        .spawn()
        .with_context(|| format!("spawn {node} {}", script.display()))?;
    let mut server = Server::new("reference", child, log);
    let port = server.wait_line(ready_timeout, |l| {
        serde_json::from_str::<serde_json::Value>(l)
            .ok()?
            .get("port")?
            .as_u64()
    })?;
    Ok((
        server,
        Endpoint {
            addr: SocketAddr::from(([127, 0, 0, 1], port as u16)),
            token,
        },
    ))
}

/// Node's version string, for the report.
pub fn node_version(node: &str) -> String {
    Command::new(node)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}
