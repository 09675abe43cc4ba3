//! Codex CLI's IDE socket on the real filesystem: u32-LE framed JSON on
//! `$TMPDIR/codex-ipc/ipc-<uid>.sock`, answered from the editor context of the workspace holding
//! Codex's folder; the socket's folder, a foreign listener and a stale file as Codex leaves them.

pub use crate::codex_wire::{editor_context, fresh_root, instance_in, recv, request, send};
use crate::common::{dirs_in, start, WAIT};
use redline_core::platform::own_user::own_uid;
use redline_core::protocols::codex_ipc::{frame::MAX_FRAME, socket};
use redline_core::review::editor::Message;
use serde_json::{json, Value};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;
use tokio::net::UnixStream;

pub fn codex_socket(tmp: &Path) -> PathBuf {
    socket::path(tmp, own_uid())
}

pub async fn connect(path: &Path) -> UnixStream {
    tokio::time::timeout(WAIT, UnixStream::connect(path))
        .await
        .expect("connect timed out")
        .expect("Codex's socket answers")
}

/// One `ide-context` exchange on a fresh connection, as Codex makes it before each message.
pub async fn ask(path: &Path, root: &Path) -> Value {
    let mut s = connect(path).await;
    send(&mut s, &request("r1", "ide-context", root)).await;
    let answer = recv(&mut s).await.expect("an answer");
    assert_eq!(answer["type"], "response", "{answer}");
    assert_eq!(answer["requestId"], "r1", "{answer}");
    answer
}

#[tokio::test]
async fn codex_gets_the_editor_context_of_the_workspace_holding_its_folder() {
    let f = start().await;
    let path = codex_socket(&f.dirs.tmp);
    let mode = |p: &Path| std::fs::symlink_metadata(p).unwrap().mode() & 0o777;
    assert_eq!(
        mode(path.parent().unwrap()),
        0o700,
        "its folder is created private"
    );
    assert_eq!(mode(&path), 0o600, "only the user may connect");

    // No editor has spoken yet: an empty context (an error would keep `/ide on` off).
    let none = ask(&path, &f.ws).await;
    assert_eq!(none["resultType"], "success", "{none}");
    assert_eq!(
        none["result"]["ideContext"],
        json!({"activeFile": null, "openTabs": []}),
        "{none}"
    );

    // Outside every workspace: Codex's own code for "no IDE here".
    let outside = f.tmp.path().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let out = ask(&path, &outside).await;
    assert_eq!(out["resultType"], "error", "{out}");
    assert_eq!(out["error"], "no-client-found", "{out}");

    editor_context(&f).await;
    let ok = ask(&path, &f.ws).await;
    assert_eq!(ok["resultType"], "success", "{ok}");
    let a = f.file("a.txt");
    let b = f.file("b.txt");
    assert_eq!(
        ok["result"]["ideContext"],
        json!({
            "activeFile": {"label": "a.txt", "path": "a.txt", "fsPath": a,
                "selection": {"start": {"line": 0, "character": 1}, "end": {"line": 1, "character": 2}},
                "activeSelectionContent": "ne\ntw",
                // VS Code's `selections`: every range, the primary among them.
                "selections": [{"start": {"line": 0, "character": 1}, "end": {"line": 1, "character": 2}}]},
            "openTabs": [
                {"label": "a.txt", "path": "a.txt", "fsPath": a},
                {"label": "b.txt", "path": "b.txt", "fsPath": b},
            ],
        })
    );

    // Codex in a subfolder: the same workspace answers, paths absolute where not beneath it.
    let sub = f.ws.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let ok = ask(&path, &sub).await;
    assert_eq!(ok["result"]["ideContext"]["activeFile"]["path"], a, "{ok}");

    // A block over two lines: `selections` holds both ranges, `selection` the primary.
    let range = |l: u32, text: &str| json!({"start": {"line": l, "col": 2}, "end": {"line": l, "col": 3}, "text": text});
    let block = json!({"type": "context", "files": [{"path": f.file("a.txt"), "active": true,
        "selection": {"start": {"line": 1, "col": 2}, "end": {"line": 2, "col": 3}, "text": "n\nw"},
        "ranges": [range(1, "n"), range(2, "w")]}]});
    let message = Message::parse(&block.to_string()).unwrap();
    f.instance.editor_message(None, message).await.unwrap();
    let ok = ask(&path, &f.ws).await;
    let active = &ok["result"]["ideContext"]["activeFile"];
    let at =
        |l: u32| json!({"start": {"line": l, "character": 1}, "end": {"line": l, "character": 2}});
    assert_eq!(active["selections"], json!([at(0), at(1)]), "{ok}");
    assert_eq!(
        active["selection"]["end"],
        json!({"line": 1, "character": 2}),
        "{ok}"
    );
    assert_eq!(active["activeSelectionContent"], "n\nw", "{ok}");
}

