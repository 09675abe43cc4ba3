//! The editor channel on the real control socket: what an editor says reaches each connected
//! CLI in its own terms, and bad input (garbage, huge lines and selections, paths outside, a
//! closed pipe) gets a clear error without disturbing them.

use crate::common::claude::Claude;
use crate::common::mcp::Sse;
use crate::common::tool;
use crate::common::{start, Fixture, WAIT};
use redline_core::review::editor::{MAX_LINE, MAX_RANGES, MAX_SELECTION_CHARS};
use redline_core::runtime::control;
use redline_core::surfaces::action::EditorSend;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

pub(crate) type Stream = BufReader<Box<dyn Duplex>>;
pub(crate) trait Duplex:
    tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send
{
}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send> Duplex for T {}

/// Serves the fixture's control channel, as `redline serve` does.
pub(crate) async fn serve_control(f: &Fixture) {
    let listener = control::bind(&f.dirs).await.unwrap();
    tokio::spawn(control::serve(f.instance.clone(), listener));
}

/// An editor channel, past its `ready` line.
pub(crate) async fn editor(f: &Fixture) -> Stream {
    let stream: Box<dyn Duplex> = Box::new(control::connect(&f.dirs).await.unwrap());
    let mut s = BufReader::new(stream);
    s.get_mut()
        .write_all(b"{\"cmd\":\"editor\"}\n")
        .await
        .unwrap();
    assert_eq!(line(&mut s).await["type"], "ready");
    s
}

pub(crate) async fn send(s: &mut Stream, v: &Value) {
    let mut out = v.to_string().into_bytes();
    out.push(b'\n');
    s.get_mut().write_all(&out).await.unwrap();
}

pub(crate) async fn line(s: &mut Stream) -> Value {
    let mut l = String::new();
    let n = tokio::time::timeout(WAIT, s.read_line(&mut l))
        .await
        .expect("timed out waiting for the editor channel")
        .unwrap();
    assert!(n > 0, "the editor channel closed");
    serde_json::from_str(&l).unwrap()
}

/// The next `ide/contextUpdate` whose active file is `name` (older ones may still be in flight).
async fn context_with(sse: &mut Sse, f: &Fixture, active: Option<&str>) -> Value {
    loop {
        let m = sse.next_message().await.expect("the stream ended");
        if m["method"] != "ide/contextUpdate" {
            continue;
        }
        let first = &m["params"]["workspaceState"]["openFiles"][0];
        match active {
            Some(name) if first["path"] == f.file(name) && first["isActive"] == true => {
                return m["params"].clone()
            }
            None if first.is_null() => return m["params"].clone(),
            _ => {}
        }
    }
}

/// A file beside the workspace, in no workspace.
fn outside(f: &Fixture) -> String {
    f.ws.with_file_name("outside.txt")
        .to_string_lossy()
        .into_owned()
}

pub(crate) fn context_msg(f: &Fixture, id: u64, active: &str, text: &str) -> Value {
    json!({"type": "context", "id": id, "files": [
        {"path": f.file("b.txt")},
        {"path": f.file(active), "active": true, "cursor": {"line": 2, "col": 3},
         "selection": {"start": {"line": 1, "col": 2}, "end": {"line": 2, "col": 3}, "text": text}},
        {"path": outside(f)},
    ]})
}

