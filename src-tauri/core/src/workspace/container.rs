//! Containers: the per-workspace opt-in that lets an unmodified CLI inside Docker or Podman reach
//! the workspace's server on the host (bridge address, discovery dirs made for containers, the
//! container-path mapping, and the `docker run` arguments that wire it all).

use crate::clients::{self, Cli};
use crate::error::Result;
use crate::platform::dirs::Dirs;
use crate::workspace::WorkspaceError;
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;
use std::path::{Component, Path, PathBuf};

/// The name a CLI in a container connects to (Gemini CLI with no fallback, Qwen Code when it
/// resolves, Claude Code when `CLAUDE_CODE_IDE_HOST_OVERRIDE` names it).
pub const HOST_NAME: &str = "host.docker.internal";

/// Host interfaces a container reaches the host on, in the order they are tried: Docker's
/// default bridge, Podman's (netavark), Podman's older CNI one.
pub const BRIDGES: &[&str] = &["docker0", "podman0", "cni-podman0"];

/// The container user's home when none is given: where the CLIs under a home look for files.
pub const DEFAULT_HOME: &str = "/root";

/// A workspace's container settings, persisted in the config; present means on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Containers {
    /// The host address to listen on; `None`: the bridge interface's, looked up at start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<Ipv4Addr>,
    /// Container paths the workspace is mounted at, other than its own path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
}

/// The host's network interfaces, injected so tests feed their own.
pub trait Interfaces: Send + Sync + 'static {
    /// Every (interface name, IPv4 address) pair on this host.
    fn ipv4(&self) -> Vec<(String, Ipv4Addr)>;
}

/// The operating system's interfaces.
pub struct OsInterfaces;

impl Interfaces for OsInterfaces {
    fn ipv4(&self) -> Vec<(String, Ipv4Addr)> {
        let found = if_addrs::get_if_addrs().unwrap_or_else(|e| {
            tracing::warn!("could not list network interfaces: {e}");
            Vec::new()
        });
        found
            .into_iter()
            .filter_map(|i| match i.addr {
                if_addrs::IfAddr::V4(v4) => Some((i.name, v4.ip)),
                if_addrs::IfAddr::V6(_) => None,
            })
            .collect()
    }
}

/// An address a listener may use: a single host address, never a wildcard or a group.
pub fn check_address(addr: Ipv4Addr) -> Result<Ipv4Addr, WorkspaceError> {
    if addr.is_unspecified() || addr.is_broadcast() || addr.is_multicast() {
        return Err(WorkspaceError::ContainerAddress(addr.to_string()));
    }
    Ok(addr)
}

/// The address the workspace's container listener binds: `given`, else the first bridge found.
pub fn bridge_address(
    given: Option<Ipv4Addr>,
    ifaces: &dyn Interfaces,
) -> Result<Ipv4Addr, WorkspaceError> {
    if let Some(addr) = given {
        return check_address(addr);
    }
    let found = ifaces.ipv4();
    BRIDGES
        .iter()
        .find_map(|bridge| {
            found
                .iter()
                .find(|(name, addr)| name == bridge && check_address(*addr).is_ok())
        })
        .map(|(_, addr)| *addr)
        .ok_or(WorkspaceError::NoContainerBridge)
}

/// A container path as the config keeps it: absolute, no `.`/`..`, no trailing slash, not `/`,
/// and neither inside nor around the host path (a path under both would be ambiguous).
/// `None` when it is the host path itself (nothing to map).
pub fn check_path(container_path: &str, host: &Path) -> Result<Option<String>, WorkspaceError> {
    let bad = || WorkspaceError::ContainerPath(container_path.to_owned());
    let p = Path::new(container_path);
    if !container_path.starts_with('/') {
        return Err(bad());
    }
    let mut normal = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::RootDir => {}
            Component::Normal(s) => normal.push(s),
            _ => return Err(bad()),
        }
    }
    if normal == Path::new("/") {
        return Err(bad());
    }
    if normal == host {
        return Ok(None);
    }
    if normal.starts_with(host) || host.starts_with(&normal) {
        return Err(bad());
    }
    Ok(Some(normal.to_string_lossy().into_owned()))
}