#[tokio::test]
async fn one_connection_answers_requests_in_turn_and_refuses_what_it_does_not_know() {
    let f = start().await;
    let path = codex_socket(&f.dirs.tmp);
    editor_context(&f).await;
    let mut s = connect(&path).await;

    // Older Codex versions said `initialize` first and used the answer's id.
    send(
        &mut s,
        &json!({"type": "request", "requestId": "i", "sourceClientId": "initializing-client",
        "version": 0, "method": "initialize", "params": {"clientType": "desktop"}}),
    )
    .await;
    let init = recv(&mut s).await.unwrap();
    assert_eq!(init["resultType"], "success", "{init}");
    assert!(init["result"]["clientId"].is_string(), "{init}");

    // A broadcast is no request: nothing answers it, and the connection goes on.
    send(
        &mut s,
        &json!({"type": "broadcast", "method": "client-status-changed", "params": {}}),
    )
    .await;
    send(&mut s, &request("u", "open-file", &f.ws)).await;
    let unknown = recv(&mut s).await.unwrap();
    assert_eq!(unknown["requestId"], "u", "{unknown}");
    assert_eq!(unknown["resultType"], "error", "{unknown}");
    assert_eq!(unknown["error"], "no-handler-for-request", "{unknown}");

    send(&mut s, &request("c", "ide-context", &f.ws)).await;
    let ok = recv(&mut s).await.unwrap();
    assert_eq!(ok["requestId"], "c", "{ok}");
    assert_eq!(
        ok["result"]["ideContext"]["activeFile"]["label"], "a.txt",
        "{ok}"
    );

    // Not JSON: the connection ends.
    s.write_all(&3u32.to_le_bytes()).await.unwrap();
    s.write_all(b"{{{").await.unwrap();
    assert_eq!(recv(&mut s).await, None);
}

#[tokio::test]
async fn a_length_over_the_limit_ends_the_connection_before_any_body_is_read() {
    let f = start().await;
    let path = codex_socket(&f.dirs.tmp);
    let mut s = connect(&path).await;
    s.write_all(&((MAX_FRAME as u32) + 1).to_le_bytes())
        .await
        .unwrap();
    // Closed at once: no body was waited for (the read deadline would take seconds).
    let started = std::time::Instant::now();
    assert_eq!(recv(&mut s).await, None);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    // The largest allowed length is read (then answered as the request it is).
    let mut s = connect(&path).await;
    let mut body = request("big", "ide-context", &f.ws)
        .to_string()
        .into_bytes();
    body.resize(MAX_FRAME, b' ');
    s.write_all(&(MAX_FRAME as u32).to_le_bytes())
        .await
        .unwrap();
    s.write_all(&body).await.unwrap();
    let answer = recv(&mut s)
        .await
        .expect("an answer to a frame at the limit");
    assert_eq!(answer["requestId"], "big", "{answer}");
}

