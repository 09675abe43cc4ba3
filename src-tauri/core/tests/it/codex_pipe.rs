//! Codex CLI's IDE channel on Windows: the named pipe (`\\.\pipe\codex-ipc`; here a name of the
//! test's own, as the pipe namespace is the whole machine's), answered as Codex's client reads it,
//! and Redline behind another program's router holding the pipe, taking it when that router goes.

use crate::codex_wire::{
    editor_context, editor_says, fresh_root, instance_in, recv, request, send,
};
use crate::common::{dirs_in, eventually, start, WAIT};
use redline_core::api::status::CodexRole;
use redline_core::protocols::codex_ipc::isolated_at;
use serde_json::{json, Value};
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use tokio::net::windows::named_pipe::{NamedPipeClient, NamedPipeServer, ServerOptions};
use windows_sys::Win32::Foundation::{ERROR_PIPE_BUSY, HANDLE};
use windows_sys::Win32::System::Pipes::GetNamedPipeServerProcessId;

/// Opens the pipe as Codex does (`CreateFileW`, `OPEN_EXISTING`), waiting out a busy moment.
async fn open(name: &Path) -> std::io::Result<NamedPipeClient> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::net::windows::named_pipe::ClientOptions::new().open(name) {
            Err(e)
                if e.raw_os_error() == Some(ERROR_PIPE_BUSY as i32)
                    && tokio::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await
            }
            r => return r,
        }
    }
}

/// The process serving the pipe `client` opened: Codex refuses one of another user's.
fn server_pid(client: &NamedPipeClient) -> u32 {
    let mut pid = 0u32;
    // SAFETY: a live client handle, for the length of the call.
    let ok = unsafe { GetNamedPipeServerProcessId(client.as_raw_handle() as HANDLE, &mut pid) };
    assert_ne!(ok, 0, "{}", std::io::Error::last_os_error());
    pid
}

/// Codex's exchange on a fresh connection: `initialize` (as Codex sent it before 0.171), then
/// `ide-context`; the answer to the latter.
async fn ask(name: &Path, root: &Path) -> Value {
    let mut pipe = open(name).await.expect("Codex's pipe answers");
    assert_eq!(server_pid(&pipe), std::process::id(), "served by Redline");
    send(
        &mut pipe,
        &json!({"type": "request", "requestId": "init", "sourceClientId": "initializing-client",
                "version": 0, "method": "initialize", "params": {"clientType": "desktop"}}),
    )
    .await;
    let init = recv(&mut pipe).await.expect("initialize answered");
    assert_eq!(init["resultType"], "success", "{init}");
    let client = init["result"]["clientId"].as_str().expect("a client id");
    let mut asked = request("r1", "ide-context", root);
    asked["sourceClientId"] = json!(client);
    send(&mut pipe, &asked).await;
    let answer = recv(&mut pipe).await.expect("an answer");
    assert_eq!(answer["requestId"], "r1", "{answer}");
    answer
}

#[tokio::test]
async fn codex_gets_the_editor_context_on_its_named_pipe() {
    let f = start().await;
    let name = isolated_at(&f.dirs);
    let status = f
        .instance
        .status()
        .await
        .codex_ide
        .expect("Codex's IDE pipe");
    assert_eq!(status.path, name, "{status:?}");
    assert_eq!(status.role, CodexRole::Router, "{status:?}");

    // No editor has spoken yet: an empty context (an error would keep `/ide on` off).
    let none = ask(&name, &f.ws).await;
    assert_eq!(none["resultType"], "success", "{none}");
    assert_eq!(
        none["result"]["ideContext"],
        json!({"activeFile": null, "openTabs": []}),
        "{none}"
    );
    let outside = f.tmp.path().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let out = ask(&name, &outside).await;
    assert_eq!(out["error"], "no-client-found", "{out}");

    editor_context(&f).await;
    let ok = ask(&name, &f.ws).await;
    assert_eq!(ok["resultType"], "success", "{ok}");
    assert_eq!(ok["handledByClientId"], "redline", "{ok}");
    let context = &ok["result"]["ideContext"];
    assert_eq!(context["activeFile"]["label"], "a.txt", "{ok}");
    assert_eq!(context["activeFile"]["path"], "a.txt", "{ok}");
    assert_eq!(context["activeFile"]["activeSelectionContent"], "ne\ntw");
    assert_eq!(
        context["activeFile"]["selection"],
        json!({"start": {"line": 0, "character": 1}, "end": {"line": 1, "character": 2}})
    );
    assert_eq!(
        context["openTabs"].as_array().map(Vec::len),
        Some(2),
        "{ok}"
    );

    // Several Codex sessions at once each find an instance listening.
    let (a, b) = tokio::join!(ask(&name, &f.ws), ask(&name, &f.ws));
    assert_eq!(
        (&a["resultType"], &b["resultType"]),
        (&json!("success"), &json!("success"))
    );

    f.instance.shutdown().await;
    let gone = open(&name).await.map(|_| ()).unwrap_err();
    assert_eq!(gone.kind(), std::io::ErrorKind::NotFound, "{gone}");
}

