//! Amp's messages: one JSON object per text frame, not JSON-RPC. Amp sends
//! `{"clientRequest": {"id", "<method>": params}}` and takes `{"serverResponse": {"id",
//! "<method>": result}}` or `{"serverNotification": {"<name>": params}}`.

use crate::platform::file_uri;
use crate::review::selection::Span;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// What Amp is told the editor has selected (0-based lines and characters; an empty range is
/// the cursor).
pub fn selection(span: &Span) -> String {
    let s = span.selection.ordered();
    notification(
        "selectionDidChange",
        json!({
            "uri": file_uri::of(&span.path),
            "selections": [{
                "range": {
                    "startLine": s.start_line,
                    "startCharacter": s.start_character,
                    "endLine": s.end_line,
                    "endCharacter": s.end_character,
                },
                "content": span.text,
            }],
        }),
    )
}

/// The files the editor shows; none clears Amp's open file and selection.
pub fn visible_files(files: &[PathBuf]) -> String {
    let uris: Vec<String> = files.iter().map(|f| file_uri::of(f)).collect();
    notification("visibleFilesDidChange", json!({ "uris": uris }))
}

/// Who answers, sent once a connection opens (Amp keeps `version`; `ideName` is for doctor).
pub fn plugin_metadata() -> String {
    notification(
        "pluginMetadata",
        json!({"version": env!("CARGO_PKG_VERSION"), "ideName": crate::discovery::IDE_NAME}),
    )
}

fn notification(name: &str, params: Value) -> String {
    json!({ "serverNotification": { name: params } }).to_string()
}

/// Redline's answer to one of Amp's frames: a `clientRequest` gets its response; anything else
/// (or a frame that is not one) gets none.
pub fn answer(frame: &str) -> Option<String> {
    let value: Value = serde_json::from_str(frame).ok()?;
    let request = value.get("clientRequest")?.as_object()?;
    let id = request.get("id")?.clone();
    let (method, params) = request.iter().find(|(k, _)| k.as_str() != "id")?;
    let result = match method.as_str() {
        // Amp checks the connection by the echo.
        "ping" => json!({ "message": params.get("message").cloned().unwrap_or(Value::Null) }),
        // Amp then opens it with the system's opener or $EDITOR.
        "openURI" => json!({
            "success": false,
            "message": "Redline does not open files; your editor does",
        }),
        // Amp asks only an IDE it knows by name for diagnostics; Redline has none to give.
        "getDiagnostics" => json!({ "entries": [] }),
        _ => {
            return Some(
                json!({"serverResponse": {"id": id, "error": {
                    "code": -32601,
                    "message": format!("Redline does not answer {method}"),
                }}})
                .to_string(),
            )
        }
    };
    let mut response = Map::new();
    response.insert("id".into(), id);
    response.insert(method.clone(), result);
    Some(json!({ "serverResponse": response }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn requests_are_answered_under_their_id_and_method() {
        let ping = r#"{"clientRequest":{"id":"7","ping":{"message":"beepboop"}}}"#;
        assert_eq!(
            parsed(&answer(ping).unwrap()),
            json!({"serverResponse": {"id": "7", "ping": {"message": "beepboop"}}})
        );
        let open = r#"{"clientRequest":{"id":"8","openURI":{"uri":"file:///a"}}}"#;
        let open = parsed(&answer(open).unwrap());
        assert_eq!(open["serverResponse"]["openURI"]["success"], false);
        let diag = r#"{"clientRequest":{"id":"9","getDiagnostics":{"path":"/a"}}}"#;
        assert_eq!(
            parsed(&answer(diag).unwrap())["serverResponse"]["getDiagnostics"],
            json!({"entries": []})
        );
        let other = r#"{"clientRequest":{"id":"10","editFile":{"path":"/a"}}}"#;
        assert_eq!(
            parsed(&answer(other).unwrap())["serverResponse"]["error"]["code"],
            -32601
        );
        for not_a_request in [
            "",
            "[]",
            "{}",
            r#"{"clientRequest":{"id":"1"}}"#,
            "{\"x\":1}",
        ] {
            assert_eq!(answer(not_a_request), None, "{not_a_request}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_selection_is_a_uri_and_0_based_ranges_with_its_text() {
        use crate::review::selection::Selection;
        let span = Span {
            path: "/w s/a.txt".into(),
            // Dragged upwards: sent start first.
            selection: Selection {
                start_line: 3,
                start_character: 2,
                end_line: 1,
                end_character: 0,
            },
            text: "bc\nd".into(),
            ranges: Vec::new(),
        };
        assert_eq!(
            parsed(&selection(&span)),
            json!({"serverNotification": {"selectionDidChange": {
                "uri": "file:///w%20s/a.txt",
                "selections": [{"range": {"startLine": 1, "startCharacter": 0,
                                          "endLine": 3, "endCharacter": 2},
                                "content": "bc\nd"}]}}})
        );
        assert_eq!(
            parsed(&visible_files(&["/a.txt".into()])),
            json!({"serverNotification": {"visibleFilesDidChange": {"uris": ["file:///a.txt"]}}})
        );
    }
}
