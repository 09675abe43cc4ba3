//! Containers on real sockets: off, nothing but 127.0.0.1 answers; on, the bridge address answers
//! `host.docker.internal` behind every guard; container paths map onto the workspace.
//! 127.0.0.2 stands in for the bridge (on Linux all of 127/8 is this host's).
#![cfg(target_os = "linux")]

use crate::common::tool;
use crate::common::{raw, raw_at, raw_post as post, refused, start_on, Mcp, INIT};
use redline_core::runtime::companion::Decision;
use redline_core::workspace::container::Interfaces;
use serde_json::{json, Value};
use std::net::Ipv4Addr;
use std::sync::Arc;

/// A host whose `docker0` has the address given (or that has no bridge at all).
struct Host(Option<Ipv4Addr>);
impl Interfaces for Host {
    fn ipv4(&self) -> Vec<(String, Ipv4Addr)> {
        let mut v = vec![("lo".to_owned(), Ipv4Addr::LOCALHOST)];
        v.extend(self.0.map(|a| ("docker0".to_owned(), a)));
        v
    }
}

const BRIDGE: &str = "127.0.0.2";
fn container_client(port: u16, token: &str) -> Mcp {
    let bridge: std::net::SocketAddr = format!("{BRIDGE}:{port}").parse().unwrap();
    Mcp::new(
        reqwest::Client::builder()
            .resolve("host.docker.internal", bridge)
            .build()
            .unwrap(),
        format!("http://host.docker.internal:{port}/mcp"),
        token.to_owned(),
    )
}

#[tokio::test]
async fn off_by_default_only_loopback_answers_and_the_container_host_is_refused() {
    let f = start_on(Arc::new(Host(Some(BRIDGE.parse().unwrap())))).await;
    let st = f.instance.status().await;
    assert_eq!(st.workspaces[0].containers, None);
    let cfg = std::fs::read_to_string(f.dirs.config_file()).unwrap();
    assert!(!cfg.contains("containers"), "off is the default: {cfg}");
    assert!(
        refused(BRIDGE, f.port).await,
        "nothing listens on the bridge"
    );
    let auth = format!("authorization: Bearer {}", f.token);
    let host = format!("host: host.docker.internal:{}", f.port);
    assert_eq!(raw(f.port, &post(&[host, auth.clone()], INIT)).await.0, 403);
    let host = format!("host: 127.0.0.1:{}", f.port);
    assert_eq!(raw(f.port, &post(&[host, auth], INIT)).await.0, 200);
}

