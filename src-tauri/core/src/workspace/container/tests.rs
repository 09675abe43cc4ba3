//! Tests of `workspace::container`.

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
    assert_eq!(e.code(), crate::error::FaultCode::NoContainerBridge);
    assert!(e.to_string().contains("--address"), "{e}");
    for bad in [[0, 0, 0, 0], [255, 255, 255, 255], [224, 0, 0, 1]] {
        let e = bridge_address(Some(Ipv4Addr::from(bad)), &none).unwrap_err();
        assert_eq!(e.code(), crate::error::FaultCode::ContainerAddress);
    }
    // A docker0 without a usable address is no bridge.
    let odd = Fake(vec![("docker0", [0, 0, 0, 0])]);
    assert_eq!(
        bridge_address(None, &odd).unwrap_err().code(),
        crate::error::FaultCode::NoContainerBridge
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
            crate::error::FaultCode::ContainerPath,
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
        data: "/d".into(),
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
    let p = place.dir(&clients::COPILOT).display().to_string();
    let sock = place.socket_dir().display().to_string();
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
            format!("{p}:/root/.copilot/ide:ro"),
            // The socket's own directory, not the runtime dir that holds the control socket.
            "-v".into(),
            format!("{sock}:/tmp/redline"),
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