#[tokio::test]
async fn the_editors_context_reaches_every_connected_cli_in_its_own_terms() {
    let f = start().await;
    std::fs::write(f.ws.join("b.txt"), "b\n").unwrap();
    std::fs::write(outside(&f), "o\n").unwrap();
    serve_control(&f).await;
    let http = f.session().await;
    let mut sse = http.stream().await;
    let mut claude = Claude::connect(&f).await;
    let mut ed = editor(&f).await;

    send(&mut ed, &context_msg(&f, 1, "a.txt", "ne\ntw")).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));

    // Gemini CLI and Qwen Code: the active file with cursor (1-based) and selected text.
    let ctx = context_with(&mut sse, &f, Some("a.txt")).await;
    let open = ctx["workspaceState"]["openFiles"].as_array().unwrap();
    assert_eq!(
        open.len(),
        2,
        "the file outside the workspace is left out: {ctx}"
    );
    assert_eq!(open[0]["cursor"], json!({"line": 2, "character": 3}));
    assert_eq!(open[0]["selectedText"], "ne\ntw");
    assert_eq!(open[1]["path"], f.file("b.txt"));
    assert!(open[1].get("isActive").is_none());
    assert!(open[0]["timestamp"].as_u64() > open[1]["timestamp"].as_u64());

    // Claude Code: selection_changed (0-based), then the tools answer from the editor.
    let m = claude.next().await.unwrap();
    assert_eq!(m["method"], "selection_changed", "{m}");
    assert_eq!(
        m["params"]["selection"],
        json!({"start": {"line": 0, "character": 1}, "end": {"line": 1, "character": 2},
               "isEmpty": false})
    );
    assert_eq!(m["params"]["filePath"], f.file("a.txt"));
    assert_eq!(m["params"]["text"], "ne\ntw");
    for tool in ["getCurrentSelection", "getLatestSelection"] {
        let r = claude.call(tool, json!({})).await;
        let sel: Value = tool::json(&r);
        assert_eq!(sel["success"], true, "{tool}: {sel}");
        assert_eq!(sel["text"], "ne\ntw");
    }
    let r = claude.call("getOpenEditors", json!({})).await;
    let tabs: Value = tool::json(&r);
    assert_eq!(tabs["tabs"][0]["fileName"], f.file("a.txt"));
    assert_eq!(tabs["tabs"][0]["isActive"], true);
    assert_eq!(tabs["tabs"][1]["fileName"], f.file("b.txt"));

    // A mention: at_mentioned with 0-based lines.
    send(
        &mut ed,
        &json!({"type": "mention", "id": 2, "path": f.file("a.txt"), "start": 2, "end": 1}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 2}));
    let m = claude.next().await.unwrap();
    assert_eq!(
        m,
        json!({"jsonrpc": "2.0", "method": "at_mentioned",
               "params": {"filePath": f.file("a.txt"), "lineStart": 0, "lineEnd": 1}})
    );

    // A file under review joins the editor's files; the editor's active file stays active.
    let mut proposer = f.session().await;
    std::fs::write(f.ws.join("c.txt"), "c\n").unwrap();
    let c = f.propose(&mut proposer, "c.txt", "new c\n").await;
    loop {
        let ctx = context_with(&mut sse, &f, Some("a.txt")).await;
        let paths: Vec<&str> = ctx["workspaceState"]["openFiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["path"].as_str().unwrap())
            .collect();
        if paths.contains(&f.file("c.txt").as_str()) {
            assert_eq!(paths[0], f.file("a.txt"), "{ctx}");
            assert!(paths.contains(&f.file("b.txt").as_str()), "{ctx}");
            break;
        }
    }
    f.instance
        .reviews()
        .decide(c, redline_core::runtime::companion::Decision::reject())
        .await
        .unwrap();

    // An accepted review of a file is told to the editor (to reload it).
    let id = f.propose(&mut proposer, "b.txt", "new b\n").await;
    f.instance
        .reviews()
        .decide(id, redline_core::runtime::companion::Decision::accept(None))
        .await
        .unwrap();
    assert_eq!(
        line(&mut ed).await,
        json!({"type": "accepted", "path": f.file("b.txt")})
    );

    // The editor goes: so does what it said.
    drop(ed);
    context_with(&mut sse, &f, None).await;
}