#[tokio::test]
async fn on_the_bridge_answers_host_docker_internal_behind_every_guard_and_off_again_it_stops() {
    let f = start_on(Arc::new(Host(Some(BRIDGE.parse().unwrap())))).await;
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let st = f.instance.status().await;
    let w = &st.workspaces[0];
    let port = w.port.unwrap();
    let c = w.containers.clone().expect("containers on");
    assert_eq!(c.address, Some(BRIDGE.parse().unwrap()));
    assert_eq!(c.port, Some(port), "one port for both sides");
    assert_eq!(c.error, None);
    let cfg: Value = serde_json::from_slice(&std::fs::read(f.dirs.config_file()).unwrap()).unwrap();
    assert_eq!(
        cfg["workspaces"][0]["containers"],
        json!({"address": BRIDGE}),
        "persisted with the address found"
    );

    let token = f.instance.workspaces().pin(&f.ws).await.unwrap().auth_token;
    let auth = format!("authorization: Bearer {token}");
    let host = format!("host: host.docker.internal:{port}");
    let (status, body) = raw_at(BRIDGE, port, &post(&[host.clone(), auth.clone()], INIT)).await;
    assert_eq!(status, 200, "{body}");
    // The same name on loopback is fine (Docker Desktop forwards it there).
    assert_eq!(
        raw(port, &post(&[host.clone(), auth.clone()], INIT))
            .await
            .0,
        200
    );
    // Every guard holds on the bridge listener too.
    assert_eq!(
        raw_at(BRIDGE, port, &post(std::slice::from_ref(&host), INIT))
            .await
            .0,
        401
    );
    let wrong = format!("authorization: Bearer {}", "0".repeat(64));
    assert_eq!(
        raw_at(BRIDGE, port, &post(&[host.clone(), wrong], INIT))
            .await
            .0,
        401
    );
    let origin = "origin: http://host.docker.internal".to_owned();
    let with_origin = [host.clone(), auth.clone(), origin];
    assert_eq!(raw_at(BRIDGE, port, &post(&with_origin, INIT)).await.0, 403);
    for bad in [
        format!("host: evil.example:{port}"),
        format!("host: {BRIDGE}:{port}"),
        format!("host: host.docker.internal:{}", port.wrapping_add(1)),
    ] {
        let (status, _) = raw_at(BRIDGE, port, &post(&[bad.clone(), auth.clone()], INIT)).await;
        assert_eq!(status, 403, "{bad}");
    }
    let too_big = format!(
        "POST /mcp HTTP/1.1\r\nconnection: close\r\n{host}\r\n{auth}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        redline_core::protocols::mcp_http::guard::MAX_BODY_BYTES + 1
    );
    assert_eq!(raw_at(BRIDGE, port, &too_big).await.0, 413);

    f.instance
        .workspaces()
        .set_containers(&f.ws, false, None)
        .await
        .unwrap();
    let st = f.instance.status().await;
    let port = st.workspaces[0].port.unwrap();
    assert_eq!(st.workspaces[0].containers, None);
    assert!(
        refused(BRIDGE, port).await,
        "off again: nothing on the bridge"
    );
    let token = f.instance.workspaces().pin(&f.ws).await.unwrap().auth_token;
    let auth = format!("authorization: Bearer {token}");
    let host = format!("host: host.docker.internal:{port}");
    assert_eq!(raw(port, &post(&[host, auth], INIT)).await.0, 403);
}

#[tokio::test]
async fn no_bridge_no_wildcard_no_foreign_address() {
    let f = start_on(Arc::new(Host(None))).await;
    let err = f
        .instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap_err();
    assert_eq!(err.code(), redline_core::FaultCode::NoContainerBridge);
    for bad in ["0.0.0.0", "255.255.255.255"] {
        let err = f
            .instance
            .workspaces()
            .set_containers(&f.ws, true, Some(bad.parse().unwrap()))
            .await
            .unwrap_err();
        assert_eq!(
            err.code(),
            redline_core::FaultCode::ContainerAddress,
            "{bad}"
        );
    }
    // An address that is not this host's cannot be listened on.
    let err = f
        .instance
        .workspaces()
        .set_containers(&f.ws, true, Some("192.0.2.123".parse().unwrap()))
        .await
        .unwrap_err();
    assert_eq!(err.code(), redline_core::FaultCode::ContainerAddress);
    let cfg = std::fs::read_to_string(f.dirs.config_file()).unwrap();
    assert!(!cfg.contains("containers"), "nothing persisted: {cfg}");
    // Given explicitly, any address of this host works without a bridge.
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, Some(BRIDGE.parse().unwrap()))
        .await
        .unwrap();
    let c = f.instance.status().await.workspaces[0]
        .containers
        .clone()
        .unwrap();
    assert_eq!(c.address, Some(BRIDGE.parse().unwrap()));
}

