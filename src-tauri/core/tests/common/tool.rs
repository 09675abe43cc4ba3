//! A tool call's answer read the way a CLI reads it: its text blocks, whether the tool failed,
//! the JSON a CLI parses from its text; and a `tools/list` answer keyed by tool name.

use serde_json::Value;
use std::collections::BTreeMap;

/// The result of a JSON-RPC answer; the test fails, showing the answer, if it is a fault.
fn result(answer: &Value) -> &Value {
    let r = &answer["result"];
    assert!(r.is_object(), "not a result: {answer}");
    r
}

/// Every content block's text, in order.
pub fn texts(answer: &Value) -> Vec<&str> {
    let content = result(answer)["content"].as_array();
    let content = content.unwrap_or_else(|| panic!("no content: {answer}"));
    content
        .iter()
        .map(|b| {
            assert_eq!(b["type"], "text", "{answer}");
            b["text"]
                .as_str()
                .unwrap_or_else(|| panic!("no text: {answer}"))
        })
        .collect()
}

/// The first content block's text.
pub fn text(answer: &Value) -> &str {
    texts(answer)
        .first()
        .copied()
        .unwrap_or_else(|| panic!("no content block: {answer}"))
}

/// The one text block of a tool that did not fail, parsed as JSON, as Copilot CLI and Claude
/// Code read their tools' answers.
pub fn json(answer: &Value) -> Value {
    assert!(
        result(answer).get("isError").is_none(),
        "the tool failed: {answer}"
    );
    let t = texts(answer);
    assert_eq!(t.len(), 1, "not one text block: {answer}");
    serde_json::from_str(t[0]).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"))
}

/// Whether the tool ran and failed (`isError: true`); absent is false.
pub fn is_error(answer: &Value) -> bool {
    match &result(answer)["isError"] {
        Value::Null => false,
        Value::Bool(b) => *b,
        other => panic!("isError is not a boolean: {other}"),
    }
}

/// The names a `tools/list` answer lists, in order.
pub fn names(answer: &Value) -> Vec<&str> {
    result(answer)["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {answer}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default())
        .collect()
}

/// The tools of a `tools/list` result (`{"tools": [...]}`) by name.
pub fn by_name(list: &Value) -> BTreeMap<String, Value> {
    list["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {list}"))
        .iter()
        .map(|t| (t["name"].as_str().unwrap_or_default().to_owned(), t.clone()))
        .collect()
}
