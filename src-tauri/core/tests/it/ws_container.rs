//! Claude Code in containers on real sockets: off, nothing but 127.0.0.1 answers its WebSocket
//! server; on, the bridge address answers `host.docker.internal` behind every guard, the
//! container lock carries no pid and the container path, and container paths map onto the
//! workspace. 127.0.0.2 stands in for the bridge (on Linux all of 127/8 is this host's).
#![cfg(target_os = "linux")]

use crate::common::claude::{upgrade_at as connect, Claude};
use crate::common::tool;
use crate::common::{
    raw, raw_at, raw_upgrade as upgrade_request, refused, start_on, Fixture, WAIT,
};
use redline_core::runtime::companion::Decision;
use redline_core::workspace::container::Interfaces;
use serde_json::{json, Value};
use std::net::Ipv4Addr;
use std::sync::Arc;

/// A host whose `docker0` has the bridge address.
struct Host;
impl Interfaces for Host {
    fn ipv4(&self) -> Vec<(String, Ipv4Addr)> {
        vec![
            ("lo".to_owned(), Ipv4Addr::LOCALHOST),
            ("docker0".to_owned(), BRIDGE.parse().unwrap()),
        ]
    }
}

const BRIDGE: &str = "127.0.0.2";
const HDI: &str = "host.docker.internal";

/// The container ws port from `redline status`.
async fn container_ws_port(f: &Fixture) -> Option<u16> {
    f.instance.status().await.workspaces[0]
        .containers
        .as_ref()
        .and_then(|c| c.ws_port)
}

#[tokio::test]
async fn off_only_loopback_answers_claude_code_and_the_container_host_is_refused() {
    let f = start_on(Arc::new(Host)).await;
    assert_eq!(container_ws_port(&f).await, None);
    assert!(refused(BRIDGE, f.ws_port).await, "nothing on the bridge");
    let auth = format!("x-claude-code-ide-authorization: {}\r\n", f.token);
    let hdi = format!("host: {HDI}:{}\r\n{auth}", f.ws_port);
    let (status, body) = raw(f.ws_port, &upgrade_request(&hdi)).await;
    assert_eq!((status, body.as_str()), (403, ""));
    assert!(connect("127.0.0.1", "127.0.0.1", f.ws_port, &f.token)
        .await
        .is_ok());
    // No container lock anywhere.
    let containers = redline_core::workspace::container::containers_dir(&f.dirs);
    assert!(!containers.exists() || walk_locks(&containers).is_empty());
}

fn walk_locks(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk_locks(&p));
        } else if p.parent().is_some_and(|d| d.ends_with("claude")) {
            out.push(p);
        }
    }
    out
}

#[tokio::test]
async fn on_the_bridge_answers_host_docker_internal_behind_every_guard_and_off_again_it_stops() {
    let f = start_on(Arc::new(Host)).await;
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let pin = f.instance.workspaces().pin(&f.ws).await.unwrap();
    let (lo_port, token) = (pin.ws_port.unwrap(), pin.auth_token);
    let port = container_ws_port(&f).await.expect("a container ws port");
    assert_eq!(port, lo_port, "one port for both sides when free");

    let mut ws = Claude::over(connect(BRIDGE, HDI, port, &token).await.expect("bridge"));
    let init = ws.hello().await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    drop(ws);
    // The same name on loopback is fine (Docker Desktop forwards it there).
    assert!(connect("127.0.0.1", HDI, port, &token).await.is_ok());

    let host = format!("host: {HDI}:{port}\r\n");
    let auth = format!("x-claude-code-ide-authorization: {token}\r\n");
    let mut cases = crate::common::token_refusals(&host, &token);
    cases.extend([
        (
            "origin",
            format!("{host}{auth}origin: http://{HDI}\r\n"),
            403,
        ),
        (
            "rebinding",
            format!("host: evil.example:{port}\r\n{auth}"),
            403,
        ),
        (
            "bridge by address",
            format!("host: {BRIDGE}:{port}\r\n{auth}"),
            403,
        ),
        (
            "other port",
            format!("host: {HDI}:{}\r\n{auth}", port.wrapping_add(1)),
            403,
        ),
    ]);
    for (what, headers, want) in cases {
        let (status, body) = raw_at(BRIDGE, port, &upgrade_request(&headers)).await;
        assert_eq!(status, want, "{what}");
        assert_eq!(body, "", "{what}: a refusal leaks nothing");
    }

    f.instance
        .workspaces()
        .set_containers(&f.ws, false, None)
        .await
        .unwrap();
    let pin = f.instance.workspaces().pin(&f.ws).await.unwrap();
    let port = pin.ws_port.unwrap();
    assert_eq!(container_ws_port(&f).await, None);
    assert!(
        refused(BRIDGE, port).await,
        "off again: nothing on the bridge"
    );
    let hdi = format!(
        "host: {HDI}:{port}\r\nx-claude-code-ide-authorization: {}\r\n",
        pin.auth_token
    );
    assert_eq!(raw(port, &upgrade_request(&hdi)).await.0, 403);
}

