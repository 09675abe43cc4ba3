//! Codex's socket shared with an IDE extension or Codex's desktop app, as Codex's router does it:
//! Redline as the router, routing what it cannot answer to a client that can; and Redline as a
//! provider behind another program's router, taking the socket when that router goes.

use crate::codex_ipc::{
    ask, codex_socket, connect, editor_context, fresh_root, instance_in, recv, request, send,
};
use crate::codex_wire::editor_says;
use crate::common::{dirs_in, eventually, start, WAIT};
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use tokio::net::UnixStream;

/// A client's `initialize` on the router, as an IDE extension or Codex's desktop app says it;
/// the id the router gives.
async fn join(s: &mut UnixStream, client_type: &str) -> String {
    send(
        s,
        &json!({"type": "request", "requestId": format!("init-{client_type}"),
                "sourceClientId": "initializing-client", "version": 0, "method": "initialize",
                "params": {"clientType": client_type}}),
    )
    .await;
    let init = recv(s).await.expect("initialize answered");
    assert_eq!(init["resultType"], "success", "{init}");
    init["result"]["clientId"]
        .as_str()
        .expect("a client id")
        .to_owned()
}

#[tokio::test]
async fn redline_routes_what_it_cannot_answer_to_the_client_that_can() {
    let f = start().await;
    let path = codex_socket(&f.dirs.tmp);
    let mut ide = connect(&path).await;
    let ide_id = join(&mut ide, "vscode").await;

    // Codex asks about a folder in no Redline workspace: the IDE is asked whether it can.
    let project = f.tmp.path().join("vscode-project");
    std::fs::create_dir_all(&project).unwrap();
    let codex = tokio::spawn({
        let (path, project) = (path.clone(), project.clone());
        async move { ask(&path, &project).await }
    });
    let discovery = recv(&mut ide).await.expect("a discovery request");
    assert_eq!(discovery["type"], "client-discovery-request", "{discovery}");
    assert_eq!(discovery["request"]["method"], "ide-context", "{discovery}");
    assert_eq!(
        discovery["request"]["params"]["workspaceRoot"],
        json!(project),
        "{discovery}"
    );
    send(
        &mut ide,
        &json!({"type": "client-discovery-response", "requestId": discovery["requestId"],
                "response": {"canHandle": true}}),
    )
    .await;
    let forwarded = recv(&mut ide).await.expect("the request forwarded");
    assert_eq!(forwarded["method"], "ide-context", "{forwarded}");
    assert_ne!(forwarded["requestId"], "r1", "the router's own id goes out");
    let tabs = json!([{"label": "x.ts", "path": "x.ts", "fsPath": "/p/x.ts"}]);
    send(
        &mut ide,
        &json!({"type": "response", "requestId": forwarded["requestId"], "resultType": "success",
                "method": "ide-context", "handledByClientId": ide_id,
                "result": {"ideContext": {"activeFile": null, "openTabs": tabs}}}),
    )
    .await;
    let answer = codex.await.unwrap();
    assert_eq!(answer["requestId"], "r1", "Codex's id comes back: {answer}");
    assert_eq!(answer["handledByClientId"], json!(ide_id), "{answer}");
    assert_eq!(answer["result"]["ideContext"]["openTabs"], tabs, "{answer}");

    // A folder Redline has an editor's context for: Redline answers, the IDE is not asked.
    editor_context(&f).await;
    let own = ask(&path, &f.ws).await;
    assert_eq!(own["handledByClientId"], "redline", "{own}");
    assert_eq!(own["result"]["ideContext"]["activeFile"]["label"], "a.txt");

    // A client that cannot: Codex gets Redline's own answer.
    let codex = tokio::spawn({
        let (path, project) = (path.clone(), project.clone());
        async move { ask(&path, &project).await }
    });
    let discovery = recv(&mut ide).await.expect("a discovery request");
    send(
        &mut ide,
        &json!({"type": "client-discovery-response", "requestId": discovery["requestId"],
                "response": {"canHandle": false}}),
    )
    .await;
    let answer = codex.await.unwrap();
    assert_eq!(answer["error"], "no-client-found", "{answer}");

    // A broadcast reaches the other clients, not its sender.
    let mut app = connect(&path).await;
    let app_id = join(&mut app, "desktop").await;
    assert_ne!(app_id, ide_id);
    let broadcast = json!({"type": "broadcast", "method": "thread-stream-state-changed",
                           "sourceClientId": app_id, "version": 0, "params": {"n": 1}});
    send(&mut app, &broadcast).await;
    assert_eq!(recv(&mut ide).await, Some(broadcast));
}

