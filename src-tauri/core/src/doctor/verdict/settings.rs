//! The last check: whether the CLI's own settings let it connect to Redline.

use super::finding::Finding;
use crate::clients::{IdeMode, Served};
use crate::doctor::facts::Facts;
use crate::doctor::install;
use crate::doctor::report::{Fix, Place, Verdict};
use crate::doctor::scan::Seen;

/// The last check, always a finding: whether the CLI's own settings let it connect.
pub(super) fn ide_mode(cli: &Served, facts: &Facts, ours: &Seen, port: u16) -> Finding {
    let name = cli.name;
    let mode = install::ide_mode(cli, facts);
    if let IdeMode::AutoUnlessOff { .. } = cli.ide.doctor.ide_mode {
        return auto_unless_off(cli, &mode, ours);
    }
    match mode.setting {
        Some(false) => Finding::new(
            Verdict::IdeDisabled,
            format!(
                "IDE mode is off in {name} (`ide.enabled` in {})",
                mode.file.display()
            ),
            Some(Fix {
                command: "/ide enable".into(),
                place: Place::Cli,
            }),
        ),
        Some(true) => Finding::new(
            Verdict::Connects,
            format!("{name} will connect to Redline on port {port}"),
            None,
        )
        .note(
            "a CLI already running reads discovery files only at start: type `/ide enable` in it",
        ),
        None => Finding::new(
            Verdict::Connects,
            format!("{name} can connect to Redline on port {port}"),
            None,
        )
        .note(if mode.auto {
            "it connects at start (autoConnectIde)".into()
        } else {
            format!("connect with `{} --ide`, or `/ide` inside it", cli.binary)
        }),
    }
}

/// A CLI that connects by itself unless its settings say not to (Copilot CLI).
fn auto_unless_off(cli: &Served, mode: &install::Mode, ours: &Seen) -> Finding {
    let name = cli.name;
    // A setting that is off: the CLI connects only from `/ide`, where it is turned back on.
    let off = |setting: &str, so: &str, note: &str| {
        Finding::new(
            Verdict::IdeDisabled,
            format!(
                "`{setting}` is false in {}: {name} {so}",
                mode.file.display()
            ),
            Some(Fix {
                command: "/ide".into(),
                place: Place::Cli,
            }),
        )
        .note(note)
    };
    if !mode.auto {
        return off(
            "ide.autoConnect",
            "connects only when asked",
            "in `/ide`, pick Redline, or turn auto-connect back on there",
        );
    }
    if !mode.sends_diffs {
        return off(
            "ide.openDiffOnEdit",
            "connects but sends no edit for review",
            "in `/ide`, turn \"open diff on edit\" back on",
        );
    }
    let at = ours
        .socket(cli)
        .map(|s| s.display().to_string())
        .unwrap_or_default();
    Finding::new(
        Verdict::Connects,
        format!("{name} connects to Redline by itself (socket {at})"),
        None,
    )
}
