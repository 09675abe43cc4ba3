//! The requests of one Claude Code connection: each frame read, each request answered in its own
//! task (an `openDiff` blocks until the user decides while `close_tab` and pings go on).

use crate::protocols::jsonrpc::{self, Kind, BUSY, METHOD_NOT_FOUND};
use crate::protocols::mcp_ws::conn::Conn;
use crate::protocols::mcp_ws::tools;
use crate::protocols::mcp_ws::wire::{Form, Lines};
use crate::review::ClientInfo;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

/// Requests of one connection being answered at once; beyond it, a JSON-RPC error.
const MAX_IN_FLIGHT: usize = 32;

/// The requests being answered; each task puts its answer in the connection's outbox.
pub(super) struct Requests {
    tasks: JoinSet<()>,
    conn: Arc<Conn>,
    out: mpsc::Sender<String>,
}

impl Requests {
    pub fn new(conn: Arc<Conn>, out: mpsc::Sender<String>) -> Self {
        Requests {
            tasks: JoinSet::new(),
            conn,
            out,
        }
    }

    /// The connection the requests come from.
    pub fn conn(&self) -> &Conn {
        &self.conn
    }

    /// Takes one frame from the peer: a request goes to a task of its own. What to send back at
    /// once, if anything: the fault of a frame that is no JSON-RPC message, or the refusal of a
    /// request beyond `MAX_IN_FLIGHT`.
    pub fn take(&mut self, bytes: &[u8]) -> Option<String> {
        match incoming(bytes) {
            Ok((Kind::Request { id, method }, params)) => {
                if self.tasks.len() >= MAX_IN_FLIGHT {
                    return Some(jsonrpc::error(id, BUSY, "too many requests in flight"));
                }
                let (conn, out) = (self.conn.clone(), self.out.clone());
                self.tasks.spawn(async move {
                    let reply = answer(&conn, id, &method, params).await;
                    let _ = out.send(reply).await;
                });
                None
            }
            Ok((Kind::Notification { method }, params)) => {
                tracing::debug!("Claude Code notification {method}: {params}");
                None
            }
            Ok((Kind::Response, _)) => None,
            Err(fault) => Some(fault.to_json()),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Waits for one task to finish; `None` once none is left.
    pub async fn join_next(&mut self) -> Option<()> {
        self.tasks.join_next().await.map(|_| ())
    }

    pub fn abort_all(&mut self) {
        self.tasks.abort_all();
    }
}

/// The frame's message and its params, or the fault to answer.
fn incoming(bytes: &[u8]) -> Result<(Kind, Value), jsonrpc::RpcError> {
    let mut msg = jsonrpc::parse(bytes)?;
    let kind = jsonrpc::classify(&msg)?;
    let params = msg
        .get_mut("params")
        .map(Value::take)
        .unwrap_or(Value::Null);
    Ok((kind, params))
}

/// Answers one request.
async fn answer(conn: &Conn, id: Value, method: &str, params: Value) -> String {
    let tool = params
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    tracing::debug!("Claude Code ({}) asks {method} {tool}", conn.id);
    match method {
        "initialize" => {
            let client = params
                .pointer("/clientInfo/version")
                .and_then(Value::as_str);
            let name = params
                .pointer("/clientInfo/name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            conn.connections.set_lines(&conn.id, Lines::of_client(name));
            conn.connections.set_form(&conn.id, Form::of_client(name));
            // A CLI speaking Claude Code's protocol (opencode): the user knows it by its own name.
            let known = crate::clients::Cli::on_claude_locks(name)
                .map_or(crate::clients::CLAUDE.name, |(cli, _)| cli.name);
            conn.connections.set_client(
                &conn.id,
                ClientInfo {
                    name: known.into(),
                    version: client.unwrap_or_default().into(),
                    ..Default::default()
                },
            );
            let asked = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or_default();
            jsonrpc::result(id, tools::initialize(asked))
        }
        "ping" => jsonrpc::result(id, json!({})),
        "tools/list" => jsonrpc::result(id, json!({"tools": tools::list()})),
        "tools/call" => match tools::call(conn, params).await {
            Ok(v) => jsonrpc::result(id, v),
            Err(fault) => fault.answering(id).to_json(),
        },
        other => jsonrpc::error(id, METHOD_NOT_FOUND, &format!("method not found: {other}")),
    }
}