async fn discover(router: &mut UnixStream, id: &str, asked: Value) -> bool {
    send(
        router,
        &json!({"type": "client-discovery-request", "requestId": id, "request": asked}),
    )
    .await;
    let answer = recv(router).await.expect("a discovery answer");
    assert_eq!(answer["type"], "client-discovery-response", "{answer}");
    assert_eq!(answer["requestId"], id, "{answer}");
    answer["response"]["canHandle"]
        .as_bool()
        .expect("canHandle is a bool")
}

#[tokio::test]
async fn redline_answers_behind_a_router_holding_the_socket_and_takes_it_when_it_goes() {
    let (_tmp, root) = fresh_root();
    let path = codex_socket(&dirs_in(&root).tmp);
    let dir = path.parent().unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    // A Codex app's router, say, holds the socket first.
    let listener = tokio::net::UnixListener::bind(&path).unwrap();
    let instance = instance_in(&root).await;
    let ws = root.join("ws");
    // Redline's first connection only probes whether the socket is live; the next one joins.
    let (mut router, init) = loop {
        let (mut s, _) = tokio::time::timeout(WAIT, listener.accept())
            .await
            .expect("Redline joins the router")
            .unwrap();
        if let Some(init) = recv(&mut s).await {
            break (s, init);
        }
    };
    assert_eq!(init["method"], "initialize", "{init}");
    assert_eq!(init["params"]["clientType"], "redline", "{init}");
    send(
        &mut router,
        &json!({"type": "response", "requestId": init["requestId"], "resultType": "success",
                "method": "initialize", "handledByClientId": "router",
                "result": {"clientId": "client-7"}}),
    )
    .await;

    // No editor yet: Redline leaves the folder to the router's own IDE.
    let asked = request("x", "ide-context", &ws);
    assert!(!discover(&mut router, "d1", asked.clone()).await);
    editor_says(&instance, &ws).await;
    assert!(discover(&mut router, "d2", asked.clone()).await);
    let elsewhere = request("x", "ide-context", &root.join("elsewhere"));
    assert!(!discover(&mut router, "d3", elsewhere).await);
    let mut newer = asked.clone();
    newer["version"] = json!(1);
    assert!(
        !discover(&mut router, "d4", newer).await,
        "a version Redline does not speak"
    );

    send(&mut router, &request("f1", "ide-context", &ws)).await;
    let answer = recv(&mut router)
        .await
        .expect("the forwarded request answered");
    assert_eq!(answer["requestId"], "f1", "{answer}");
    assert_eq!(answer["handledByClientId"], "client-7", "{answer}");
    assert_eq!(
        answer["result"]["ideContext"]["activeFile"]["activeSelectionContent"], "one",
        "{answer}"
    );
    send(&mut router, &request("f2", "open-file", &ws)).await;
    let unknown = recv(&mut router)
        .await
        .expect("an unknown request answered");
    assert_eq!(unknown["error"], "no-handler-for-request", "{unknown}");
    assert!(path.exists(), "the router's socket was left alone");

    // The router goes (its socket file stays, as after a crash): Redline takes the socket.
    drop(router);
    drop(listener);
    eventually("Redline serves the socket itself", || {
        let (path, ws) = (path.clone(), ws.clone());
        async move {
            let Ok(mut s) = UnixStream::connect(&path).await else {
                return false;
            };
            send(&mut s, &request("r", "ide-context", &ws)).await;
            recv(&mut s)
                .await
                .is_some_and(|a| a["handledByClientId"] == "redline")
        }
    })
    .await;
    instance.shutdown().await;
    assert!(!path.exists(), "the socket Redline took outlived it");
}
