//! Copilot CLI's server on Windows: the named pipe its lock names, driven by a stand-in that
//! writes the bytes copilot 1.0.102's own client writes (Node's `http` over the pipe).
//!
//! What the stand-in copies, from the package's `cli-main.js` (1.0.102, read from the extracted
//! package; minifier names are that build's):
//! - `b2` / `Iwt`: every `*.lock` in `~/.copilot/ide`, JSON with `socketPath`, `scheme`,
//!   `headers`, `pid`, `timestamp`, `workspaceFolders`, `ideName` (zod schema `Wnr`);
//! - `mwt`: the probe, `net.connect({path: socketPath})`, destroyed on connect, no bytes;
//! - `kRo` (the `fetch` given to the MCP SDK's transport by `RRo`): `http.request({socketPath,
//!   path: "/mcp", method, headers})`, headers `{...t, ...o}` then the SDK's (`$Pn` sets `t`:
//!   `X-Copilot-Session-Id`, `X-Copilot-PID`, `X-Copilot-Parent-PID`; `o` is the lock's
//!   `headers`), then `d.write(body); d.end()`;
//! - the SDK's `StreamableHTTPClientTransport.send`: `content-type: application/json`, `accept:
//!   application/json, text/event-stream`, `mcp-session-id` once known, body
//!   `JSON.stringify(message)`; `_startOrAuthSse`: `GET` with `Accept: text/event-stream`;
//!   `terminateSession`: `DELETE`.
//!
//! Node then writes the headers in that order (a `Headers` object iterates lowercased and
//! sorted), adds `Host: localhost` and `Connection: keep-alive` (its global agent keeps
//! connections alive), and sends a POST body chunked (`Transfer-Encoding: chunked`, no
//! `Content-Length`) since it was written with `write` before `end`; a GET or DELETE has none.

use crate::common::tool;
use crate::common::{start, Fixture, WAIT};
use redline_core::clients::COPILOT;
use redline_core::runtime::companion::Decision;
use serde_json::{json, Value};
use std::path::PathBuf;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::windows::named_pipe::{ClientOptions, NamedPipeClient};
use windows_sys::Win32::Foundation::ERROR_PIPE_BUSY;
use windows_sys::Win32::System::Pipes::WaitNamedPipeW;

/// The one Copilot lock of the fixture's workspace, as copilot finds it: any `*.lock` there.
fn lock(f: &Fixture) -> Value {
    let dir = f.dirs.discovery(&COPILOT);
    let locks: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lock"))
        .collect();
    assert_eq!(locks.len(), 1, "{locks:?}");
    serde_json::from_slice(&std::fs::read(&locks[0]).unwrap()).unwrap()
}

/// One connection, as Node's agent holds it: requests one after another on it.
struct Conn {
    pipe: NamedPipeClient,
    /// Bytes read past the last answer.
    buf: Vec<u8>,
}

/// An answer: status, headers (lowercased names), body (chunks joined).
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(n, _)| n == name);
        found.map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC messages in the body, whether sent as SSE events or as plain JSON.
    fn messages(&self) -> Vec<Value> {
        if self
            .header("content-type")
            .unwrap_or("")
            .contains("event-stream")
        {
            let data = self.body.lines().filter_map(|l| l.strip_prefix("data:"));
            data.map(|d| serde_json::from_str(d.trim()).unwrap())
                .collect()
        } else {
            vec![serde_json::from_str(&self.body).unwrap()]
        }
    }
}

/// Copilot's client, as `$Pn` sets it up for one IDE session.
#[derive(Clone)]
struct Copilot {
    name: String,
    auth: String,
    session: Option<String>,
}

impl Copilot {
    fn from_lock(lock: &Value) -> Copilot {
        Copilot {
            name: lock["socketPath"].as_str().unwrap().to_owned(),
            auth: lock["headers"]["Authorization"]
                .as_str()
                .unwrap()
                .to_owned(),
            session: None,
        }
    }

    /// `net.connect({path})`: libuv opens `\\.\pipe\…` with `CreateFileW` and, while every
    /// instance is taken, waits for one with `WaitNamedPipeW` (30 s) and opens again
    /// (`pipe_connect_thread_proc` in libuv's `src/win/pipe.c`): on a blocking thread, as there.
    async fn open(&self) -> Conn {
        let name = self.name.clone();
        let pipe = tokio::task::spawn_blocking(move || {
            let wide: Vec<u16> = name.encode_utf16().chain([0]).collect();
            loop {
                match ClientOptions::new().open(&name) {
                    Err(e) if e.raw_os_error() == Some(ERROR_PIPE_BUSY as i32) => {
                        // SAFETY: `wide` is a NUL-terminated name that outlives the call.
                        let free = unsafe { WaitNamedPipeW(wide.as_ptr(), 30_000) };
                        assert_ne!(free, 0, "{}", std::io::Error::last_os_error());
                    }
                    r => return r.expect("the pipe opens"),
                }
            }
        });
        Conn {
            pipe: pipe.await.unwrap(),
            buf: Vec::new(),
        }
    }

