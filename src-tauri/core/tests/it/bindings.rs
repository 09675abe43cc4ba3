//! `ui/src/bindings.ts`, `ui/src/actions.ts` and `ui/src/clis.ts` must be exactly what the Rust
//! types, the action list and the CLI list generate.

use std::path::PathBuf;

#[test]
fn the_ui_bindings_match_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/bindings.ts");
    let generated = redline_core::surfaces::bindings::typescript();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "ui/src/bindings.ts is stale; run UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings\n--- generated ---\n{generated}"
    );
}

/// `ui/src/actions.ts`, the page's client functions, must be exactly what the action list
/// generates: an action declared without its function fails here.
#[test]
fn the_ui_client_functions_match_the_action_list() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/actions.ts");
    let generated = redline_core::surfaces::action::client();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "ui/src/actions.ts is stale; run UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings\n--- generated ---\n{generated}"
    );
}

/// `ui/src/clis.ts`, the welcome page's list of CLIs and how each connects, must be exactly what
/// `clients::ALL` says: a CLI added there is on the page.
#[test]
fn the_ui_cli_list_matches_the_cli_declarations() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/clis.ts");
    let generated = redline_core::surfaces::bindings::clis();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "ui/src/clis.ts is stale; run UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings\n--- generated ---\n{generated}"
    );
}
