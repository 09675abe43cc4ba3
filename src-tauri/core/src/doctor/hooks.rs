//! Doctor's look at the CLIs Redline reviews through their pre-edit hooks: installed, Redline's
//! hook in their config or not, and what they still need.

use super::install::{find_program, resolve};
use super::report::{shell, HookReport};
use super::Facts;
use crate::clients::HOOKED;
use crate::discovery::hook_config;

pub fn check(facts: &Facts) -> Vec<HookReport> {
    HOOKED
        .iter()
        .map(|site| {
            let installed = find_program(site.binary, site.packages, facts);
            let file = resolve(&site.config, facts);
            let found = hook_config::find(site, &file);
            let (hook, reason, fix) = match (&found, &installed) {
                (Err(e), _) => (None, e.to_string(), None),
                (Ok(Some(f)), _) => (
                    Some(f.command.clone()),
                    match site.trust {
                        Some(needs) => {
                            format!("Redline's hook is installed; if not done yet: {needs}")
                        }
                        None => "Redline's hook is installed".into(),
                    },
                    None,
                ),
                (Ok(None), Some(_)) => (
                    None,
                    format!(
                        "no Redline hook: {} edits are not reviewed in Redline",
                        site.name
                    ),
                    shell(format!("redline hooks install {}", site.id)),
                ),
                (Ok(None), None) => (None, "not installed".into(), None),
            };
            HookReport {
                id: site.id.into(),
                name: site.name.into(),
                installed,
                file,
                hook,
                reason,
                fix,
            }
        })
        .collect()
}