    /// The head `kRo` hands to `http.request`, as Node writes it.
    fn head(&self, method: &str, auth: &str, sdk: &[(&str, &str)], chunked: bool) -> String {
        let mut h = format!("{method} /mcp HTTP/1.1\r\n");
        h += "X-Copilot-Session-Id: 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b\r\n";
        h += &format!("X-Copilot-PID: {}\r\n", std::process::id());
        h += "X-Copilot-Parent-PID: 4\r\n";
        h += &format!("Authorization: {auth}\r\n");
        let session = self.session.as_deref().map(|s| ("mcp-session-id", s));
        let mut sdk: Vec<(&str, &str)> = sdk.iter().copied().chain(session).collect();
        sdk.sort();
        for (k, v) in sdk {
            h += &format!("{k}: {v}\r\n");
        }
        h += "Host: localhost\r\nConnection: keep-alive\r\n";
        if chunked {
            h += "Transfer-Encoding: chunked\r\n";
        }
        h + "\r\n"
    }

    /// `send(message)`: a POST of `JSON.stringify(message)`, chunked.
    async fn post_as(&self, c: &mut Conn, auth: &str, msg: &Value) -> Answer {
        let body = msg.to_string();
        let accept = ("accept", "application/json, text/event-stream");
        let kind = ("content-type", "application/json");
        let mut out = self.head("POST", auth, &[accept, kind], true);
        out += &format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len());
        c.pipe.write_all(out.as_bytes()).await.unwrap();
        c.answer().await
    }

    async fn post(&mut self, c: &mut Conn, msg: Value) -> Answer {
        let answer = self.post_as(c, &self.auth.clone(), &msg).await;
        if let Some(id) = answer.header("mcp-session-id") {
            self.session = Some(id.to_owned());
        }
        answer
    }

    async fn rpc(&mut self, c: &mut Conn, id: u64, method: &str, params: Value) -> Value {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let answer = self.post(c, msg).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.messages().pop().unwrap()
    }
}

impl Conn {
    async fn fill(&mut self) {
        let mut chunk = [0u8; 8192];
        let n = tokio::time::timeout(WAIT, self.pipe.read(&mut chunk))
            .await
            .expect("the server answers in time")
            .unwrap();
        assert!(n > 0, "the server closed the connection");
        self.buf.extend_from_slice(&chunk[..n]);
    }

    async fn line(&mut self) -> String {
        loop {
            if let Some(at) = self.buf.windows(2).position(|w| w == b"\r\n") {
                let line: Vec<u8> = self.buf.drain(..at + 2).collect();
                return String::from_utf8_lossy(&line[..at]).into_owned();
            }
            self.fill().await;
        }
    }

    async fn bytes(&mut self, n: usize) -> Vec<u8> {
        while self.buf.len() < n {
            self.fill().await;
        }
        self.buf.drain(..n).collect()
    }

    /// The status line and headers of the next answer.
    async fn answer_head(&mut self) -> (u16, Vec<(String, String)>) {
        let status_line = self.line().await;
        let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
        let mut headers = Vec::new();
        loop {
            let line = self.line().await;
            if line.is_empty() {
                return (status, headers);
            }
            let (k, v) = line.split_once(':').unwrap();
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }

    /// One chunk of a chunked body; empty at its end.
    async fn chunk(&mut self) -> String {
        let size = self.line().await;
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        let data = self.bytes(size + 2).await;
        String::from_utf8_lossy(&data[..size]).into_owned()
    }

    /// A whole answer, its body read to its end (as Node's `IncomingMessage` gives it).
    async fn answer(&mut self) -> Answer {
        let (status, headers) = self.answer_head().await;
        let get = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v);
        let body = if get("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            let mut body = String::new();
            loop {
                let chunk = self.chunk().await;
                if chunk.is_empty() {
                    break body;
                }
                body += &chunk;
            }
        } else {
            let len = get("content-length").map_or(0, |v| v.parse().unwrap());
            String::from_utf8_lossy(&self.bytes(len).await).into_owned()
        };
        Answer {
            status,
            headers,
            body,
        }
    }
}

