//! `redline hooks install|uninstall|status`: Redline's hooks in each CLI's own config, as its
//! review mode (`--review edit|turn|both`) needs them.

use crate::args::HooksCmd;
use crate::format::Format;
use crate::output::{errln, outln, Printer};
use redline_core::clients::HookCli;
use redline_core::discovery::hook_config::{self as config, HookInstalled, HookStatus, ReviewMode};
use redline_core::discovery::hook_created;
use redline_core::platform::dirs::Dirs;
use redline_core::{Error, Result};
use std::path::{Path, PathBuf};

pub fn run(dirs: &Dirs, p: &mut Printer, cmd: HooksCmd) -> Result<()> {
    let program = program()?;
    match cmd {
        HooksCmd::Install {
            cli,
            review,
            turn_review,
        } => install(dirs, p, cli, &program, mode(review.as_deref(), turn_review)),
        HooksCmd::Uninstall { cli } => uninstall(dirs, p, cli),
        HooksCmd::Status { output } => status(dirs, p, &program, output.format()),
    }
}

/// The review mode `--review` names (`--turn-review`: both; neither: edit).
fn mode(review: Option<&str>, turn_review: bool) -> ReviewMode {
    match (review, turn_review) {
        (Some("turn"), _) => ReviewMode::Turn,
        (Some("both"), _) | (None, true) => ReviewMode::Both,
        _ => ReviewMode::Edit,
    }
}

/// `hooks install`: writes the hooks, then says what they do and what is left to the user.
fn install(
    dirs: &Dirs,
    p: &mut Printer,
    site: HookCli,
    program: &Path,
    mode: ReviewMode,
) -> Result<()> {
    let file = dirs.locate(&site.config);
    let command = config::pre_command(&site, program, mode);
    // Through a link too: a link the user made is theirs, like a file.
    let created = file.symlink_metadata().is_err();
    let done = config::install_mode(&site, &file, program, mode)?;
    if created {
        hook_created::record(&dirs.config, &file)?;
    }
    let verb = match done {
        HookInstalled::Already => "already in",
        HookInstalled::Added => "added to",
        HookInstalled::Replaced => "updated in",
    };
    outln!(
        p,
        "{}'s hook {verb} {}: {command}",
        site.name(),
        file.display()
    );
    match mode {
        ReviewMode::Turn => outln!(
            p,
            "{} records the files each edit touches for the turn's review, and asks Redline \
             nothing about it{}",
            site.name(),
            // A hook with no timeout is a plugin in the CLI's own process (opencode's), which
            // loads it when it starts, as `explain_wait` says for the other modes.
            match site.timeout() {
                None => ", from its next start",
                Some(_) => "",
            }
        ),
        ReviewMode::Edit | ReviewMode::Both => explain_wait(p, site),
    }
    explain_turn(p, site, program, mode);
    if let Some(asks) = config::own_questions(&site, mode) {
        outln!(
            p,
            "{asks} (Redline never changes {}'s permission settings)",
            site.name()
        );
    }
    if let Some(needs) = site.trust.filter(|_| done != HookInstalled::Already) {
        outln!(p, "still to do: {needs}");
    }
    // The turn mode's hook asks nothing: the IDE connection's per-edit diff is the only one.
    if config::ide_reviews(&site) && mode != ReviewMode::Turn {
        errln!(
            p,
            "redline: {name}'s IDE connection to Redline already reviews every edit: while it \
             is connected, each edit is now asked twice. Keep one: `redline hooks uninstall {}`, \
             or leave {name}'s IDE connection off",
            site.id(),
            name = site.name()
        );
    }
    Ok(())
}

/// What the turn's hooks do, in the modes that have them.
fn explain_turn(p: &mut Printer, site: HookCli, program: &Path, mode: ReviewMode) {
    let Some(event) = site.turn_event.filter(|_| mode.turns()) else {
        return;
    };
    if let Some(start) = site.start_event {
        let command = config::start_command(&site, program);
        outln!(
            p,
            "at the start of each turn ({start}: {command}) Redline checkpoints the workspace"
        );
    }
    let turn = config::turn_command(&site, program);
    outln!(
        p,
        "and at the end of each turn ({event}: {turn}) shows the turn's changes, \
         answered Done or Continue with instructions"
    );
}