#[tokio::test]
async fn the_container_lock_maps_paths_follows_rotation_and_restarts() {
    let f = start_on(Arc::new(Host)).await;
    f.instance
        .workspaces()
        .set_containers(&f.ws, true, None)
        .await
        .unwrap();
    let args = f
        .instance
        .workspaces()
        .container_args(&f.ws, Some("/workspace"), "/home/node")
        .await
        .unwrap();
    let claude_src = args.mounts[2].source.clone();
    assert_eq!(args.mounts[2].target, "/home/node/.claude/ide");
    assert!(args.mounts[2].read_only);
    assert_eq!(
        args.env,
        vec![(
            "CLAUDE_CODE_IDE_HOST_OVERRIDE".to_owned(),
            "host.docker.internal".to_owned()
        )]
    );
    let port = container_ws_port(&f).await.unwrap();
    let lock_file = claude_src.join(format!("{port}.lock"));
    let lock: Value = serde_json::from_slice(&std::fs::read(&lock_file).unwrap()).unwrap();
    let pin = f.instance.workspaces().pin(&f.ws).await.unwrap();
    let token = pin.auth_token;
    assert_eq!(
        lock,
        json!({"workspaceFolders": ["/workspace"], "ideName": "Redline", "transport": "ws",
               "runningInWindows": false, "authToken": token}),
        "no pid: Redline's means nothing in the container"
    );
    // The host's own lock is untouched: host path, live pid.
    let host_lock: Value = serde_json::from_slice(
        &std::fs::read(
            f.dirs
                .discovery(&redline_core::clients::CLAUDE)
                .join(format!("{}.lock", pin.ws_port.unwrap())),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(host_lock["pid"], std::process::id());
    assert_eq!(
        host_lock["workspaceFolders"],
        json!([f.ws.to_string_lossy()])
    );

    let mut ws = Claude::over(connect(BRIDGE, HDI, port, &token).await.unwrap());
    let mut events = f.instance.reviews().queue().subscribe();
    let open = ws
        .request(
            "tools/call",
            json!({"name": "openDiff", "arguments": {"old_file_path": "/workspace/a.txt",
            "new_file_path": "/workspace/a.txt", "new_file_contents": "one\nTWO\n", "tab_name": "t"}}),
        )
        .await;
    tokio::time::timeout(WAIT, events.recv())
        .await
        .unwrap()
        .unwrap();
    let review = f.instance.reviews().list().pop().unwrap();
    assert_eq!(review.file_path, "/workspace/a.txt");
    assert_eq!(review.path, f.ws.join("a.txt"));
    assert!(review.container);
    let detail = &f.instance.reviews().details()[0];
    assert_eq!(detail.original, "one\ntwo\n", "the host's file was read");
    assert!(detail.container);
    f.instance
        .reviews()
        .decide(review.id, Decision::accept(Some("edited\n".into())))
        .await
        .unwrap();
    let answer = ws.response(open).await;
    assert_eq!(
        answer["result"],
        json!({"content": [{"type": "text", "text": "FILE_SAVED"},
                           {"type": "text", "text": "edited\n"}]})
    );
    assert_eq!(
        std::fs::read_to_string(f.ws.join("a.txt")).unwrap(),
        "one\ntwo\n",
        "Redline never writes: the CLI does"
    );
    // A mapped path still cannot leave the workspace; the message names what the CLI sent.
    for escape in ["/workspace/../etc/passwd", "/etc/passwd"] {
        let r = ws
            .call(
                "openDiff",
                json!({"old_file_path": escape, "new_file_path": escape,
                       "new_file_contents": "x", "tab_name": "e"}),
            )
            .await;
        assert!(tool::is_error(&r), "{escape}: {r}");
        let text = tool::text(&r);
        assert!(text.contains(escape) && text.contains("outside"), "{text}");
    }
    drop(ws);

    // A rotated token reaches the container lock, which keeps no pid.
    f.instance.workspaces().rotate_token(&f.ws).await.unwrap();
    let rotated = f.instance.workspaces().pin(&f.ws).await.unwrap().auth_token;
    assert_ne!(rotated, token);
    let lock: Value = serde_json::from_slice(&std::fs::read(&lock_file).unwrap()).unwrap();
    assert_eq!(lock["authToken"], rotated.as_str());
    assert!(lock.get("pid").is_none());

    // Stop removes it (the mounted directory stays); a restart writes it again.
    f.instance.shutdown().await;
    assert!(!lock_file.exists() && claude_src.is_dir());
    let again = f.restart(Arc::new(Host)).await;
    let c = again.status().await.workspaces[0]
        .containers
        .clone()
        .unwrap();
    let port = c.ws_port.unwrap();
    let lock: Value =
        serde_json::from_slice(&std::fs::read(claude_src.join(format!("{port}.lock"))).unwrap())
            .unwrap();
    assert_eq!(lock["workspaceFolders"], json!(["/workspace"]));
    assert!(c
        .discovery_files
        .contains(&claude_src.join(format!("{port}.lock"))));
    let token = again.workspaces().pin(&f.ws).await.unwrap().auth_token;
    assert!(connect(BRIDGE, HDI, port, &token).await.is_ok());
    again.shutdown().await;
}
