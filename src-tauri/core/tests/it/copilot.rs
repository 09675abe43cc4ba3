//! Copilot CLI's server on its real unix socket, driven as copilot 1.0.102 drives it: the lock it
//! reads, the handshake, a blocking `open_diff`, `close_diff`, the session's title, the
//! selection, and the guards.

use crate::common::mcp::messages;
use crate::common::tool;
use crate::common::{start, Fixture, Mcp, WAIT};
use redline_core::clients::COPILOT;
use redline_core::review::selection::Selection;
use redline_core::runtime::companion::Decision;
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The one Copilot lock of the fixture's workspace, as copilot finds it: any `*.lock` there.
fn lock(f: &Fixture) -> (PathBuf, Value) {
    let dir = f.dirs.discovery(&COPILOT);
    let locks: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lock"))
        .collect();
    assert_eq!(locks.len(), 1, "{locks:?}");
    let body = serde_json::from_slice(&std::fs::read(&locks[0]).unwrap()).unwrap();
    (locks[0].clone(), body)
}

fn socket(f: &Fixture) -> PathBuf {
    PathBuf::from(lock(f).1["socketPath"].as_str().unwrap())
}

/// A client on the socket with the lock's headers, as copilot sends them.
fn copilot(f: &Fixture) -> Mcp {
    let http = reqwest::Client::builder()
        .unix_socket(socket(f))
        .build()
        .unwrap();
    Mcp::new(http, "http://localhost/mcp".into(), f.token.clone())
}

async fn session(f: &Fixture) -> Mcp {
    let mut c = copilot(f);
    c.connect("2025-11-25").await;
    c
}

/// One HTTP request written by hand on the socket; the status and the whole answer.
async fn raw(path: &Path, request: &str) -> (u16, String) {
    let mut s = tokio::net::UnixStream::connect(path).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

fn post(host: &str, auth: Option<&str>, body: &str) -> String {
    let auth = auth
        .map(|a| format!("Authorization: {a}\r\n"))
        .unwrap_or_default();
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{auth}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
}

/// `open_diff` called from `asking` in the background, as copilot blocks on it.
fn open_diff(
    mut asking: Mcp,
    path: &str,
    text: &'static str,
    tab: &'static str,
) -> tokio::task::JoinHandle<Value> {
    let path = path.to_owned();
    tokio::spawn(async move {
        asking
            .call(
                "open_diff",
                json!({"original_file_path": path, "new_file_contents": text, "tab_name": tab}),
            )
            .await
    })
}

/// Waits until review `id`'s `open_diff` is pending in the queue.
async fn pending(f: &Fixture, path: &str) -> u64 {
    let r = f
        .instance
        .reviews()
        .wait(Some(path), WAIT)
        .await
        .expect("the review is queued");
    r.id
}

#[tokio::test]
async fn the_lock_is_private_names_a_live_private_socket_and_claims_no_trust() {
    let f = start().await;
    let (path, body) = lock(&f);
    assert!(path
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("redline-"));
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(body["ideName"], "Redline");
    assert_eq!(body["scheme"], "unix");
    assert_eq!(body["pid"], std::process::id());
    assert_eq!(body["workspaceFolders"], json!([f.ws]));
    assert_eq!(
        body["headers"]["Authorization"],
        format!("Bearer {}", f.token)
    );
    assert!(body["timestamp"].as_u64().unwrap() > 1_700_000_000_000);
    assert!(
        body.get("isTrusted").is_none(),
        "trust is the user's to give"
    );
    let sock = socket(&f);
    let dir = sock.parent().unwrap();
    assert_eq!(dir, f.dirs.runtime);
    assert_eq!(
        std::fs::metadata(dir).unwrap().permissions().mode() & 0o077,
        0,
        "only the user may reach the socket"
    );
    // Copilot CLI probes every lock with a bare connection that sends nothing.
    for _ in 0..3 {
        drop(tokio::net::UnixStream::connect(&sock).await.unwrap());
    }
    let mut c = session(&f).await;
    let tools = c.rpc("tools/list", json!({})).await;
    // rmcp's tool router lists by name.
    assert_eq!(
        tool::names(&tools),
        [
            "close_diff",
            "get_diagnostics",
            "get_selection",
            "open_diff",
            "update_session_name",
        ]
    );
}

#[tokio::test]
async fn a_trusted_workspace_says_so_in_the_lock() {
    let f = start().await;
    f.instance.shutdown().await;
    // The user's word, in the config file: there is no other way to say it.
    let file = f.dirs.config_file();
    let mut config: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    config["workspaces"][0]["trusted"] = json!(true);
    std::fs::write(&file, config.to_string()).unwrap();
    let again = f
        .restart(std::sync::Arc::new(
            redline_core::workspace::container::OsInterfaces,
        ))
        .await;
    assert_eq!(lock(&f).1["isTrusted"], true);
    again.shutdown().await;
}

#[tokio::test]
async fn server_discover_is_refused_as_copilot_expects_and_initialize_answers() {
    let f = start().await;
    let c = copilot(&f);
    let resp = c
        .post(json!({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {}}))
        .await;
    let m = messages(resp).await;
    assert_eq!(m[0]["error"]["code"], -32601, "{m:?}");
    let mut c = copilot(&f);
    let init = c.connect("2025-11-25").await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(init["result"]["serverInfo"]["name"], "redline");
}

#[tokio::test]
async fn accept_answers_saved_and_reject_rejected_with_who_asked() {
    let f = start().await;
    let mut c = session(&f).await;
    let named = c
        .call("update_session_name", json!({"name": "Fix the parser"}))
        .await;
    assert_eq!(tool::json(&named), json!({"success": true}));
    let path = f.file("a.txt");
    for (decision, result) in [(true, "SAVED"), (false, "REJECTED")] {
        let asking = c.clone_session();
        let call = open_diff(
            asking,
            &path,
            "one\nTWO\n",
            "[Copilot CLI] - a.txt (4e08e3)",
        );
        let id = pending(&f, &path).await;
        let review = f.instance.reviews().review(id).unwrap();
        assert_eq!(review.proposal, "one\nTWO\n");
        let process = review
            .client
            .process
            .clone()
            .expect("the kernel names the peer");
        assert_eq!(process.pid, std::process::id());
        assert_eq!(
            review.client.session_name.as_deref(),
            Some("Fix the parser")
        );
        // Copilot CLI writes its own proposal on SAVED: the review is read-only, saying why.
        assert_eq!(
            review
                .read_only
                .as_ref()
                .map(ToString::to_string)
                .as_deref(),
            Some("Copilot CLI writes its own proposal: edits here can't be sent back.")
        );
        assert!(f
            .instance
            .reviews()
            .update(id, 1, "edited\n".into())
            .is_err());
        let edited = f
            .instance
            .reviews()
            .decide(id, Decision::accept(Some("one\nedited\n".into())))
            .await;
        assert!(edited.is_err(), "an edited accept cannot be carried back");
        f.instance
            .reviews()
            .decide(
                id,
                if decision {
                    Decision::accept(None)
                } else {
                    Decision::reject()
                },
            )
            .await
            .unwrap();
        let r = tokio::time::timeout(WAIT, call).await.unwrap().unwrap();
        let text: Value = tool::json(&r);
        assert_eq!(text["result"], result, "{text}");
        assert_eq!(text["success"], true);
        assert!(text["trigger"].is_string() && text["message"].is_string());
    }
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "one\ntwo\n",
        "Redline never writes the file: Copilot CLI does, on SAVED"
    );
}

