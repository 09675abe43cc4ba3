//! An MCP Streamable HTTP client session, sending the headers the real CLIs send
//! (see shared/clients.md): `Authorization: Bearer`, `accept: application/json,
//! text/event-stream`, `mcp-protocol-version`, `mcp-session-id`, `host: 127.0.0.1:PORT`.

use crate::http::{clip, Conn, Response};
use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;

pub const PROTOCOL: &str = "2025-06-18";

#[derive(Clone, Debug)]
pub struct Endpoint {
    pub addr: SocketAddr,
    pub token: String,
}

/// How the server framed a POST response: `application/json` or `text/event-stream`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    Json,
    Sse,
}

impl Framing {
    pub fn name(self) -> &'static str {
        match self {
            Framing::Json => "JSON",
            Framing::Sse => "SSE",
        }
    }
}

pub struct Session {
    conn: Conn,
    host: String,
    auth: String,
    session_id: Option<String>,
    next_id: u64,
    timeout: Duration,
    pub server_info: Value,
    pub last_framing: Option<Framing>,
}

impl Session {
    pub fn new(ep: &Endpoint, timeout: Duration) -> Session {
        Session {
            conn: Conn::new(ep.addr),
            host: format!("127.0.0.1:{}", ep.addr.port()),
            auth: format!("Bearer {}", ep.token),
            session_id: None,
            next_id: 1,
            timeout,
            server_info: Value::Null,
            last_framing: None,
        }
    }

    /// The session id the server gave at initialize.
    pub fn id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    pub fn reconnects(&self) -> u64 {
        self.conn.reconnects
    }

    async fn post(&mut self, body: &[u8]) -> Result<Response> {
        let mut headers: Vec<(&str, &str)> = vec![
            ("host", &self.host),
            ("authorization", &self.auth),
            ("accept", "application/json, text/event-stream"),
            ("content-type", "application/json"),
            ("mcp-protocol-version", PROTOCOL),
        ];
        if let Some(sid) = &self.session_id {
            headers.push(("mcp-session-id", sid));
        }
        match tokio::time::timeout(
            self.timeout,
            self.conn.request("POST", "/mcp", &headers, body),
        )
        .await
        {
            Ok(r) => r,
            Err(_) => bail!("no complete response within {:?}", self.timeout),
        }
    }

