//! `ui/src/bindings.ts`, `ui/src/actions.ts` and `ui/src/clis.ts` must be exactly what the Rust
//! types, the action list and the CLI list generate.

use std::path::PathBuf;

/// `ui/src/NAME` must be `generated`; `UPDATE_BINDINGS=1` writes it first.
fn check_generated(name: &str, generated: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../ui/src")
        .join(name);
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "ui/src/{name} is stale; run UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings\n--- generated ---\n{generated}"
    );
}

#[test]
fn the_ui_bindings_match_the_rust_types() {
    check_generated(
        "bindings.ts",
        &redline_core::surfaces::bindings::typescript(),
    );
}

/// `ui/src/actions.ts`, the page's client functions, must be exactly what the action list
/// generates: an action declared without its function fails here.
#[test]
fn the_ui_client_functions_match_the_action_list() {
    check_generated("actions.ts", &redline_core::surfaces::action::client());
}

/// `ui/src/clis.ts`, the welcome page's list of CLIs and how each connects, must be exactly what
/// `clients::ALL` says: a CLI added there is on the page.
#[test]
fn the_ui_cli_list_matches_the_cli_declarations() {
    check_generated("clis.ts", &redline_core::surfaces::bindings::clis());
}