#[tokio::test]
async fn a_container_path_maps_onto_the_workspace_and_notifications_echo_it() {
    let f = start_on(Arc::new(Host(Some(BRIDGE.parse().unwrap())))).await;
    let err = f
        .instance
        .workspaces()
        .container_args(&f.ws, Some("/workspace"), "/root")
        .await
        .unwrap_err();
    assert_eq!(err.code(), redline_core::FaultCode::ContainersOff);
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let args = f
        .instance
        .workspaces()
        .container_args(&f.ws, Some("/workspace"), "/root")
        .await
        .unwrap();
    assert_eq!(args.add_host, format!("host.docker.internal:{BRIDGE}"));
    assert_eq!(args.workdir, "/workspace");
    let st = f.instance.status().await;
    let c = st.workspaces[0].containers.clone().unwrap();
    let port = c.port.unwrap();
    assert_eq!(c.paths, vec!["/workspace".to_owned()]);
    // The files under the mounted sources carry the container path, and the Qwen lock no ppid.
    let qwen_src = &args.mounts[1].source;
    let lock: Value =
        serde_json::from_slice(&std::fs::read(qwen_src.join(format!("{port}.lock"))).unwrap())
            .unwrap();
    assert_eq!(lock["workspacePath"], "/workspace");
    assert_eq!(lock["port"], port);
    assert!(lock.get("ppid").is_none(), "{lock}");
    let gemini_src = &args.mounts[0].source;
    let names: Vec<_> = std::fs::read_dir(gemini_src)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(c.discovery_files.iter().any(|p| p.starts_with(gemini_src)));
    // The host's own files are untouched: still the host path, still a ppid.
    let host_lock: Value = serde_json::from_slice(
        &std::fs::read(
            f.dirs
                .discovery(&redline_core::clients::QWEN)
                .join(format!("{port}.lock")),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(host_lock["workspacePath"], f.ws.to_string_lossy().as_ref());
    assert_eq!(host_lock["ppid"], std::process::id());

    let token = f.instance.workspaces().pin(&f.ws).await.unwrap().auth_token;
    let mut cli = container_client(port, &token);
    cli.connect("2025-06-18").await;
    let mut stream = cli.stream().await;
    let r = cli
        .call(
            "openDiff",
            json!({"filePath": "/workspace/a.txt", "newContent": "one\nTWO\n"}),
        )
        .await;
    assert_eq!(r["result"], json!({"content": []}), "{r}");
    let review = f.instance.reviews().list().pop().unwrap();
    assert_eq!(review.file_path, "/workspace/a.txt");
    assert_eq!(review.path, f.ws.join("a.txt"));
    assert!(review.container);
    let detail = &f.instance.reviews().details()[0];
    assert_eq!(detail.original, "one\ntwo\n", "the host's file was read");
    assert_eq!(detail.relative_path, "a.txt");
    assert!(detail.container);
    let shown = f.instance.reviews().show(review.id).unwrap();
    assert!(shown.contains("-two") && shown.contains("+TWO"), "{shown}");
    f.instance
        .reviews()
        .decide(review.id, Decision::accept(Some("edited\n".into())))
        .await
        .unwrap();
    let n = stream.next_decision().await.unwrap();
    assert_eq!(n["method"], "ide/diffAccepted");
    assert_eq!(
        n["params"],
        json!({"filePath": "/workspace/a.txt", "content": "edited\n"})
    );

    // A mapped path still cannot leave the workspace.
    for escape in ["/workspace/../etc/passwd", "/etc/passwd"] {
        let r = cli
            .call("openDiff", json!({"filePath": escape, "newContent": "x"}))
            .await;
        assert!(tool::is_error(&r), "{escape}: {r}");
        let text = tool::text(&r);
        assert!(text.contains(escape) && text.contains("outside"), "{text}");
    }
    // The same path twice is one mapping; a path around the workspace is refused.
    f.instance
        .workspaces()
        .container_args(&f.ws, Some("/workspace/"), "/root")
        .await
        .unwrap();
    let cfg: Value = serde_json::from_slice(&std::fs::read(f.dirs.config_file()).unwrap()).unwrap();
    assert_eq!(
        cfg["workspaces"][0]["containers"],
        json!({"address": BRIDGE, "paths": ["/workspace"]})
    );
    // A rotated token reaches the containers' files too.
    f.instance.workspaces().rotate_token(&f.ws).await.unwrap();
    let rotated = f.instance.workspaces().pin(&f.ws).await.unwrap().auth_token;
    assert_ne!(rotated, token);
    let lock: Value =
        serde_json::from_slice(&std::fs::read(qwen_src.join(format!("{port}.lock"))).unwrap())
            .unwrap();
    assert_eq!(lock["authToken"], rotated.as_str());
    assert!(lock.get("ppid").is_none());
    let parent = f.ws.parent().unwrap().to_string_lossy().into_owned();
    let err = f
        .instance
        .workspaces()
        .container_args(&f.ws, Some(&parent), "/root")
        .await
        .unwrap_err();
    assert_eq!(err.code(), redline_core::FaultCode::ContainerPath);
}

#[tokio::test]
async fn a_restart_keeps_containers_on_and_sweeps_the_old_files_but_not_the_dirs() {
    let f = start_on(Arc::new(Host(Some(BRIDGE.parse().unwrap())))).await;
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let args = f
        .instance
        .workspaces()
        .container_args(&f.ws, None, "/root")
        .await
        .unwrap();
    assert_eq!(args.workdir, f.ws.to_string_lossy().as_ref());
    let gemini_src = args.mounts[0].source.clone();
    assert_eq!(std::fs::read_dir(&gemini_src).unwrap().count(), 1);
    f.instance.shutdown().await;
    assert_eq!(
        std::fs::read_dir(&gemini_src).unwrap().count(),
        0,
        "removed on stop"
    );
    assert!(gemini_src.is_dir(), "the mounted directory stays");
    let again = f
        .restart(Arc::new(Host(Some(BRIDGE.parse().unwrap()))))
        .await;
    let w = &again.status().await.workspaces[0];
    let c = w.containers.clone().unwrap();
    assert_eq!(c.port, w.port);
    assert_eq!(std::fs::read_dir(&gemini_src).unwrap().count(), 1);
    again.shutdown().await;
}

/// A run that crashed left its container files behind (nothing removed them): the next start
/// sweeps them, or a CLI in a container could pick the dead server's file.
#[tokio::test]
async fn a_crashed_runs_container_files_are_swept_at_start() {
    let host = || Arc::new(Host(Some(BRIDGE.parse().unwrap())));
    let f = start_on(host()).await;
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let args = f
        .instance
        .workspaces()
        .container_args(&f.ws, None, "/root")
        .await
        .unwrap();
    let gemini_src = args.mounts[0].source.clone();
    let left: Vec<_> = std::fs::read_dir(&gemini_src)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.clone(), std::fs::read(&p).unwrap())
        })
        .collect();
    assert_eq!(left.len(), 1);
    f.instance.shutdown().await;
    // The crash: the files are back as the dead run left them.
    for (p, bytes) in &left {
        std::fs::write(p, bytes).unwrap();
    }
    f.instance
        .workspaces()
        .set_containers(&f.ws, false, None)
        .await
        .unwrap();
    let again = f.restart(host()).await;
    let now: Vec<_> = std::fs::read_dir(&gemini_src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(now.is_empty(), "left from the crashed run: {now:?}");
    again.shutdown().await;
}

