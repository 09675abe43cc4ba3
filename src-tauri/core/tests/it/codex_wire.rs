//! Codex's side of its IDE channel, over any stream (the unix socket, or the named pipe on
//! Windows): u32-LE framed JSON, its requests, and the editor context the tests give Redline.

use crate::common::{dirs_in, Fixture, WAIT};
use redline_core::review::editor::Message;
use redline_core::runtime::instance::{Instance, World};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

pub async fn send<S: AsyncWrite + Unpin>(s: &mut S, v: &Value) {
    let body = v.to_string().into_bytes();
    s.write_all(&(body.len() as u32).to_le_bytes())
        .await
        .unwrap();
    s.write_all(&body).await.unwrap();
}

/// The next frame, or none if the connection closed.
pub async fn recv<S: AsyncRead + Unpin>(s: &mut S) -> Option<Value> {
    tokio::time::timeout(WAIT, async {
        let mut len = [0u8; 4];
        s.read_exact(&mut len).await.ok()?;
        let mut body = vec![0u8; u32::from_le_bytes(len) as usize];
        s.read_exact(&mut body).await.ok()?;
        Some(serde_json::from_slice(&body).expect("a JSON frame"))
    })
    .await
    .expect("no answer in time")
}

pub fn request(id: &str, method: &str, root: &Path) -> Value {
    json!({"type": "request", "requestId": id, "sourceClientId": "codex-tui", "version": 0,
           "method": method, "params": {"workspaceRoot": root}})
}

pub async fn editor_context(f: &Fixture) {
    std::fs::write(f.ws.join("b.txt"), "b\n").unwrap();
    let message = Message::parse(
        &json!({"type": "context", "files": [
            {"path": f.file("b.txt")},
            {"path": f.file("a.txt"), "active": true, "cursor": {"line": 2, "col": 3},
             "selection": {"start": {"line": 1, "col": 2}, "end": {"line": 2, "col": 3}, "text": "ne\ntw"}},
        ]})
        .to_string(),
    )
    .unwrap();
    f.instance.editor_message(None, message).await.unwrap();
}

/// An instance over `root`'s directories with one enabled workspace, `root/ws`.
pub async fn instance_in(root: &Path) -> Arc<Instance> {
    let ws = root.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let dirs = dirs_in(root);
    let instance = Instance::start(World::isolated(dirs)).await.unwrap();
    instance.workspaces().add(&ws, false).await.unwrap();
    instance
}

pub fn fresh_root() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = dunce::canonicalize(tmp.path()).unwrap();
    (tmp, root)
}

/// The editor's context for `ws/a.txt` through the instance, as an editor plugin sends it.
pub async fn editor_says(instance: &Instance, ws: &Path) {
    std::fs::write(ws.join("a.txt"), "one\ntwo\n").unwrap();
    let message = Message::parse(
        &json!({"type": "context", "files": [{"path": ws.join("a.txt"), "active": true,
               "selection": {"start": {"line": 1, "col": 1}, "end": {"line": 1, "col": 4}, "text": "one"}}]})
        .to_string(),
    )
    .unwrap();
    instance.editor_message(None, message).await.unwrap();
}
