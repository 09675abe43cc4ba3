//! JSON-RPC 2.0 for every transport: what a frame is, the error policy (a fault is a code and a
//! fixed message, never a parser's text), and the one builder of each outgoing message.
//!
//! Why not rmcp for the WebSocket too: rmcp 3.9.0's serve loop (`service.rs`, `serve_inner`)
//! spawns a task per request with no cap, and on cancel drains answers for a fixed 2 s that
//! Redline can neither set nor precede with rejecting the blocked `openDiff`s; Claude Code
//! needs both the cap and those answers before the close, so its loop stays ours.

use serde_json::{json, Value};

/// Large enough for any source file a CLI proposes, on every transport.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
/// Implementation-defined server error: too much in flight.
pub const BUSY: i64 = -32000;

/// A message to answer with a JSON-RPC error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    pub id: Value,
    pub code: i64,
    pub message: String,
}

impl RpcError {
    pub fn new(id: Value, code: i64, message: impl Into<String>) -> Self {
        RpcError {
            id,
            code,
            message: message.into(),
        }
    }

    /// Params that do not fit `what` (a method or a tool): the text says what was expected,
    /// never what a parser made of them.
    pub fn invalid_params(id: Value, what: &str) -> Self {
        RpcError::new(id, INVALID_PARAMS, format!("Invalid params for {what}"))
    }

    /// The same fault answering request `id` (a tool's fault is made before its id is known).
    pub fn answering(self, id: Value) -> Self {
        RpcError { id, ..self }
    }

    /// The error response, serialized.
    pub fn to_json(&self) -> String {
        error(self.id.clone(), self.code, &self.message)
    }
}

/// What a well-formed message is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Request {
        id: Value,
        method: String,
    },
    Notification {
        method: String,
    },
    /// A response or an error, to a request of ours.
    Response,
}

/// The message in a frame, or the parse error to answer.
pub fn parse(bytes: &[u8]) -> Result<Value, RpcError> {
    serde_json::from_slice(bytes)
        .map_err(|_| RpcError::new(Value::Null, PARSE_ERROR, "Parse error"))
}

/// What `msg` is, or the fault to answer if it is not a JSON-RPC 2.0 message.
pub fn classify(msg: &Value) -> Result<Kind, RpcError> {
    let bad = |id: Value, m: &str| Err(RpcError::new(id, INVALID_REQUEST, m));
    let Value::Object(o) = msg else {
        return bad(Value::Null, "Invalid Request: not a JSON-RPC 2.0 message");
    };
    let raw_id = o.get("id");
    // Only strings and numbers are ids (null answers a fault of ours); a fault in a message
    // with any other id is answered with a null one.
    let id = match raw_id {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    };
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return bad(id, "Invalid Request: jsonrpc must be \"2.0\"");
    }
    let id_invalid = |null_ok: bool| match raw_id {
        None | Some(Value::String(_) | Value::Number(_)) => false,
        Some(Value::Null) => !null_ok,
        Some(_) => true,
    };
    match o.get("method") {
        Some(Value::String(method)) => {
            if id_invalid(false) {
                return bad(
                    Value::Null,
                    "Invalid Request: id must be a string or a number",
                );
            }
            if o.get("params")
                .is_some_and(|p| !matches!(p, Value::Object(_) | Value::Array(_)))
            {
                return Err(RpcError::new(
                    id,
                    INVALID_PARAMS,
                    "Invalid params: params must be an object",
                ));
            }
            let method = method.clone();
            Ok(match raw_id {
                None => Kind::Notification { method },
                Some(_) => Kind::Request { id, method },
            })
        }
        Some(_) => bad(id, "Invalid Request: method must be a string"),
        None if id_invalid(true) => bad(
            Value::Null,
            "Invalid Request: id must be a string or a number",
        ),
        None if o.contains_key("result") || o.contains_key("error") => Ok(Kind::Response),
        None => bad(id, "Invalid Request: no method"),
    }
}

pub fn error(id: Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

pub fn result(id: Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// Every notification Redline sends, whatever carries it.
pub fn notification(method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> Result<Kind, i64> {
        let msg = parse(text.as_bytes()).map_err(|f| f.code)?;
        classify(&msg).map_err(|f| f.code)
    }

    #[test]
    fn frames_are_classified_or_faulted_by_code() {
        let req = |id: Value| {
            Ok(Kind::Request {
                id,
                method: "ping".into(),
            })
        };
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            req(json!(1))
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":"a","method":"ping","params":[]}"#),
            req(json!("a"))
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","method":"ping"}"#),
            Ok(Kind::Notification {
                method: "ping".into()
            })
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":null,"error":{}}"#),
            Ok(Kind::Response)
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            Ok(Kind::Response)
        );
        for (text, want) in [
            ("{not json", PARSE_ERROR),
            ("", PARSE_ERROR),
            ("[1, 2]", INVALID_REQUEST),
            ("42", INVALID_REQUEST),
            (
                r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
                INVALID_REQUEST,
            ),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                INVALID_REQUEST,
            ),
            (
                r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#,
                INVALID_REQUEST,
            ),
            (r#"{"jsonrpc":"2.0","id":{},"result":1}"#, INVALID_REQUEST),
            (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, INVALID_REQUEST),
            (r#"{"jsonrpc":"2.0","id":1}"#, INVALID_REQUEST),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"x","params":"p"}"#,
                INVALID_PARAMS,
            ),
        ] {
            assert_eq!(code(text), Err(want), "{text}");
        }
    }

    #[test]
    fn a_parse_error_carries_no_parser_text() {
        let fault = parse(b"{\"a\": tru").unwrap_err();
        assert_eq!(
            fault.to_json(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
    }
}