#[tokio::test]
async fn close_diff_from_the_cli_ends_the_review_and_an_unknown_tab_is_already_closed() {
    let f = start().await;
    let c = session(&f).await;
    let path = f.file("a.txt");
    let asking = c.clone_session();
    let call = open_diff(asking, &path, "x\n", "t1");
    pending(&f, &path).await;
    let mut closer = c.clone_session();
    let closed = closer.call("close_diff", json!({"tab_name": "t1"})).await;
    let text: Value = tool::json(&closed);
    assert_eq!(text["already_closed"], false, "{text}");
    assert!(
        f.instance.reviews().list().is_empty(),
        "the review left Redline"
    );
    let r = tokio::time::timeout(WAIT, call).await.unwrap().unwrap();
    assert!(tool::text(&r).contains("REJECTED"));
    let again = closer.call("close_diff", json!({"tab_name": "t1"})).await;
    let text: Value = tool::json(&again);
    assert_eq!(text["already_closed"], true);
}

#[tokio::test]
async fn a_path_outside_the_workspace_is_a_tool_error_the_user_reads() {
    let f = start().await;
    let mut c = session(&f).await;
    let outside = f.tmp.path().join("secret.txt");
    std::fs::write(&outside, "secret").unwrap();
    let r = c
        .call(
            "open_diff",
            json!({"original_file_path": outside, "new_file_contents": "x", "tab_name": "t"}),
        )
        .await;
    assert!(tool::is_error(&r), "{r}");
    let text = tool::text(&r);
    assert!(text.contains("outside"), "{text}");
    assert!(!text.contains("secret\""), "{text}");
    assert!(f.instance.reviews().list().is_empty());
}