/// A router's next instance, once `server` took a client: the connected one, and the next.
async fn accept(name: &Path, server: NamedPipeServer) -> (NamedPipeServer, NamedPipeServer) {
    tokio::time::timeout(WAIT, server.connect())
        .await
        .expect("Redline connects to the router")
        .unwrap();
    let next = ServerOptions::new().create(name).unwrap();
    (server, next)
}

#[tokio::test]
async fn redline_answers_behind_a_router_holding_the_pipe_and_takes_it_when_it_goes() {
    let (_tmp, root) = fresh_root();
    let name = isolated_at(&dirs_in(&root));
    // A Codex desktop app's router, say, holds the pipe first.
    let listening = ServerOptions::new()
        .first_pipe_instance(true)
        .create(&name)
        .unwrap();
    let instance = instance_in(&root).await;
    let ws = root.join("ws");
    // Redline's first connections only probe whether the pipe is served; a later one joins.
    let mut listening = Some(listening);
    let mut probes = 0;
    let (mut router, init, next) = loop {
        let (mut s, next) = accept(&name, listening.take().unwrap()).await;
        if let Some(init) = recv(&mut s).await {
            break (s, init, next);
        }
        probes += 1;
        assert!(
            probes < 4,
            "Redline only probes, and never joins the router"
        );
        listening = Some(next);
    };
    assert_eq!(init["method"], "initialize", "{init}");
    assert_eq!(init["params"]["clientType"], "redline", "{init}");
    let status = instance.status().await.codex_ide.expect("Codex's IDE pipe");
    assert_eq!(status.role, CodexRole::Provider, "{status:?}");
    send(
        &mut router,
        &json!({"type": "response", "requestId": init["requestId"], "resultType": "success",
                "method": "initialize", "handledByClientId": "router",
                "result": {"clientId": "client-7"}}),
    )
    .await;

    editor_says(&instance, &ws).await;
    let asked = request("x", "ide-context", &ws);
    send(
        &mut router,
        &json!({"type": "client-discovery-request", "requestId": "d1", "request": asked}),
    )
    .await;
    let can = recv(&mut router).await.expect("a discovery answer");
    assert_eq!(can["response"]["canHandle"], true, "{can}");
    send(&mut router, &request("f1", "ide-context", &ws)).await;
    let answer = recv(&mut router)
        .await
        .expect("the forwarded request answered");
    assert_eq!(answer["handledByClientId"], "client-7", "{answer}");
    assert_eq!(
        answer["result"]["ideContext"]["activeFile"]["activeSelectionContent"], "one",
        "{answer}"
    );

    // The router goes, every instance of its pipe with it: Redline takes the pipe.
    drop((router, next));
    eventually("Redline serves the pipe itself", || {
        let (name, ws) = (name.clone(), ws.clone());
        async move {
            let Ok(mut s) = open(&name).await else {
                return false;
            };
            send(&mut s, &request("r", "ide-context", &ws)).await;
            recv(&mut s)
                .await
                .is_some_and(|a| a["handledByClientId"] == "redline")
        }
    })
    .await;
    let status = instance.status().await.codex_ide.expect("Codex's IDE pipe");
    assert_eq!(status.role, CodexRole::Router, "{status:?}");
    instance.shutdown().await;
}
