//! What Redline says about itself over MCP on every transport: its identity, the protocol
//! revisions it speaks, tool input schemas derived from the argument types, and how bad
//! arguments are refused.

use crate::protocols::jsonrpc::RpcError;
use rmcp::model::{Implementation, JsonObject, ProtocolVersion};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Newest first; an unknown revision asked for gets the newest a CLI takes (its `mcp_revision`).
/// Sessions need a GET stream, which the stateless 2026 revision removed.
pub const VERSIONS: &[ProtocolVersion] = &[
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2024_11_05,
];

/// The revisions offered to a CLI that takes up to `newest` (a `Cli::mcp_revision`), newest
/// first; never none, so a revision older than all of them gets the oldest.
pub fn versions_up_to(newest: &str) -> &'static [ProtocolVersion] {
    // `YYYY-MM-DD` dates compare as strings the way they do as dates.
    let from = VERSIONS
        .iter()
        .position(|v| v.as_str() <= newest)
        .unwrap_or(VERSIONS.len() - 1);
    &VERSIONS[from..]
}

/// The revision to answer an `initialize` asking for `asked`, for a CLI that takes up to
/// `newest`: the one asked for if offered, else the newest offered.
pub fn negotiate(asked: &str, newest: &str) -> &'static ProtocolVersion {
    let offered = versions_up_to(newest);
    offered
        .iter()
        .find(|v| v.as_str() == asked)
        .unwrap_or(&offered[0])
}

/// Who answers, in every `initialize` result.
pub fn server_info() -> Implementation {
    Implementation::new("redline", env!("CARGO_PKG_VERSION")).with_title("Redline")
}

/// The JSON Schema of a tool's arguments, as `tools/list` has always carried it: no meta-schema,
/// no title, `properties` and `required` even when empty, and no `"default": null` for an
/// optional argument (absent says the same).
pub fn input_schema<T: JsonSchema>() -> JsonObject {
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.meta_schema = None)
        .into_generator()
        .into_root_schema_for::<T>();
    let Value::Object(mut o) = schema.to_value() else {
        return JsonObject::default();
    };
    o.remove("title");
    // Always both, even empty: what clients have always been shown.
    o.entry("properties")
        .or_insert_with(|| Value::Object(JsonObject::default()));
    o.entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Some(Value::Object(props)) = o.get_mut("properties") {
        for prop in props.values_mut().filter_map(Value::as_object_mut) {
            if prop.get("default") == Some(&Value::Null) {
                prop.remove("default");
            }
        }
    }
    o
}

/// What the user reads in the CLI when a tool ran and failed (`isError: true`).
pub fn failure(e: &crate::error::Error) -> String {
    format!("Redline: {e}")
}

/// A tool's arguments, or an invalid-params fault that names what the tool expects (never
/// what the parser made of them).
pub fn args<T: DeserializeOwned + JsonSchema>(tool: &str, args: Value) -> Result<T, RpcError> {
    serde_json::from_value(args).map_err(|_| bad_args(tool, &input_schema::<T>()))
}

/// The invalid-params fault for arguments that do not fit `schema`, naming what it requires.
pub fn bad_args(tool: &str, schema: &JsonObject) -> RpcError {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let message = if required.is_empty() {
        format!("invalid arguments for {tool}")
    } else {
        format!(
            "invalid arguments for {tool}: expects {} (see tools/list)",
            required.join(", ")
        )
    };
    RpcError::new(
        Value::Null,
        crate::protocols::jsonrpc::INVALID_PARAMS,
        message,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    /// A tool's arguments.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Example {
        /// Absolute path of the file
        file_path: String,
        #[serde(default)]
        #[schemars(with = "bool")]
        flag: Option<bool>,
    }

    #[test]
    fn schemas_are_plain_objects_with_what_is_required() {
        assert_eq!(
            Value::Object(input_schema::<Example>()),
            json!({
                "type": "object",
                "description": "A tool's arguments.",
                "properties": {
                    "filePath": {"type": "string", "description": "Absolute path of the file"},
                    "flag": {"type": "boolean"}
                },
                "required": ["filePath"]
            })
        );
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Nothing {}

    #[test]
    fn an_empty_schema_still_lists_its_properties_and_required() {
        assert_eq!(
            Value::Object(input_schema::<Nothing>()),
            json!({"type": "object", "properties": {}, "required": []})
        );
    }

    #[test]
    fn bad_arguments_name_what_is_expected_not_the_parser() {
        let fault = args::<Example>("t", json!({"filePath": 7})).unwrap_err();
        assert_eq!(fault.code, -32602);
        assert_eq!(
            fault.message,
            "invalid arguments for t: expects filePath (see tools/list)"
        );
        assert!(args::<Example>("t", json!({"filePath": "/x"})).is_ok());
    }

    #[test]
    fn an_unknown_revision_gets_the_newest() {
        assert_eq!(negotiate("2025-06-18", "2025-11-25").as_str(), "2025-06-18");
        assert_eq!(negotiate("1999-01-01", "2025-11-25"), &VERSIONS[0]);
        assert_eq!(negotiate("2026-07-28", "2025-11-25").as_str(), "2025-11-25");
    }

    #[test]
    fn a_cli_is_offered_nothing_newer_than_its_revision() {
        assert_eq!(versions_up_to("2099-01-01"), VERSIONS);
        let older: Vec<&str> = versions_up_to("2025-06-18")
            .iter()
            .map(|v| v.as_str())
            .collect();
        assert_eq!(older, ["2025-06-18", "2025-03-26", "2024-11-05"]);
        // Between two revisions: the older one.
        assert_eq!(versions_up_to("2025-07-01")[0].as_str(), "2025-06-18");
        assert_eq!(negotiate("2025-11-25", "2025-06-18").as_str(), "2025-06-18");
        // Older than all: the oldest, never an empty list.
        assert_eq!(
            versions_up_to("2000-01-01"),
            &VERSIONS[VERSIONS.len() - 1..]
        );
    }
}