#[tokio::test]
async fn the_selection_goes_out_as_selection_changed_and_get_selection_answers_it() {
    let f = start().await;
    let c = session(&f).await;
    let mut stream = c.stream().await;
    let path = f.file("a.txt");
    let asking = c.clone_session();
    let _call = open_diff(asking, &path, "one\nTWO\n", "t");
    let id = pending(&f, &path).await;
    let sel = Selection {
        start_line: 1,
        start_character: 0,
        end_line: 1,
        end_character: 3,
    };
    f.instance.select(id, sel).await.unwrap();
    let m = stream.next_message().await.unwrap();
    assert_eq!(m["method"], "selection_changed", "{m}");
    assert_eq!(m["params"]["text"], "TWO");
    assert_eq!(m["params"]["filePath"], path);
    let mut asker = c.clone_session();
    let got = asker.call("get_selection", json!({})).await;
    let text: Value = tool::json(&got);
    assert_eq!(text["success"], true);
    assert_eq!(text["text"], "TWO");
}

#[tokio::test]
async fn a_wrong_or_missing_secret_gets_401_and_a_foreign_host_403() {
    let f = start().await;
    let sock = socket(&f);
    let init = crate::common::INIT;
    for auth in [None, Some("Bearer wrong"), Some("Nonce x")] {
        let (status, text) = raw(&sock, &post("localhost", auth, init)).await;
        assert_eq!(status, 401, "{auth:?}: {text}");
        assert!(!text.contains("redline\""), "nothing else: {text}");
    }
    let bearer = format!("Bearer {}", f.token);
    let (status, _) = raw(&sock, &post("evil.example", Some(&bearer), init)).await;
    assert_eq!(status, 403);
    let (status, _) = raw(&sock, &post("localhost", Some(&bearer), init)).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn disabling_the_workspace_removes_the_lock_and_the_socket() {
    let f = start().await;
    let (lock_path, _) = lock(&f);
    let sock = socket(&f);
    f.instance
        .workspaces()
        .set_enabled(&f.ws, false)
        .await
        .unwrap();
    assert!(!lock_path.exists());
    assert!(!sock.exists());
}

/// Polls `check` until it holds, for at most `WAIT`.
async fn eventually(what: &str, check: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !check() {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The Copilot locks whose only folder is `folder`.
fn locks_for(f: &Fixture, folder: &Path) -> Vec<PathBuf> {
    let dir = f.dirs.discovery(&COPILOT);
    std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| Some(e.ok()?.path())).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            std::fs::read(p)
                .ok()
                .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                .is_some_and(|v| v["workspaceFolders"] == json!([folder]))
        })
        .collect()
}

#[tokio::test]
async fn a_session_in_a_subfolder_gets_a_lock_of_its_own_while_it_lives() {
    let f = start().await;
    let sub = f.ws.join("server");
    std::fs::create_dir_all(&sub).unwrap();
    let (workspace_lock, before) = lock(&f);
    // What copilot started in `sub` records (COPILOT_HOME/session-state/<id>/).
    let record = f.dirs.home.join(".copilot/session-state/0b3c-session");
    std::fs::create_dir_all(&record).unwrap();
    std::fs::write(
        record.join("workspace.yaml"),
        format!("id: 0b3c-session\ncwd: {}\n", sub.display()),
    )
    .unwrap();
    let inuse = record.join(format!("inuse.{}.lock", std::process::id()));
    std::fs::write(&inuse, "").unwrap();
    eventually("a lock listing the subfolder", || {
        locks_for(&f, &sub).len() == 1
    })
    .await;
    let folder_lock = locks_for(&f, &sub).remove(0);
    let body: Value = serde_json::from_slice(&std::fs::read(&folder_lock).unwrap()).unwrap();
    assert_eq!(body["socketPath"], before["socketPath"]);
    assert_eq!(body["headers"], before["headers"]);
    assert_eq!(
        std::fs::metadata(&folder_lock)
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o600
    );
    assert_eq!(
        std::fs::read(&workspace_lock).unwrap(),
        serde_json::to_vec(&before).unwrap(),
        "the workspace's own lock is left alone: replacing it disconnects its sessions"
    );
    let status = f.instance.status().await;
    assert!(status.workspaces[0].discovery_files.contains(&folder_lock));
    // The session ends: its lock goes.
    std::fs::remove_file(&inuse).unwrap();
    eventually("the subfolder's lock removed", || !folder_lock.exists()).await;
    assert!(workspace_lock.exists());
}