/// `file_path` under one of `container_paths`, as the host path it stands for; `None` when it is
/// under none. Lexical: the result is confined by `Workspace::resolve` like any other path.
pub fn to_host(file_path: &str, host: &Path, container_paths: &[String]) -> Option<String> {
    let p = Path::new(file_path);
    container_paths.iter().find_map(|c| {
        let rest = p.strip_prefix(c).ok()?;
        let mapped = if rest.as_os_str().is_empty() {
            host.to_path_buf()
        } else {
            host.join(rest)
        };
        Some(mapped.to_string_lossy().into_owned())
    })
}

/// A stable short hash for directory names (they end up in users' devcontainer.json).
pub(crate) fn fnv(s: &str) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h ^ (h >> 32)) as u32
}

fn slug(path: &str) -> String {
    let name: String = Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(32)
        .collect();
    format!("{name}-{:08x}", fnv(path))
}

/// The discovery directories made for containers that see workspace `host` at `container_path`.
/// Never the host's own: a container's CLI may delete what it finds (Qwen Code removes a lock
/// whose `ppid` is not alive in its own PID namespace). Stable, so a running container's mounts
/// keep working across Redline restarts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerDirs {
    pub root: PathBuf,
    pub container_path: String,
}

impl ContainerDirs {
    pub fn new(dirs: &Dirs, host: &Path, container_path: &str) -> ContainerDirs {
        let host_str = host.to_string_lossy();
        ContainerDirs {
            root: containers_dir(dirs)
                .join(slug(&host_str))
                .join(slug(container_path)),
            container_path: container_path.to_owned(),
        }
    }

    /// The directory mounted where `cli` looks inside the container.
    pub fn dir(&self, cli: &Cli) -> PathBuf {
        self.root.join(cli.id)
    }

    /// The directory holding the workspace's socket for containers (Copilot CLI's transport),
    /// shared by every place the workspace is seen at; mounted at `CONTAINER_SOCKET_DIR`. Only
    /// that socket is in it: the control socket beside the host's is never mounted.
    pub fn socket_dir(&self) -> PathBuf {
        self.root
            .parent()
            .map(|ws| ws.join("socket"))
            .unwrap_or_else(|| self.root.join("socket"))
    }

    /// Creates the directories (0700): a `-v` of a missing source would make Docker create it
    /// owned by root.
    pub fn ensure(&self) -> Result<()> {
        for cli in clients::served().filter(|c| c.ide.reaches_host_from_containers()) {
            crate::platform::private_file::ensure_dir(&self.dir(&cli))?;
        }
        crate::platform::private_file::ensure_dir(&self.socket_dir())
    }
}

/// Where a container sees the workspace's socket directory.
pub const CONTAINER_SOCKET_DIR: &str = "/tmp/redline";
/// The socket's name in that directory.
pub const SOCKET_NAME: &str = "copilot.sock";

/// The root of every container discovery directory.
pub fn containers_dir(dirs: &Dirs) -> PathBuf {
    dirs.runtime.join("containers")
}

/// One bind mount of a `docker run`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mount {
    pub source: PathBuf,
    pub target: String,
    pub read_only: bool,
}

/// What `redline container args` prints: everything `docker run` / `podman run` needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunArgs {
    /// `host.docker.internal:<ADDR or host-gateway>`.
    pub add_host: String,
    pub mounts: Vec<Mount>,
    pub env: Vec<(String, String)>,
    pub workdir: String,
    /// The same, one argument per item, ready for `docker run $(…)`.
    pub args: Vec<String>,
}