/// A host whose `docker0` comes and goes.
struct Changing(std::sync::Mutex<Option<Ipv4Addr>>);
impl Interfaces for Changing {
    fn ipv4(&self) -> Vec<(String, Ipv4Addr)> {
        let bridge = *self.0.lock().unwrap();
        bridge
            .map(|a| ("docker0".to_owned(), a))
            .into_iter()
            .collect()
    }
}

#[tokio::test]
async fn the_address_found_is_kept_so_a_bridge_down_at_start_does_not_matter() {
    let host = Arc::new(Changing(std::sync::Mutex::new(Some(
        BRIDGE.parse().unwrap(),
    ))));
    let f = start_on(host.clone()).await;
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    f.instance.shutdown().await;
    // Docker is not running at the next start: Redline listens on the saved address anyway.
    *host.0.lock().unwrap() = None;
    let again = f.restart(host.clone()).await;
    let c = again.status().await.workspaces[0]
        .containers
        .clone()
        .unwrap();
    assert_eq!(c.error, None);
    assert_eq!(c.address, Some(BRIDGE.parse().unwrap()));
    assert!(!refused(BRIDGE, c.port.unwrap()).await);
    again.shutdown().await;
}

#[tokio::test]
async fn no_bridge_at_start_is_reported_and_enabling_again_retries() {
    let host = Arc::new(Changing(std::sync::Mutex::new(None)));
    let f = start_on(host.clone()).await;
    f.instance.shutdown().await;
    // Containers on without a saved address (a config written by hand), and no bridge.
    let file = f.dirs.config_file();
    let mut cfg: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    cfg["workspaces"][0]["containers"] = json!({});
    std::fs::write(&file, cfg.to_string()).unwrap();
    let again = f.restart(host.clone()).await;
    let w = again.status().await.workspaces[0].clone();
    assert!(w.port.is_some(), "loopback serves regardless");
    let c = w.containers.unwrap();
    assert_eq!((c.address, c.port), (None, None));
    assert!(c.error.unwrap().contains("no container bridge"));
    // Docker started: the same command again brings containers in.
    *host.0.lock().unwrap() = Some(BRIDGE.parse().unwrap());
    again
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let c = again.status().await.workspaces[0]
        .containers
        .clone()
        .unwrap();
    assert_eq!(c.error, None);
    assert_eq!(c.address, Some(BRIDGE.parse().unwrap()));
    assert!(!refused(BRIDGE, c.port.unwrap()).await);
    again.shutdown().await;
}

