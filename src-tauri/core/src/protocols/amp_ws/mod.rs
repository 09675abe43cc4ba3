//! Amp's IDE channel: Amp connects to `ws://localhost:PORT/?auth=TOKEN` (port and token from its
//! lock) and follows the editor's selection and visible files; it asks the IDE only to answer a
//! ping, open a URI or give diagnostics. Its edits never pass through the IDE (docs/hooks.md).

pub mod connections;
pub mod server;
pub mod wire;
