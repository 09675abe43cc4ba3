//! The TypeScript declarations of the types the review window shares with Rust, generated from
//! the Rust types so neither side is copied by hand (`ui/src/bindings.ts`, kept current by a test).

use crate::api::fault::Fault;
use crate::api::turns::{
    FileStatus, HistoryTurn, LineSpan, TurnAsked, TurnFile, TurnFileView, TurnFiles, TurnHunk,
    TurnLeft, TurnPick, TurnUndone, Unshown,
};
use crate::doctor::{Line, Place, Welcome};
use crate::error::FaultCode;
use crate::platform::peer::PeerProcess;
use crate::review::comment::Comment;
use crate::review::selection::Selection;
use crate::review::{ClientInfo, Detail, Outcome, Resolved, ReviewKind};
use crate::workspace::settings::{HistoryBounds, PopupMode, Settings};
use ts_rs::TS;

/// The whole `ui/src/bindings.ts`.
pub fn typescript() -> String {
    let cfg = ts_rs::Config::default();
    let fixed = [
        PeerProcess::decl(&cfg),
        ClientInfo::decl(&cfg),
        ReviewKind::decl(&cfg),
        Detail::decl(&cfg),
        Comment::decl(&cfg),
        FileStatus::decl(&cfg),
        TurnFile::decl(&cfg),
        TurnFiles::decl(&cfg),
        LineSpan::decl(&cfg),
        TurnHunk::decl(&cfg),
        Unshown::decl(&cfg),
        TurnFileView::decl(&cfg),
        TurnPick::decl(&cfg),
        TurnLeft::decl(&cfg),
        TurnUndone::decl(&cfg),
        HistoryTurn::decl(&cfg),
        TurnAsked::decl(&cfg),
        Outcome::decl(&cfg),
        Resolved::decl(&cfg),
        Selection::decl(&cfg),
        PopupMode::decl(&cfg),
        HistoryBounds::decl(&cfg),
        Settings::decl(&cfg),
        FaultCode::decl(&cfg),
        Fault::decl(&cfg),
        Place::decl(&cfg),
        Line::decl(&cfg),
        Welcome::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the Rust types by `redline_core::surfaces::bindings`; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings\n\n",
    );
    let actions = crate::surfaces::action::declarations();
    for d in fixed.into_iter().chain(actions) {
        out.push_str("export ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// The whole `ui/src/clis.ts`: each CLI Redline serves and how it is connected, in
/// `clients::ALL`'s order, for the welcome page's step 2.
pub fn clis() -> String {
    let mut out = String::from(
        "// Generated from clients::ALL by `redline_core::surfaces::bindings::clis`; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings\n\n\
         /** Each CLI Redline serves, and what the user does once to connect it (`code` in backticks). */\n\
         export const CONNECT: ReadonlyArray<{ name: string; how: string }> = [\n",
    );
    for c in crate::clients::ALL {
        let quoted = |s: &str| serde_json::Value::from(s).to_string();
        out.push_str(&format!(
            "  {{ name: {}, how: {} }},\n",
            quoted(c.name),
            quoted(c.connect)
        ));
    }
    out.push_str("];\n");
    out
}