/// A session's `cwd:` is judged where it really lies, component by component: climbing out with
/// `..`, a sibling whose name starts like the workspace's, a link out of it, get no lock; the
/// session in a real subfolder does.
#[tokio::test]
async fn only_sessions_really_inside_the_workspace_get_a_lock() {
    let f = start().await;
    let root = f.ws.parent().unwrap().to_owned();
    let sub = f.ws.join("server");
    let sibling = PathBuf::from(format!("{}2", f.ws.display()));
    let elsewhere = root.join("elsewhere");
    for dir in [&sub, &sibling, &elsewhere] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::os::unix::fs::symlink(&elsewhere, f.ws.join("out")).unwrap();
    let before = f.instance.status().await.workspaces[0]
        .discovery_files
        .clone();
    let ws = f.ws.display();
    let cwds = [
        format!("{ws}/../../etc"),
        format!("{ws}/server/../.."),
        sibling.display().to_string(),
        format!("{ws}/out"),
        format!("{ws}/out/deeper"),
        sub.display().to_string(),
    ];
    for (n, cwd) in cwds.iter().enumerate() {
        let record = f.dirs.home.join(format!(".copilot/session-state/s{n}"));
        std::fs::create_dir_all(&record).unwrap();
        std::fs::write(record.join("workspace.yaml"), format!("cwd: {cwd}\n")).unwrap();
        std::fs::write(
            record.join(format!("inuse.{}.lock", std::process::id())),
            "",
        )
        .unwrap();
    }
    // Every record is read in the same scan, and the status is read after that scan's locks.
    let deadline = tokio::time::Instant::now() + WAIT;
    let after = loop {
        let files = f.instance.status().await.workspaces[0]
            .discovery_files
            .clone();
        if locks_for(&f, &sub).len() == 1 && files.len() > before.len() {
            break files;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out: the subfolder's lock"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    let added: Vec<&PathBuf> = after.iter().filter(|p| !before.contains(p)).collect();
    assert_eq!(
        added,
        vec![&locks_for(&f, &sub)[0]],
        "one lock, the subfolder's"
    );
}

#[tokio::test]
async fn a_crashed_runs_socket_is_swept_at_start_and_a_live_one_kept() {
    let f = start().await;
    let live = socket(&f);
    // What a killed run leaves: a socket file nothing listens on.
    let dead = f.dirs.runtime.join("copilot-1.sock");
    drop(std::os::unix::net::UnixListener::bind(&dead).unwrap());
    assert!(dead.exists());
    let other = f
        .restart(std::sync::Arc::new(
            redline_core::workspace::container::OsInterfaces,
        ))
        .await;
    assert!(!dead.exists(), "the dead socket is gone");
    assert!(live.exists(), "the running server's socket stays");
    other.shutdown().await;
}

#[tokio::test]
async fn the_http_limits_hold_on_the_socket_too() {
    let f = start().await;
    let sock = socket(&f);
    let bearer = format!("Bearer {}", f.token);
    // A body announced over the limit: refused before it is read.
    let huge = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: {bearer}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        redline_core::protocols::jsonrpc::MAX_MESSAGE_BYTES + 1
    );
    assert_eq!(raw(&sock, &huge).await.0, 413);
    // A browser's request (any Origin) is refused even with the token.
    let with_origin = post("localhost", Some(&bearer), crate::common::INIT).replacen(
        "Host: localhost\r\n",
        "Host: localhost\r\nOrigin: http://evil.example\r\n",
        1,
    );
    assert_eq!(raw(&sock, &with_origin).await.0, 403);
    // Garbage is a JSON-RPC parse error with no parser text.
    let (status, text) = raw(&sock, &post("localhost", Some(&bearer), "{nope")).await;
    assert_eq!(status, 400, "{text}");
    assert!(
        text.contains("-32700") && !text.contains("key must be"),
        "{text}"
    );
}

/// Each tool is listed with the description and schema copilot has always been shown.
#[tokio::test]
async fn each_tool_is_listed_as_copilot_has_always_read_it() {
    let f = start().await;
    let mut c = session(&f).await;
    let r = c.rpc("tools/list", json!({})).await;
    let listed: Value = serde_json::from_str(include_str!("../data/tools_copilot.json")).unwrap();
    assert_eq!(tool::by_name(&r["result"]), tool::by_name(&listed));
}

#[tokio::test]
async fn an_unknown_tool_and_bad_arguments_are_json_rpc_errors_word_for_word() {
    let f = start().await;
    let mut c = session(&f).await;
    let r = c.call("openDiff", json!({})).await;
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "unknown tool: openDiff"})
    );
    let r = c.call("update_session_name", json!({"name": 5})).await;
    assert_eq!(
        r["error"],
        json!({"code": -32602,
               "message": "invalid arguments for update_session_name: expects name (see tools/list)"})
    );
    let r = c
        .call("open_diff", json!({"original_file_path": f.file("a.txt")}))
        .await;
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "invalid arguments for open_diff: expects \
               original_file_path, new_file_contents, tab_name (see tools/list)"})
    );
    assert!(f.instance.reviews().list().is_empty());
    // The model's tools take no arguments and read none: whatever it sends, they answer.
    let r = c.call("get_diagnostics", json!({"uri": 5})).await;
    assert_eq!(tool::json(&r), json!([]));
    let r = c.call("get_selection", json!({"x": [1]})).await;
    assert_eq!(
        tool::json(&r),
        json!({"success": false, "message": "Nothing is selected in Redline"})
    );
}