#[tokio::test]
async fn bad_input_from_an_editor_gets_a_clear_error_and_never_disturbs_a_cli() {
    let f = start().await;
    serve_control(&f).await;
    let http = f.session().await;
    let mut sse = http.stream().await;
    let mut claude = Claude::connect(&f).await;
    let mut ed = editor(&f).await;

    // Garbage: an error line each, and the channel stays up.
    for bad in [
        "not json",
        "{\"type\":\"launch\"}",
        "[1,2]",
        "{\"type\":\"context\"}",
    ] {
        ed.get_mut()
            .write_all(format!("{bad}\n").as_bytes())
            .await
            .unwrap();
        let e = line(&mut ed).await;
        assert_eq!(e["type"], "error", "{bad}: {e}");
        assert_eq!(e["code"], "bad_message", "{bad}: {e}");
    }
    // Invalid UTF-8 is garbage too.
    ed.get_mut().write_all(b"\xff\xfe{\n").await.unwrap();
    assert_eq!(line(&mut ed).await["code"], "bad_message");

    // A line over the bound: refused whole, the next one read.
    let mut long = vec![b'x'; MAX_LINE + 100];
    long.push(b'\n');
    ed.get_mut().write_all(&long).await.unwrap();
    let e = line(&mut ed).await;
    assert_eq!(e["code"], "bad_message");
    assert!(
        e["message"].as_str().unwrap().contains("longer than"),
        "{e}"
    );

    // A path outside every workspace, relative or active.
    send(
        &mut ed,
        &json!({"type": "context", "id": 7, "files": [{"path": outside(&f), "active": true}]}),
    )
    .await;
    let e = line(&mut ed).await;
    assert_eq!(
        (e["id"].clone(), e["code"].clone()),
        (json!(7), json!("not_in_workspace"))
    );
    assert!(e["message"].as_str().unwrap().contains(&outside(&f)));
    send(
        &mut ed,
        &json!({"type": "mention", "id": 8, "path": "a.txt", "start": 1, "end": 1}),
    )
    .await;
    assert_eq!(line(&mut ed).await["code"], "relative_path");

    // A huge selection is cut where the CLIs cut it.
    let huge = "é".repeat(100_000);
    send(&mut ed, &context_msg(&f, 9, "a.txt", &huge)).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 9}));
    let ctx = context_with(&mut sse, &f, Some("a.txt")).await;
    let sent = ctx["workspaceState"]["openFiles"][0]["selectedText"]
        .as_str()
        .unwrap();
    assert_eq!(sent.chars().count(), MAX_SELECTION_CHARS);
    let m = claude.next().await.unwrap();
    assert_eq!(m["method"], "selection_changed");
    assert_eq!(
        m["params"]["text"].as_str().unwrap().chars().count(),
        MAX_SELECTION_CHARS
    );

    // A pipe closed mid-line: the channel ends, the editor's context goes, the CLIs carry on.
    ed.get_mut()
        .write_all(b"{\"type\":\"context\",\"files\":[")
        .await
        .unwrap();
    drop(ed);
    context_with(&mut sse, &f, None).await;
    let pong = claude.request("ping", json!({})).await;
    assert_eq!(claude.response(pong).await["result"], json!({}));
    // :RedlineReview on a headless instance (no surface listens): an error saying what to use,
    // with the message's id, not an `ok` for a window that never opens.
    let mut again = editor(&f).await;
    send(&mut again, &json!({"type": "review", "id": 7})).await;
    let refused = line(&mut again).await;
    assert_eq!(
        (&refused["type"], &refused["id"], &refused["code"]),
        (&json!("error"), &json!(7), &json!("no_window")),
        "{refused}"
    );
    assert!(
        refused["message"]
            .as_str()
            .is_some_and(|m| m.contains("redline review list")),
        "{refused}"
    );
    // With the desktop's window listening, :RedlineReview asks it to show the reviews.
    let mut shows = f.instance.show_requests();
    send(&mut again, &json!({"type": "review", "id": 1})).await;
    assert_eq!(line(&mut again).await, json!({"type": "ok", "id": 1}));
    tokio::time::timeout(WAIT, shows.recv())
        .await
        .expect("a show request")
        .unwrap();
}

