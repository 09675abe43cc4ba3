//! `redline hooks install|uninstall|status`: Redline's pre-edit hook in each CLI's own config.

use crate::args::HooksCmd;
use crate::output::{outln, print_json};
use redline_core::clients::HookCli;
use redline_core::discovery::hook_config::{self as config, HookInstalled};
use redline_core::platform::dirs::Dirs;
use redline_core::{Error, Result};
use std::path::PathBuf;

pub fn run(dirs: &Dirs, cmd: HooksCmd) -> Result<()> {
    let program = program()?;
    match cmd {
        HooksCmd::Install { cli, turn_review } => {
            let site = &cli;
            let file = dirs.locate(&site.config);
            let command = match turn_review {
                true => config::command_recording(site, &program),
                false => config::command(site, &program),
            };
            let done = config::install_for(site, &file, &program, turn_review)?;
            let verb = match done {
                HookInstalled::Already => "already in",
                HookInstalled::Added => "added to",
                HookInstalled::Replaced => "updated in",
            };
            outln!(
                "{}'s hook {verb} {}: {command}",
                site.name(),
                file.display()
            );
            match site.timeout() {
                Some(secs) => outln!(
                    "{} asks Redline about every edit (waits up to {} minutes for you)",
                    site.name(),
                    secs / 60
                ),
                None => outln!(
                    "{} asks Redline about every edit (waits as long as you take), from its \
                     next start",
                    site.name()
                ),
            }
            if let (true, Some(after)) = (site.fails_open, site.deny_after()) {
                outln!(
                    "{} goes on with an edit whose hook runs out of time: Redline's hook denies \
                     it after {} minutes, before that",
                    site.name(),
                    after / 60
                );
            }
            if let (true, Some(event)) = (turn_review, site.turn_event) {
                let turn = config::turn_command(site, &program);
                outln!(
                    "and at the end of each turn ({event}: {turn}) shows the turn's changes, \
                     answered Done or Continue with instructions"
                );
            }
            if let Some(needs) = site.trust.filter(|_| done != HookInstalled::Already) {
                outln!("still to do: {needs}");
            }
            Ok(())
        }
        HooksCmd::Uninstall { cli } => {
            let site = &cli;
            let file = dirs.locate(&site.config);
            match config::uninstall(site, &file)? {
                true => outln!("{}'s hook removed from {}", site.name(), file.display()),
                false => outln!("no Redline hook in {}: nothing to remove", file.display()),
            }
            Ok(())
        }
        HooksCmd::Status { json } => {
            let all = HookCli::all()
                .map(|site| config::status(&site, &dirs.locate(&site.config), &program))
                .collect::<Result<Vec<_>>>()?;
            if json {
                print_json(&all);
                return Ok(());
            }
            for s in &all {
                match &s.command {
                    None => outln!(
                        "{}: no hook ({}); `redline hooks install {}` adds it",
                        s.name,
                        s.file.display(),
                        s.cli
                    ),
                    Some(c) if !s.current => outln!(
                        "{}: a Redline hook that is not this one ({c}); `redline hooks install {}` \
                         updates it",
                        s.name,
                        s.cli
                    ),
                    Some(_) => outln!(
                        "{}: installed in {}{}{}",
                        s.name,
                        s.file.display(),
                        match s.turn_review {
                            true => ", with the end-of-turn review",
                            false => "",
                        },
                        s.needs
                            .map(|n| format!("; if not done yet: {n}"))
                            .unwrap_or_default()
                    ),
                }
            }
            Ok(())
        }
    }
}

/// This `redline`, as the hook will run it.
fn program() -> Result<PathBuf> {
    std::env::current_exe().map_err(|e| Error::io(std::path::Path::new("redline"), e))
}