    /// POSTs a JSON-RPC request and returns its `result`. Any HTTP error, JSON-RPC error,
    /// or a response without a matching id fails with the request and response in the message.
    pub async fn request_raw(&mut self, id: u64, body: &[u8]) -> Result<Value> {
        let resp = self
            .post(body)
            .await
            .with_context(|| format!("request POST /mcp {}", clip(body, 600)))?;
        let fail = |why: String, resp: &Response| {
            anyhow!(
                "{why}\n--- request: POST /mcp\n{}\n--- response:\n{}",
                clip(body, 600),
                resp.describe(2000)
            )
        };
        if resp.status != 200 {
            return Err(fail(format!("HTTP status {}", resp.status), &resp));
        }
        if let Some(sid) = resp.header("mcp-session-id") {
            if self.session_id.is_none() {
                self.session_id = Some(sid.to_string());
            }
        }
        let ct = resp
            .header("content-type")
            .unwrap_or("")
            .to_ascii_lowercase();
        let messages: Vec<Value> = if ct.starts_with("text/event-stream") {
            self.last_framing = Some(Framing::Sse);
            parse_sse(&resp.body)
                .into_iter()
                .map(|d| serde_json::from_str(&d))
                .collect::<Result<_, _>>()
                .map_err(|e| fail(format!("SSE data is not JSON: {e}"), &resp))?
        } else if ct.starts_with("application/json") {
            self.last_framing = Some(Framing::Json);
            match serde_json::from_slice(&resp.body)
                .map_err(|e| fail(format!("body is not JSON: {e}"), &resp))?
            {
                Value::Array(v) => v,
                v => vec![v],
            }
        } else {
            return Err(fail(format!("unexpected content-type {ct:?}"), &resp));
        };
        let msg = messages
            .into_iter()
            .find(|m| m.get("id").and_then(Value::as_u64) == Some(id))
            .ok_or_else(|| fail(format!("no response with id {id}"), &resp))?;
        if let Some(err) = msg.get("error") {
            return Err(fail(format!("JSON-RPC error {err}"), &resp));
        }
        match msg.get("result") {
            Some(r) => Ok(r.clone()),
            None => Err(fail("response without result".into(), &resp)),
        }
    }

    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.request_raw(id, body.to_string().as_bytes()).await
    }

    pub async fn notify(&mut self, method: &str) -> Result<()> {
        let body = format!(r#"{{"jsonrpc":"2.0","method":"{method}"}}"#);
        let resp = self.post(body.as_bytes()).await?;
        if resp.status != 202 {
            bail!(
                "notification {method}: expected HTTP 202\n--- response:\n{}",
                resp.describe(2000)
            );
        }
        Ok(())
    }

    /// initialize → notifications/initialized, as the Gemini CLI does.
    pub async fn initialize(&mut self) -> Result<()> {
        let r = self
            .request(
                "initialize",
                serde_json::json!({
                    "protocolVersion": PROTOCOL,
                    "capabilities": {},
                    "clientInfo": {"name": "redline-bench", "version": env!("CARGO_PKG_VERSION")}
                }),
            )
            .await
            .context("initialize")?;
        if self.session_id.is_none() {
            bail!("initialize answered without an mcp-session-id header");
        }
        self.server_info = r.get("serverInfo").cloned().unwrap_or(Value::Null);
        self.notify("notifications/initialized")
            .await
            .context("notifications/initialized")?;
        Ok(())
    }

    /// Checks that tools/list offers `openDiff` and `closeDiff`.
    pub async fn check_tools(&mut self) -> Result<()> {
        let r = self.request("tools/list", serde_json::json!({})).await?;
        let names: Vec<&str> = r
            .get("tools")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|t| t.get("name")?.as_str()).collect())
            .unwrap_or_default();
        for want in ["openDiff", "closeDiff"] {
            if !names.contains(&want) {
                bail!("tools/list has no {want}: {r}");
            }
        }
        Ok(())
    }

    /// Builds a ready-to-send `tools/call` body for the next request id.
    pub fn next_call(&mut self, tool: &str, args_json: &str) -> (u64, Vec<u8>) {
        let id = self.next_id;
        self.next_id += 1;
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args_json}}}}}"#
        );
        (id, body.into_bytes())
    }

    /// DELETE /mcp to end the session; returns the HTTP status.
    pub async fn delete(&mut self) -> Result<u16> {
        let Some(sid) = self.session_id.clone() else {
            return Ok(0);
        };
        let headers: Vec<(&str, &str)> = vec![
            ("host", &self.host),
            ("authorization", &self.auth),
            ("mcp-protocol-version", PROTOCOL),
            ("mcp-session-id", &sid),
        ];
        let r = tokio::time::timeout(
            self.timeout,
            self.conn.request("DELETE", "/mcp", &headers, b""),
        )
        .await
        .map_err(|_| anyhow!("DELETE /mcp: no response within {:?}", self.timeout))??;
        Ok(r.status)
    }
}

/// Checks an openDiff result: `{content: []}` (or at least a content array) and not an error.
pub fn check_open_diff_result(r: &Value) -> Result<()> {
    if r.get("isError").and_then(Value::as_bool) == Some(true) {
        bail!("openDiff returned isError: {r}");
    }
    if !r.get("content").map(Value::is_array).unwrap_or(false) {
        bail!("openDiff result has no content array: {r}");
    }
    Ok(())
}

/// The `data` of each SSE event in a complete stream body (multi-line data joined with
/// `\n`; events without data, comments and other fields are skipped).
pub fn parse_sse(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body);
    let mut out = Vec::new();
    let mut data: Option<String> = None;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.is_empty() {
            if let Some(d) = data.take() {
                out.push(d);
            }
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        if field == "data" {
            match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_string()),
            }
        }
    }
    if let Some(d) = data {
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::parse_sse;

    #[test]
    fn sse_events() {
        let body =
            b"event: message\ndata: {\"a\":1}\n\n: comment\r\ndata: x\r\ndata: y\r\n\r\nid: 3\n\n";
        assert_eq!(
            parse_sse(body),
            vec!["{\"a\":1}".to_string(), "x\ny".to_string()]
        );
    }
}