/// The tabs Claude Code's `getOpenEditors` lists: file name and whether it is the active one.
async fn tabs(c: &mut Claude) -> Vec<(String, bool)> {
    let r = c.call("getOpenEditors", json!({})).await;
    let v: Value = tool::json(&r);
    v["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["fileName"].as_str().unwrap().to_owned(),
                t["isActive"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn each_file_goes_to_the_innermost_workspace_that_holds_it() {
    let f = start().await;
    let inner = f.ws.join("inner");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::write(inner.join("x.txt"), "x\n").unwrap();
    f.instance.workspaces().add(&inner, false).await.unwrap();
    let pin = f.instance.workspaces().pin(&inner).await.unwrap();
    serve_control(&f).await;
    let mut outer = Claude::connect(&f).await;
    let mut nested = Claude::over(
        crate::common::claude::upgrade_at(
            "127.0.0.1",
            "127.0.0.1",
            pin.ws_port.unwrap(),
            &pin.auth_token,
        )
        .await
        .unwrap(),
    );
    nested.hello().await;
    let mut ed = editor(&f).await;
    let x = inner.join("x.txt").to_string_lossy().into_owned();
    send(
        &mut ed,
        &json!({"type": "context", "id": 1, "files": [
            {"path": x, "active": true}, {"path": f.file("a.txt")}]}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));
    assert_eq!(tabs(&mut nested).await, [(x.clone(), true)]);
    assert_eq!(tabs(&mut outer).await, [(f.file("a.txt"), false)]);
    // The editor moves to a file of the outer workspace: the inner one no longer has an
    // active file from it.
    send(
        &mut ed,
        &json!({"type": "context", "id": 2, "files": [{"path": f.file("a.txt"), "active": true}]}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 2}));
    assert!(tabs(&mut nested).await.is_empty());
}

#[tokio::test]
async fn a_one_shot_message_is_bounded_as_a_channel_line_is() {
    let f = start().await;
    serve_control(&f).await;
    let send = |message: Value| {
        let dirs = f.dirs.clone();
        async move {
            let message = serde_json::from_value(message).unwrap();
            control::call(&dirs, &EditorSend { message }.into()).await
        }
    };
    let zero = send(json!({"type": "context", "files": [
        {"path": f.file("a.txt"), "active": true, "cursor": {"line": 0, "col": 1}}]}))
    .await
    .unwrap_err();
    assert!(zero.to_string().contains("1-based"), "{zero}");
    let mut claude = Claude::connect(&f).await;
    send(json!({"type": "context", "files": [
        {"path": f.file("a.txt"), "active": true, "cursor": {"line": 1, "col": 1},
         "selection": {"start": {"line": 1, "col": 1}, "end": {"line": 1, "col": 2},
                       "text": "x".repeat(100_000)}}]}))
    .await
    .unwrap();
    let m = claude.next().await.unwrap();
    assert_eq!(m["method"], "selection_changed");
    assert_eq!(
        m["params"]["text"].as_str().unwrap().len(),
        MAX_SELECTION_CHARS
    );
}

/// Copilot CLI's session on its unix socket, as copilot 1.0.102 opens one.
#[cfg(unix)]
pub(crate) async fn copilot(f: &Fixture) -> crate::common::Mcp {
    let dir = f.dirs.discovery(&redline_core::clients::COPILOT);
    let lock = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "lock"))
        .expect("a Copilot lock");
    let lock: Value = serde_json::from_slice(&std::fs::read(lock).unwrap()).unwrap();
    let http = reqwest::Client::builder()
        .unix_socket(std::path::PathBuf::from(
            lock["socketPath"].as_str().unwrap(),
        ))
        .build()
        .unwrap();
    let mut c = crate::common::Mcp::new(http, "http://localhost/mcp".into(), f.token.clone());
    c.connect("2025-11-25").await;
    c
}

#[cfg(unix)]
#[tokio::test]
async fn copilot_cli_gets_the_editors_selection_and_mentions_in_its_terms() {
    let f = start().await;
    serve_control(&f).await;
    let c = copilot(&f).await;
    let mut stream = c.stream().await;
    let mut ed = editor(&f).await;
    send(&mut ed, &context_msg(&f, 1, "a.txt", "ne\ntw")).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));
    let m = stream.next_message().await.unwrap();
    assert_eq!(m["method"], "selection_changed", "{m}");
    assert_eq!(m["params"]["filePath"], f.file("a.txt"));
    assert_eq!(m["params"]["text"], "ne\ntw");
    let mut asker = c.clone_session();
    let got = asker.call("get_selection", json!({})).await;
    let sel: Value = tool::json(&got);
    assert_eq!(sel["text"], "ne\ntw", "{sel}");

    send(
        &mut ed,
        &json!({"type": "mention", "id": 2, "path": f.file("a.txt"), "start": 1, "end": 2}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 2}));
    let m = stream.next_message().await.unwrap();
    assert_eq!(m["method"], "add_selection", "{m}");
    assert_eq!(
        m["params"]["selection"],
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}})
    );
    assert_eq!(m["params"]["filePath"], f.file("a.txt"));
}

