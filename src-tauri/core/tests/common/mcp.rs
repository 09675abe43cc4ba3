//! The one HTTP test client: MCP over Streamable HTTP as Gemini CLI and Qwen Code speak it,
//! and the session's notification stream.

use super::WAIT;
use bytes::Bytes;
use futures::StreamExt;
use serde_json::{json, Value};
use std::pin::Pin;
use std::time::Duration;

static NEXT_BASE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1_000_000);

pub struct Mcp {
    pub http: reqwest::Client,
    pub url: String,
    pub token: String,
    pub session: Option<String>,
    /// Sent as `mcp-protocol-version` once negotiated, as the SDK clients do.
    pub version: Option<String>,
    next_id: u64,
}

/// The JSON-RPC messages in a POST response, SSE or JSON.
pub async fn messages(resp: reqwest::Response) -> Vec<Value> {
    let is_sse = resp
        .headers()
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    let text = resp.text().await.unwrap();
    if is_sse {
        text.split("\n\n")
            .filter_map(|ev| {
                let data: String = ev
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                (!data.is_empty()).then(|| serde_json::from_str(&data).unwrap())
            })
            .collect()
    } else if text.trim().is_empty() {
        vec![]
    } else {
        vec![serde_json::from_str(&text).unwrap()]
    }
}

impl Mcp {
    pub fn new(http: reqwest::Client, url: String, token: String) -> Mcp {
        Mcp {
            http,
            url,
            token,
            session: None,
            version: None,
            next_id: 1,
        }
    }

    /// Another client on the same session, for a call made while this one's is blocked.
    pub fn clone_session(&self) -> Mcp {
        Mcp {
            http: self.http.clone(),
            url: self.url.clone(),
            token: self.token.clone(),
            session: self.session.clone(),
            version: self.version.clone(),
            // Ids in flight on one session must differ: a response is routed by its id.
            next_id: NEXT_BASE.fetch_add(1_000_000, std::sync::atomic::Ordering::SeqCst),
        }
    }

    pub fn request(&self, method: reqwest::Method) -> reqwest::RequestBuilder {
        let mut b = self
            .http
            .request(method, &self.url)
            .bearer_auth(&self.token)
            .header("accept", "application/json, text/event-stream");
        if let Some(v) = &self.version {
            b = b.header("mcp-protocol-version", v);
        }
        if let Some(s) = &self.session {
            b = b.header("mcp-session-id", s);
        }
        b
    }

    pub async fn post(&self, body: Value) -> reqwest::Response {
        self.request(reqwest::Method::POST)
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    /// initialize + notifications/initialized, as the CLIs do.
    pub async fn connect(&mut self, version: &str) -> Value {
        let resp = self
            .post(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": version, "capabilities": {},
                "clientInfo": {"name": "test-cli", "version": "9.9.9"}}}),
            )
            .await;
        assert_eq!(resp.status(), 200);
        self.session = resp
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_owned());
        let init = messages(resp).await.remove(0);
        self.version = init["result"]["protocolVersion"]
            .as_str()
            .map(str::to_owned);
        let resp = self
            .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        assert_eq!(resp.status(), 202, "the GET stream opens only after a 202");
        init
    }

    pub async fn rpc(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let resp = self
            .post(json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
            .await;
        assert_eq!(resp.status(), 200);
        messages(resp).await.pop().unwrap()
    }

    pub async fn call(&mut self, tool: &str, args: Value) -> Value {
        self.rpc("tools/call", json!({"name": tool, "arguments": args}))
            .await
    }

    pub async fn stream(&self) -> Sse {
        let resp = self.request(reqwest::Method::GET).send().await.unwrap();
        assert_eq!(resp.status(), 200);
        Sse::new(resp)
    }
}

type ByteStream = Pin<Box<dyn futures::Stream<Item = reqwest::Result<Bytes>> + Send>>;

pub struct Sse {
    inner: ByteStream,
    buf: String,
}

impl Sse {
    pub fn new(resp: reqwest::Response) -> Self {
        Sse {
            inner: Box::pin(resp.bytes_stream()),
            buf: String::new(),
        }
    }

    /// The next raw SSE block (comments included), or None when the stream ends.
    pub async fn next_block(&mut self, wait: Duration) -> Option<String> {
        loop {
            if let Some(i) = self.buf.find("\n\n") {
                let block = self.buf[..i].to_owned();
                self.buf.drain(..i + 2);
                return Some(block);
            }
            let chunk = tokio::time::timeout(wait, self.inner.next())
                .await
                .expect("timed out waiting for the stream")?;
            self.buf
                .push_str(std::str::from_utf8(&chunk.ok()?).unwrap());
        }
    }

    /// The next JSON-RPC message, skipping keep-alive comments.
    pub async fn next_message(&mut self) -> Option<Value> {
        loop {
            let block = self.next_block(WAIT).await?;
            let data: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            if !data.is_empty() {
                return Some(serde_json::from_str(&data).unwrap());
            }
        }
    }

    /// The next message that is not a context update.
    pub async fn next_decision(&mut self) -> Option<Value> {
        loop {
            let m = self.next_message().await?;
            if m["method"] != "ide/contextUpdate" {
                return Some(m);
            }
        }
    }
}