#[tokio::test]
async fn copilot_s_client_reviews_a_diff_over_the_named_pipe_its_lock_names() {
    let f = start().await;
    let lock = lock(&f);
    let name = lock["socketPath"].as_str().expect("a pipe name").to_owned();
    assert!(name.starts_with(r"\\.\pipe\"), "{name}");
    assert_eq!(lock["scheme"], "pipe");
    assert_eq!(lock["pid"], std::process::id());
    assert_eq!(lock["workspaceFolders"], json!([f.ws]));
    let mut copilot = Copilot::from_lock(&lock);

    // `mwt`: a bare connection, closed at once, several times; the pipe keeps answering.
    for _ in 0..3 {
        drop(copilot.open().await);
    }

    let mut conn = copilot.open().await;
    let discover = json!({"jsonrpc": "2.0", "id": 0, "method": "server/discover",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
    let refused = copilot.post(&mut conn, discover).await.messages();
    assert_eq!(refused[0]["error"]["code"], -32601, "{refused:?}");
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "copilot-cli", "version": "1.0.102"}});
    let init = copilot.rpc(&mut conn, 1, "initialize", init).await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert!(copilot.session.is_some(), "the session's id");
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(copilot.post(&mut conn, note).await.status, 202);

    // The notification stream, on a connection of its own, held open.
    let mut stream = copilot.open().await;
    let get = copilot.head(
        "GET",
        &copilot.auth,
        &[("accept", "text/event-stream")],
        false,
    );
    stream.pipe.write_all(get.as_bytes()).await.unwrap();
    let (status, headers) = stream.answer_head().await;
    assert_eq!(status, 200);
    assert!(headers
        .iter()
        .any(|(k, v)| k == "content-type" && v.contains("event-stream")));

    let tools = copilot.rpc(&mut conn, 2, "tools/list", json!({})).await;
    let names = tool::names(&tools);
    assert!(
        names.contains(&"open_diff") && names.contains(&"close_diff"),
        "{names:?}"
    );

    let path = f.file("a.txt");
    for (n, accept, result) in [(3, true, "SAVED"), (4, false, "REJECTED")] {
        // The tool call blocks until the user decides: Node's agent opens another connection.
        let mut asking = copilot.open().await;
        let args = json!({"original_file_path": path, "new_file_contents": "one\nTWO\n",
            "tab_name": "[Copilot CLI] - a.txt (4e08e3)"});
        let call = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call",
            "params": {"name": "open_diff", "arguments": args}});
        let (auth, asker) = (copilot.auth.clone(), copilot.clone());
        let call = tokio::spawn(async move {
            let answer = asker.post_as(&mut asking, &auth, &call).await;
            answer.messages().pop().unwrap()
        });
        let review = f.instance.reviews().wait(Some(&path), WAIT).await;
        let review = review.expect("the review is queued");
        let queued = f.instance.reviews().review(review.id).unwrap();
        assert_eq!(queued.proposal, "one\nTWO\n");
        let decision = if accept {
            Decision::accept(None)
        } else {
            Decision::reject()
        };
        f.instance
            .reviews()
            .decide(review.id, decision)
            .await
            .unwrap();
        let answer = tokio::time::timeout(WAIT, call).await.unwrap().unwrap();
        let text = tool::json(&answer);
        assert_eq!(text["result"], result, "{text}");
        assert_eq!(text["success"], true);
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");

    // A wrong nonce is refused as copilot expects (it then falls back to the terminal).
    let mut other = copilot.open().await;
    let msg = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}});
    let wrong = copilot.post_as(&mut other, "Bearer nope", &msg).await;
    assert_eq!(wrong.status, 401);

    // `terminateSession` on disconnect: the session ends and the stream with it.
    let delete = copilot.head("DELETE", &copilot.auth, &[], false);
    conn.pipe.write_all(delete.as_bytes()).await.unwrap();
    let ended = conn.answer().await;
    assert!(ended.status < 300, "{}: {}", ended.status, ended.body);
    f.instance.shutdown().await;
}

#[tokio::test]
async fn redline_doctor_reaches_copilot_s_pipe_and_a_forged_token_is_refused() {
    use redline_core::doctor::probe::{http_initialize, Endpoint, Probe};
    let f = start().await;
    let pipe = Endpoint::Socket(PathBuf::from(lock(&f)["socketPath"].as_str().unwrap()));
    match http_initialize(&pipe, &f.token).await {
        Probe::Answered { server, .. } => assert_eq!(server, "redline"),
        other => panic!("{other:?}"),
    }
    let forged = http_initialize(&pipe, "0".repeat(64).as_str()).await;
    assert_eq!(forged, Probe::TokenRefused { status: 401 });
}