/// opencode 1.18 reads Claude Code's messages but shows their line numbers as they come
/// (`#2-4`, `@a.txt#2-4`, 1-based like every editor): it gets them 1-based, Claude Code 0-based.
#[tokio::test]
async fn opencode_on_claude_code_s_protocol_gets_the_editors_lines_1_based() {
    let f = start().await;
    serve_control(&f).await;
    let mut claude = Claude::connect(&f).await;
    // What opencode sends on connecting: initialize, then notifications/initialized.
    let mut opencode = Claude::over(crate::common::claude::upgrade(&f, &f.token).await);
    let init = opencode
        .rpc(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "opencode", "version": "0.0.0"}}),
        )
        .await;
    assert!(init["result"].is_object(), "{init}");
    opencode
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    // Who it is, as `redline status` shows it (the answer to initialize has set it).
    let mut names: Vec<String> = f.instance.status().await.workspaces[0]
        .clients
        .iter()
        .map(|c| c.name.clone())
        .collect();
    names.sort();
    assert_eq!(names, ["Claude Code", "opencode"]);
    let mut ed = editor(&f).await;

    // Lines 2..3 as the editor counts them (1-based).
    send(&mut ed, &context_msg(&f, 1, "a.txt", "ne\ntw")).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));
    let m = claude.next().await.unwrap();
    assert_eq!(m["method"], "selection_changed", "{m}");
    assert_eq!(
        m["params"]["selection"],
        json!({"start": {"line": 0, "character": 1}, "end": {"line": 1, "character": 2},
               "isEmpty": false})
    );
    let m = opencode.next().await.unwrap();
    assert_eq!(m["method"], "selection_changed", "{m}");
    assert_eq!(
        m["params"]["selection"],
        json!({"start": {"line": 1, "character": 1}, "end": {"line": 2, "character": 2},
               "isEmpty": false}),
        "opencode shows these numbers as they are"
    );
    assert_eq!(m["params"]["text"], "ne\ntw");

    send(
        &mut ed,
        &json!({"type": "mention", "id": 2, "path": f.file("a.txt"), "start": 2, "end": 1}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 2}));
    let m = claude.next().await.unwrap();
    assert_eq!(
        m["params"],
        json!({"filePath": f.file("a.txt"), "lineStart": 0, "lineEnd": 1})
    );
    let m = opencode.next().await.unwrap();
    assert_eq!(
        m,
        json!({"jsonrpc": "2.0", "method": "at_mentioned",
               "params": {"filePath": f.file("a.txt"), "lineStart": 1, "lineEnd": 2}})
    );
}

/// A connection that names itself `name` in `initialize`, as opencode and Claude Code do.
async fn named(f: &Fixture, name: &str) -> Claude {
    let mut c = Claude::over(crate::common::claude::upgrade(f, &f.token).await);
    let init = c
        .rpc(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": name, "version": "0.0.0"}}),
        )
        .await;
    assert!(init["result"].is_object(), "{init}");
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    c
}

/// A block over lines 2..=4 of a.txt, columns 2..3 (1-based), one range a line.
fn block(f: &Fixture, id: u64) -> Value {
    let range = |l: u32, text: &str| json!({"start": {"line": l, "col": 2}, "end": {"line": l, "col": 4}, "text": text});
    json!({"type": "context", "id": id, "files": [
        {"path": f.file("a.txt"), "active": true, "cursor": {"line": 4, "col": 3},
         "selection": {"start": {"line": 2, "col": 2}, "end": {"line": 4, "col": 4},
                       "text": "ne\nwo\nhr"},
         "ranges": [range(2, "ne"), range(3, "wo"), range(4, "hr")]},
    ]})
}