/// Copilot CLI in a container: `container args` mounts a lock naming PID 1 and the socket's own
/// directory; a client on that socket with the lock's header proposes with the container path,
/// and the host's file is reviewed.
#[tokio::test]
async fn copilot_in_a_container_gets_a_pid_1_lock_and_the_mounted_socket() {
    let f = start_on(Arc::new(Host(Some(BRIDGE.parse().unwrap())))).await;
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let args = f
        .instance
        .workspaces()
        .container_args(&f.ws, Some("/workspace"), "/root")
        .await
        .unwrap();
    let mount = |target: &str| {
        args.mounts
            .iter()
            .find(|m| m.target == target)
            .unwrap_or_else(|| panic!("no mount at {target}: {:?}", args.mounts))
            .clone()
    };
    let ide = mount("/root/.copilot/ide");
    assert!(ide.read_only);
    let sockets = mount("/tmp/redline");
    assert!(!sockets.read_only);
    let names: Vec<String> = std::fs::read_dir(&sockets.source)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["copilot.sock"],
        "only the socket: never the control socket"
    );
    let locks: Vec<_> = std::fs::read_dir(&ide.source)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(locks.len(), 1, "{locks:?}");
    let lock: Value = serde_json::from_slice(&std::fs::read(&locks[0]).unwrap()).unwrap();
    assert_eq!(lock["pid"], 1);
    assert_eq!(lock["socketPath"], "/tmp/redline/copilot.sock");
    assert_eq!(lock["workspaceFolders"], json!(["/workspace"]));

    let http = reqwest::Client::builder()
        .unix_socket(sockets.source.join("copilot.sock"))
        .build()
        .unwrap();
    let token = lock["headers"]["Authorization"]
        .as_str()
        .unwrap()
        .strip_prefix("Bearer ")
        .unwrap()
        .to_owned();
    let mut c = Mcp::new(http, "http://localhost/mcp".into(), token);
    c.connect("2025-11-25").await;
    let mut asking = c.clone_session();
    let call = tokio::spawn(async move {
        asking
            .call(
                "open_diff",
                json!({"original_file_path": "/workspace/a.txt", "new_file_contents": "one\nTWO\n",
                       "tab_name": "t"}),
            )
            .await
    });
    let r = f
        .instance
        .reviews()
        .wait(Some("/workspace/a.txt"), crate::common::WAIT)
        .await
        .unwrap();
    let review = f.instance.reviews().review(r.id).unwrap();
    assert_eq!(review.path, f.ws.join("a.txt"), "the host's file");
    assert_eq!(review.original.as_deref(), Some("one\ntwo\n"));
    f.instance
        .reviews()
        .decide(r.id, Decision::accept(None))
        .await
        .unwrap();
    let answer = tokio::time::timeout(crate::common::WAIT, call)
        .await
        .unwrap()
        .unwrap();
    assert!(tool::text(&answer).contains("SAVED"));
}