#[tokio::test]
async fn a_folder_others_can_write_to_or_another_users_folder_is_never_used() {
    let (_tmp, root) = fresh_root();
    let path = codex_socket(&dirs_in(&root).tmp);
    let dir = path.parent().unwrap().to_owned();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let instance = instance_in(&root).await;
    assert!(!path.exists(), "a socket was made in a 0777 folder");
    assert_eq!(
        std::fs::metadata(&dir).unwrap().mode() & 0o7777,
        0o777,
        "the folder was changed"
    );
    instance.shutdown().await;

    if own_uid() != 0 {
        eprintln!("skipped the other user's folder: needs root to chown");
        return;
    }
    let (_tmp, root) = fresh_root();
    let path = codex_socket(&dirs_in(&root).tmp);
    let dir = path.parent().unwrap().to_owned();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::chown(&dir, Some(65534), None).unwrap();
    let instance = instance_in(&root).await;
    assert!(!path.exists(), "a socket was made in another user's folder");
    assert_eq!(std::fs::metadata(&dir).unwrap().uid(), 65534);
    instance.shutdown().await;
}

/// `$TMPDIR` open to all and not sticky: anyone could move `codex-ipc` away, socket and all,
/// and put theirs in its place. Never used, and `status` says which folder and why.
#[tokio::test]
async fn a_temp_folder_above_that_others_can_write_to_is_never_used() {
    let (_tmp, root) = fresh_root();
    let tmp = dirs_in(&root).tmp;
    let path = codex_socket(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o777)).unwrap();
    let instance = instance_in(&root).await;
    assert!(
        !path.exists(),
        "a socket was made under a folder open to all"
    );
    assert!(!path.parent().unwrap().exists());
    let codex = instance.status().await.codex_ide.unwrap();
    let why = codex.why.unwrap_or_default();
    assert!(
        why.contains(&format!(
            "is in {}, which is writable by group or others (mode 777)",
            tmp.display()
        )),
        "{why}"
    );
    instance.shutdown().await;
}

/// Codex takes a folder of the user's that others can only read (0755), so Redline does too; the
/// socket itself stays the user's alone.
#[tokio::test]
async fn an_own_folder_others_may_only_read_is_used_with_a_private_socket() {
    let (_tmp, root) = fresh_root();
    let path = codex_socket(&dirs_in(&root).tmp);
    let dir = path.parent().unwrap().to_owned();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let instance = instance_in(&root).await;
    assert_eq!(std::fs::metadata(&path).unwrap().mode() & 0o777, 0o600);
    assert_eq!(std::fs::metadata(&dir).unwrap().mode() & 0o7777, 0o755);
    let answer = ask(&path, &root.join("ws")).await;
    assert_eq!(answer["resultType"], "success", "{answer}");
    instance.shutdown().await;
}

#[tokio::test]
async fn a_live_foreign_listener_is_left_alone() {
    let (_tmp, root) = fresh_root();
    let path = codex_socket(&dirs_in(&root).tmp);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::set_permissions(
        path.parent().unwrap(),
        std::fs::Permissions::from_mode(0o700),
    )
    .unwrap();
    // A Codex app's router, say.
    let foreign = tokio::net::UnixListener::bind(&path).unwrap();
    let instance = instance_in(&root).await;
    // Codex's next connection still reaches the foreign listener.
    let _client = connect(&path).await;
    tokio::time::timeout(WAIT, foreign.accept())
        .await
        .expect("the foreign listener lost its socket")
        .unwrap();
    instance.shutdown().await;
    assert!(path.exists(), "stop removed another program's socket");
    let _again = connect(&path).await;
}

#[tokio::test]
async fn a_stale_socket_is_replaced_and_removed_at_stop() {
    let (_tmp, root) = fresh_root();
    let path = codex_socket(&dirs_in(&root).tmp);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::set_permissions(
        path.parent().unwrap(),
        std::fs::Permissions::from_mode(0o700),
    )
    .unwrap();
    // A crashed run's socket: the file stays, nothing listens. A datagram socket, never a
    // listener: a stream listener bound and dropped here still listened in any child another
    // test forked meanwhile (until its exec), and Redline's probe then found it held (CI).
    drop(std::os::unix::net::UnixDatagram::bind(&path).unwrap());
    assert!(path.exists());
    let instance = instance_in(&root).await;
    let answer = ask(&path, &root.join("ws")).await;
    assert_eq!(answer["resultType"], "success", "{answer}");
    instance.shutdown().await;
    assert!(!path.exists(), "the socket outlived the instance");
}