/// opencode 1.18 reads `selection_changed`'s `ranges` (every range, rendered as "Selection 1:
/// …"): it gets them all, 1-based; Claude Code, whose parser reads one range, gets the primary.
#[tokio::test]
async fn several_ranges_reach_opencode_as_ranges_and_claude_code_as_one() {
    let f = start().await;
    serve_control(&f).await;
    let mut claude = named(&f, "claude-code").await;
    let mut opencode = named(&f, "opencode").await;
    let mut ed = editor(&f).await;
    send(&mut ed, &block(&f, 1)).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));

    let m = claude.next().await.unwrap();
    assert_eq!(m["method"], "selection_changed", "{m}");
    let url = m["params"]["fileUrl"].clone();
    assert!(
        url.as_str().is_some_and(|u| u.starts_with("file:///")),
        "{m}"
    );
    let one = json!({"text": "ne\nwo\nhr", "filePath": f.file("a.txt"), "fileUrl": url,
        "selection": {"start": {"line": 1, "character": 1}, "end": {"line": 3, "character": 3},
                      "isEmpty": false}});
    assert_eq!(m["params"], one, "Claude Code: the primary alone, 0-based");

    let m = opencode.next().await.unwrap();
    assert_eq!(m["method"], "selection_changed", "{m}");
    let range = |l: u32, text: &str| {
        json!({"text": text, "selection": {"start": {"line": l, "character": 1},
               "end": {"line": l, "character": 3}, "isEmpty": false}})
    };
    assert_eq!(
        m["params"]["ranges"],
        json!([range(2, "ne"), range(3, "wo"), range(4, "hr")]),
        "opencode: every range, 1-based"
    );
    assert_eq!(m["params"]["selection"]["start"]["line"], 2);
    assert_eq!(m["params"]["text"], "ne\nwo\nhr");

    // One range (an old plugin's message): opencode's `ranges` holds that one.
    send(&mut ed, &context_msg(&f, 2, "a.txt", "ne\ntw")).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 2}));
    let m = claude.next().await.unwrap();
    assert!(m["params"].get("ranges").is_none(), "{m}");
    let m = opencode.next().await.unwrap();
    assert_eq!(
        m["params"]["ranges"],
        json!([{"text": "ne\ntw", "selection": {"start": {"line": 1, "character": 1},
                "end": {"line": 2, "character": 2}, "isEmpty": false}}])
    );
}

/// More ranges than `MAX_RANGES` are cut to it, and their texts together to
/// `MAX_SELECTION_CHARS`: what reaches a CLI is never more than an editor may send.
#[tokio::test]
async fn several_ranges_are_bounded_in_count_and_text() {
    let f = start().await;
    serve_control(&f).await;
    let mut opencode = named(&f, "opencode").await;
    let mut ed = editor(&f).await;
    let many: Vec<Value> = (1..=MAX_RANGES as u32 + 10)
        .map(|l| json!({"start": {"line": l, "col": 1}, "end": {"line": l, "col": 2}, "text": "x"}))
        .collect();
    send(
        &mut ed,
        &json!({"type": "context", "id": 1, "files": [
            {"path": f.file("a.txt"), "active": true, "ranges": many}]}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 1}));
    let m = opencode.next().await.unwrap();
    let ranges = m["params"]["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), MAX_RANGES, "cut, not grown");
    assert_eq!(
        ranges[MAX_RANGES - 1]["selection"]["start"]["line"],
        MAX_RANGES
    );
    // No `selection` sent: the first range is the primary.
    assert_eq!(m["params"]["selection"]["start"]["line"], 1);

    // Three ranges of 10 000 characters: the first whole, the second cut, the third gone.
    let big = |l: u32| {
        json!({"start": {"line": l, "col": 1}, "end": {"line": l, "col": 2},
                              "text": "é".repeat(10_000)})
    };
    send(
        &mut ed,
        &json!({"type": "context", "id": 2, "files": [
            {"path": f.file("a.txt"), "active": true, "ranges": [big(1), big(2), big(3)]}]}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 2}));
    let m = opencode.next().await.unwrap();
    let chars: Vec<usize> = m["params"]["ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["text"].as_str().unwrap().chars().count())
        .collect();
    assert_eq!(chars, [10_000, MAX_SELECTION_CHARS - 10_000]);
}
