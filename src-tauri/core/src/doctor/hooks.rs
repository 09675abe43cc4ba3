//! Doctor's look at the CLIs Redline reviews through their pre-edit hooks: installed, Redline's
//! hook in their config or not, and what they still need.

use super::install::{find_program, resolve};
use super::report::{shell, CliReport, Fix, HookReport, Verdict};
use super::Facts;
use crate::clients::HookCli;
use crate::discovery::hook_config::{self, Found, ReviewMode};
use crate::error::Result;

/// Each hook CLI's report; `clis` are the IDE protocols' verdicts, for a CLI served by both.
pub fn check(facts: &Facts, clis: &[CliReport]) -> Vec<HookReport> {
    HookCli::all()
        .map(|site| {
            // It speaks an IDE protocol Redline serves too (Claude Code, Gemini CLI, Qwen Code, Copilot CLI).
            let ide_protocol = site.cli.ide.is_some();
            let connects = clis
                .iter()
                .any(|c| c.id == site.id() && c.verdict == Verdict::Connects);
            let installed = find_program(site.cli.binary, site.cli.packages, facts);
            let file = resolve(&site.config, facts);
            let found = hook_config::find(&site, &file);
            let seen = Seen {
                installed: installed.is_some(),
                ide_protocol,
                connects,
                mode: hook_config::mode(&site, &file).ok().flatten(),
            };
            let (hook, reason, fix) = judge(site, &found, seen);
            HookReport {
                ide_protocol,
                id: site.id().into(),
                name: site.name().into(),
                installed,
                file,
                hook,
                reason,
                fix,
            }
        })
        .collect()
}

/// What doctor saw of a hook CLI besides its config.
#[derive(Clone, Copy)]
struct Seen {
    installed: bool,
    /// It speaks an IDE protocol Redline serves too.
    ide_protocol: bool,
    /// It connects over that protocol.
    connects: bool,
    /// The review mode its hooks say.
    mode: Option<ReviewMode>,
}

/// A review mode as doctor and the welcome page say it.
fn mode_words(mode: Option<ReviewMode>) -> &'static str {
    match mode {
        Some(ReviewMode::Turn) => "review each turn",
        Some(ReviewMode::Both) => "review each edit and each turn",
        Some(ReviewMode::Edit) | None => "review each edit",
    }
}

/// The hook found in the CLI's config (`found`), what that means, and what to run about it.
fn judge(
    site: HookCli,
    found: &Result<Option<Found>>,
    seen: Seen,
) -> (Option<String>, String, Option<Fix>) {
    match (found, seen.installed) {
        (Err(e), _) => (None, e.to_string(), None),
        // Served by its IDE connection too: every edit would be asked twice (not in the turn
        // mode, whose hook asks nothing).
        (Ok(Some(f)), _) if seen.connects && seen.mode != Some(ReviewMode::Turn) => (
            Some(f.command.clone()),
            format!(
                "Redline's hook is installed and {} connects over its IDE protocol \
                 too: every edit is asked twice; keep one",
                site.name()
            ),
            shell(format!("redline hooks uninstall {}", site.id())),
        ),
        (Ok(Some(f)), _) => (
            Some(f.command.clone()),
            match site.trust {
                Some(needs) => format!(
                    "Redline's hook is installed ({}); if not done yet: {needs}",
                    mode_words(seen.mode)
                ),
                None => format!("Redline's hook is installed ({})", mode_words(seen.mode)),
            },
            None,
        ),
        // Its IDE connection reviews its edits: a hook is the user's option, not a fix.
        (Ok(None), true) if seen.ide_protocol => (
            None,
            format!(
                "reviewed over its IDE connection (above); a hook instead is optional: \
                 `redline hooks install {}`",
                site.id()
            ),
            None,
        ),
        (Ok(None), true) => (
            None,
            format!(
                "no Redline hook: {} edits are not reviewed in Redline",
                site.name()
            ),
            shell(format!("redline hooks install {}", site.id())),
        ),
        (Ok(None), false) => (None, "not installed".into(), None),
    }
}