impl RunArgs {
    /// `address`: where Redline listens for containers, or `None` for Docker's `host-gateway`.
    /// 127.0.0.1 is Docker Desktop's case (it forwards host.docker.internal to the host's
    /// loopback): inside the container 127.0.0.1 would be the container itself.
    pub fn new(
        address: Option<Ipv4Addr>,
        host: &Path,
        place: &ContainerDirs,
        container_home: &str,
    ) -> RunArgs {
        let target = match address {
            Some(a) if a != Ipv4Addr::LOCALHOST => a.to_string(),
            _ => "host-gateway".to_owned(),
        };
        let add_host = format!("{HOST_NAME}:{target}");
        // Read-only: a CLI in the container cannot delete or rewrite what Redline wrote.
        let mut mounts: Vec<Mount> = clients::served()
            .filter(|cli| cli.ide.reaches_host_from_containers())
            .map(|cli| Mount {
                source: place.dir(&cli),
                target: cli.ide.discovery.dir.in_container(container_home),
                read_only: true,
            })
            .collect();
        // A CLI that reaches its server by a socket path (Copilot CLI) needs the socket inside.
        if clients::served().any(|c| c.ide.container.host == clients::ContainerHost::SocketOnly) {
            mounts.push(Mount {
                source: place.socket_dir(),
                target: CONTAINER_SOCKET_DIR.to_owned(),
                read_only: false,
            });
        }
        mounts.push(Mount {
            source: host.to_owned(),
            target: place.container_path.clone(),
            read_only: false,
        });
        // No secret: the port and token stay in the mounted lock, which follows restarts and
        // rotations.
        let env: Vec<(String, String)> = clients::served()
            .filter_map(|cli| cli.ide.container.host_var)
            .map(|var| (var.to_owned(), HOST_NAME.to_owned()))
            .collect();
        let mut args = vec!["--add-host".to_owned(), add_host.clone()];
        for m in &mounts {
            args.push("-v".into());
            let ro = if m.read_only { ":ro" } else { "" };
            args.push(format!("{}:{}{ro}", m.source.display(), m.target));
        }
        for (k, v) in &env {
            args.push("-e".into());
            args.push(format!("{k}={v}"));
        }
        args.push("-w".into());
        args.push(place.container_path.clone());
        RunArgs {
            add_host,
            mounts,
            env,
            workdir: place.container_path.clone(),
            args,
        }
    }
}

/// Fails unless `addr` can be listened on here (an address of this host).
/// Containers turned on for a workspace whose settings are `now`: listening on `address`, else on
/// the bridge's, checked to be bindable here; the container paths mapped so far are kept. Saved
/// as found: the next start listens there even if the bridge is not up by then.
pub async fn turned_on(
    now: Option<&Containers>,
    address: Option<Ipv4Addr>,
    ifaces: &dyn Interfaces,
) -> Result<Containers> {
    let addr = bridge_address(address, ifaces)?;
    probe(addr).await?;
    Ok(Containers {
        address: Some(addr),
        paths: now.map(|c| c.paths.clone()).unwrap_or_default(),
    })
}

pub async fn probe(addr: Ipv4Addr) -> Result<(), WorkspaceError> {
    tokio::net::TcpListener::bind((addr, 0))
        .await
        .map(drop)
        .map_err(|e| WorkspaceError::ContainerAddress(format!("{addr} ({e})")))
}

/// The run arguments for workspace `ws` from its container settings (a running instance passes
/// where its server listens for containers). Returns the container path it newly mapped, if
/// any: the caller saves the config and announces it.
pub fn run_args(
    containers: &mut Containers,
    dirs: &Dirs,
    interfaces: &dyn Interfaces,
    ws: &Path,
    container_path: Option<&str>,
    home: &str,
    listening: Option<(Ipv4Addr, u16)>,
) -> Result<(RunArgs, Option<String>)> {
    let mapped = match container_path {
        Some(cp) => check_path(cp, ws)?,
        None => None,
    };
    let mut added = None;
    if let Some(cp) = &mapped {
        if !containers.paths.contains(cp) {
            containers.paths.push(cp.clone());
            added = Some(cp.clone());
        }
    }
    let seen_at = mapped.unwrap_or_else(|| ws.to_string_lossy().into_owned());
    let place = ContainerDirs::new(dirs, ws, &seen_at);
    place.ensure()?;
    let address = listening
        .map(|(a, _)| a)
        .or(containers.address)
        .or_else(|| bridge_address(None, interfaces).ok());
    Ok((RunArgs::new(address, ws, &place, home), added))
}

#[cfg(all(test, unix))]
mod tests;