/// How long the CLI waits for a decision, and what it does with an edit whose hook runs out.
fn explain_wait(p: &mut Printer, site: HookCli) {
    match site.timeout() {
        Some(secs) => outln!(
            p,
            "{} asks Redline about every edit (waits up to {} minutes for you)",
            site.name(),
            secs / 60
        ),
        None => outln!(
            p,
            "{} asks Redline about every edit (waits as long as you take), from its \
             next start",
            site.name()
        ),
    }
    if let (true, Some(after)) = (site.fails_open, site.deny_after()) {
        outln!(
            p,
            "{} goes on with an edit whose hook runs out of time: Redline's hook denies \
             it after {} minutes, before that",
            site.name(),
            after / 60
        );
    }
}

/// `hooks uninstall`: removes Redline's hook, if there is one.
fn uninstall(dirs: &Dirs, p: &mut Printer, site: HookCli) -> Result<()> {
    let file = dirs.locate(&site.config);
    let removed = config::uninstall(&site, &file)?;
    if removed && hook_created::forget(&dirs.config, &site, &file)? {
        outln!(
            p,
            "{}'s hook removed, and {} with it (hooks install created it; nothing else was in it)",
            site.name(),
            file.display()
        );
        return Ok(());
    }
    match removed {
        true => outln!(p, "{}'s hook removed from {}", site.name(), file.display()),
        false => outln!(
            p,
            "no Redline hook in {}: nothing to remove",
            file.display()
        ),
    }
    Ok(())
}

/// `hooks status`: each hooked CLI's hook, as JSON or one line each.
fn status(dirs: &Dirs, p: &mut Printer, program: &Path, format: Format) -> Result<()> {
    let all = HookCli::all()
        .map(|site| config::status(&site, &dirs.locate(&site.config), program))
        .collect::<Result<Vec<_>>>()?;
    if format == Format::Json {
        p.json(&all);
        return Ok(());
    }
    for s in &all {
        print_status(p, s);
    }
    Ok(())
}

/// One CLI's line of `hooks status`.
fn print_status(p: &mut Printer, s: &HookStatus) {
    match &s.command {
        None if s.ide_reviews => outln!(
            p,
            "{}: no hook, none needed: its IDE connection reviews every edit (with a hook too, \
             each edit is asked twice; `redline hooks install {}` is for when you keep that \
             connection off)",
            s.name,
            s.cli
        ),
        None => outln!(
            p,
            "{}: no hook ({}); `redline hooks install {}` adds it",
            s.name,
            s.file.display(),
            s.cli
        ),
        Some(c) if !s.current => outln!(
            p,
            "{}: a Redline hook that is not this one ({c}); `redline hooks install {}{}` \
             updates it",
            s.name,
            s.cli,
            review_flag(s.review)
        ),
        Some(_) => outln!(
            p,
            "{}: installed in {}, {}{}{}",
            s.name,
            s.file.display(),
            mode_words(s.review),
            s.needs
                .map(|n| format!("; if not done yet: {n}"))
                .unwrap_or_default(),
            s.own_questions
                .as_deref()
                .map(|q| format!("; {q}"))
                .unwrap_or_default()
        ),
    }
}

/// A review mode as `hooks status` says it.
/// The flag `hooks install` needs to keep `mode` (none for the edit mode, its default).
fn review_flag(mode: Option<ReviewMode>) -> &'static str {
    match mode {
        Some(ReviewMode::Turn) => " --review turn",
        Some(ReviewMode::Both) => " --review both",
        Some(ReviewMode::Edit) | None => "",
    }
}

fn mode_words(mode: Option<ReviewMode>) -> &'static str {
    match mode {
        Some(ReviewMode::Turn) => "reviewing each turn (--review turn)",
        Some(ReviewMode::Both) => {
            "reviewing each edit, with the end-of-turn review (--review both)"
        }
        Some(ReviewMode::Edit) | None => "reviewing each edit (--review edit)",
    }
}

/// This `redline`, as the hook will run it.
fn program() -> Result<PathBuf> {
    std::env::current_exe().map_err(|e| Error::io(Path::new("redline"), e))
}
