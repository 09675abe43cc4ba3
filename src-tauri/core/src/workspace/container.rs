//! Containers: the per-workspace opt-in that lets an unmodified CLI inside Docker or Podman reach
//! the workspace's server on the host (bridge address, discovery dirs made for containers, the
//! container-path mapping, and the `docker run` arguments that wire it all).

use crate::clients::{self, Cli};
use crate::error::{Error, Result};
use crate::platform::dirs::Dirs;
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
pub fn check_address(addr: Ipv4Addr) -> Result<Ipv4Addr> {
    if addr.is_unspecified() || addr.is_broadcast() || addr.is_multicast() {
        return Err(Error::ContainerAddress(addr.to_string()));
    }
    Ok(addr)
}

/// The address the workspace's container listener binds: `given`, else the first bridge found.
pub fn bridge_address(given: Option<Ipv4Addr>, ifaces: &dyn Interfaces) -> Result<Ipv4Addr> {
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
        .ok_or(Error::NoContainerBridge)
}

/// A container path as the config keeps it: absolute, no `.`/`..`, no trailing slash, not `/`,
/// and neither inside nor around the host path (a path under both would be ambiguous).
/// `None` when it is the host path itself (nothing to map).
pub fn check_path(container_path: &str, host: &Path) -> Result<Option<String>> {
    let bad = || Error::ContainerPath(container_path.to_owned());
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
fn fnv(s: &str) -> u32 {
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

    /// Creates the directories (0700): a `-v` of a missing source would make Docker create it
    /// owned by root.
    pub fn ensure(&self) -> Result<()> {
        for cli in &clients::ALL {
            crate::platform::private_file::ensure_dir(&self.dir(cli))?;
        }
        Ok(())
    }
}

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
        let mut mounts: Vec<Mount> = clients::ALL
            .iter()
            .map(|cli| Mount {
                source: place.dir(cli),
                target: cli.discovery.dir.in_container(container_home),
                read_only: true,
            })
            .collect();
        mounts.push(Mount {
            source: host.to_owned(),
            target: place.container_path.clone(),
            read_only: false,
        });
        // No secret: the port and token stay in the mounted lock, which follows restarts and
        // rotations.
        let env: Vec<(String, String)> = clients::ALL
            .iter()
            .filter_map(|cli| cli.container.host_var)
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
pub async fn probe(addr: Ipv4Addr) -> Result<()> {
    tokio::net::TcpListener::bind((addr, 0))
        .await
        .map(drop)
        .map_err(|e| Error::ContainerAddress(format!("{addr} ({e})")))
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
mod tests {
    use super::*;

    struct Fake(Vec<(&'static str, [u8; 4])>);
    impl Interfaces for Fake {
        fn ipv4(&self) -> Vec<(String, Ipv4Addr)> {
            self.0
                .iter()
                .map(|(n, a)| (n.to_string(), Ipv4Addr::from(*a)))
                .collect()
        }
    }

    #[test]
    fn the_bridge_is_docker0_then_podman_and_a_given_address_wins() {
        let both = Fake(vec![
            ("lo", [127, 0, 0, 1]),
            ("podman0", [10, 88, 0, 1]),
            ("docker0", [172, 17, 0, 1]),
        ]);
        assert_eq!(
            bridge_address(None, &both).unwrap(),
            Ipv4Addr::new(172, 17, 0, 1)
        );
        let podman = Fake(vec![
            ("eth0", [192, 0, 2, 2]),
            ("cni-podman0", [10, 88, 0, 1]),
        ]);
        assert_eq!(
            bridge_address(None, &podman).unwrap(),
            Ipv4Addr::new(10, 88, 0, 1)
        );
        let given = Ipv4Addr::new(10, 1, 2, 3);
        assert_eq!(bridge_address(Some(given), &podman).unwrap(), given);
    }

    #[test]
    fn no_bridge_and_wildcards_are_typed_errors() {
        let none = Fake(vec![("lo", [127, 0, 0, 1]), ("eth0", [192, 0, 2, 2])]);
        let e = bridge_address(None, &none).unwrap_err();
        assert_eq!(e.code(), "no_container_bridge");
        assert!(e.to_string().contains("--address"), "{e}");
        for bad in [[0, 0, 0, 0], [255, 255, 255, 255], [224, 0, 0, 1]] {
            let e = bridge_address(Some(Ipv4Addr::from(bad)), &none).unwrap_err();
            assert_eq!(e.code(), "container_address");
        }
        // A docker0 without a usable address is no bridge.
        let odd = Fake(vec![("docker0", [0, 0, 0, 0])]);
        assert_eq!(
            bridge_address(None, &odd).unwrap_err().code(),
            "no_container_bridge"
        );
    }

    #[test]
    fn the_os_lists_loopback() {
        let found = OsInterfaces.ipv4();
        assert!(
            found
                .iter()
                .any(|(n, a)| n == "lo" || *a == Ipv4Addr::LOCALHOST),
            "{found:?}"
        );
    }

    #[test]
    fn container_paths_are_absolute_normal_and_apart_from_the_host_path() {
        let host = Path::new("/home/u/proj");
        assert_eq!(
            check_path("/workspace", host).unwrap(),
            Some("/workspace".into())
        );
        assert_eq!(
            check_path("/workspace/", host).unwrap(),
            Some("/workspace".into())
        );
        assert_eq!(check_path("/home/u/proj", host).unwrap(), None);
        for bad in [
            "workspace",
            "/",
            "/a/../b",
            "/home/u",
            "/home/u/proj/sub",
            "",
        ] {
            assert_eq!(
                check_path(bad, host).unwrap_err().code(),
                "container_path",
                "{bad}"
            );
        }
    }

    #[test]
    fn maps_container_paths_to_the_host_by_components() {
        let host = Path::new("/home/u/proj");
        let paths = vec!["/workspace".to_owned()];
        assert_eq!(
            to_host("/workspace/src/a.rs", host, &paths).as_deref(),
            Some("/home/u/proj/src/a.rs")
        );
        assert_eq!(
            to_host("/workspace", host, &paths).as_deref(),
            Some("/home/u/proj")
        );
        assert_eq!(to_host("/workspace2/a", host, &paths), None);
        assert_eq!(to_host("/home/u/proj/a", host, &paths), None);
        // `..` survives the mapping and is confined later by Workspace::resolve.
        assert_eq!(
            to_host("/workspace/../etc/passwd", host, &paths).as_deref(),
            Some("/home/u/proj/../etc/passwd")
        );
    }

    #[test]
    fn run_args_one_per_line_with_read_only_discovery_mounts() {
        let dirs = crate::platform::dirs::Dirs {
            config: "/c".into(),
            runtime: "/r".into(),
            home: "/h".into(),
            tmp: "/t".into(),
            vars: Default::default(),
        };
        let host = Path::new("/home/u/my proj");
        let place = ContainerDirs::new(&dirs, host, "/workspace");
        assert!(place
            .root
            .to_string_lossy()
            .starts_with("/r/containers/my_proj-"));
        assert_eq!(
            place,
            ContainerDirs::new(&dirs, host, "/workspace"),
            "stable"
        );
        assert_ne!(
            place.root,
            ContainerDirs::new(&dirs, host, "/home/u/my proj").root
        );
        let a = RunArgs::new(Some(Ipv4Addr::new(172, 17, 0, 1)), host, &place, "/root/");
        let g = place.dir(&clients::GEMINI).display().to_string();
        let q = place.dir(&clients::QWEN).display().to_string();
        let c = place.dir(&clients::CLAUDE).display().to_string();
        assert_eq!(
            a.args,
            vec![
                "--add-host".to_owned(),
                "host.docker.internal:172.17.0.1".into(),
                "-v".into(),
                format!("{g}:/tmp/gemini/ide:ro"),
                "-v".into(),
                format!("{q}:/root/.qwen/ide:ro"),
                "-v".into(),
                format!("{c}:/root/.claude/ide:ro"),
                "-v".into(),
                "/home/u/my proj:/workspace".into(),
                "-e".into(),
                "CLAUDE_CODE_IDE_HOST_OVERRIDE=host.docker.internal".into(),
                "-w".into(),
                "/workspace".into(),
            ]
        );
        let gw = RunArgs::new(None, host, &place, "/home/node");
        assert_eq!(gw.add_host, "host.docker.internal:host-gateway");
        let desktop = RunArgs::new(Some(Ipv4Addr::LOCALHOST), host, &place, "/root");
        assert_eq!(desktop.add_host, "host.docker.internal:host-gateway");
        assert_eq!(gw.mounts[1].target, "/home/node/.qwen/ide");
        assert_eq!(gw.mounts[2].target, "/home/node/.claude/ide");
    }
}
