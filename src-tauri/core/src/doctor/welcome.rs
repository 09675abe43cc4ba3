//! The doctor's lines on the window's welcome page.

use super::diagnose;
use crate::api::status::Status;
use crate::doctor::facts::Facts;
use crate::doctor::report::Place;
use crate::workspace::config::Config;
use serde::Serialize;

/// One CLI's line on the welcome page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DoctorLine")]
pub struct Line {
    pub name: String,
    pub installed: bool,
    /// The installed version, when its package says.
    pub version: Option<String>,
    pub ok: bool,
    pub reason: String,
    /// The one command that fixes it, if any.
    pub fix: Option<String>,
    /// Where the fix is typed: in a shell, at the CLI's prompt (e.g. `/ide enable`), or no
    /// command at all but what to do, in a sentence (`advice`).
    pub fix_where: Place,
}

/// What the window's welcome page shows: the workspace it checked and each CLI's line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Welcome {
    /// The workspace checked (the newest); `None` when there is none yet.
    pub workspace: Option<String>,
    pub lines: Vec<Line>,
}

/// The doctor's verdict for the running instance's newest workspace, from its root.
pub async fn welcome(status: Status, config: Config) -> Welcome {
    let Some(ws) = status.workspaces.last().map(|w| w.path.clone()) else {
        return Welcome {
            workspace: None,
            lines: vec![],
        };
    };
    let facts = Facts::from_os(ws.clone(), Some(status), config);
    let report = diagnose(&facts).await;
    Welcome {
        workspace: Some(ws.to_string_lossy().into_owned()),
        lines: report
            .clis
            .iter()
            .map(|c| Line {
                name: c.name.clone(),
                installed: c.installed.is_some(),
                version: c.installed.as_ref().and_then(|i| i.version.clone()),
                ok: c.ok,
                reason: c.reason.clone(),
                fix: c.fix.as_ref().map(|f| f.command.clone()),
                fix_where: c.fix.as_ref().map_or(Place::Shell, |f| f.place),
            })
            // A CLI reviewed only through its hook (Codex), or one whose hook is installed: the
            // line says how to add it, or that it is there.
            .chain(
                report
                    .hooks
                    .iter()
                    .filter(|h| !h.ide_protocol || h.hook.is_some())
                    .map(|h| Line {
                        name: h.name.clone(),
                        installed: h.installed.is_some(),
                        version: h.installed.as_ref().and_then(|i| i.version.clone()),
                        ok: h.hook.is_some(),
                        reason: h.reason.clone(),
                        fix: h.fix.as_ref().map(|f| f.command.clone()),
                        fix_where: h.fix.as_ref().map_or(Place::Shell, |f| f.place),
                    }),
            )
            // An installed CLI that asks the IDE for context (Codex's `/ide on`, opencode):
            // whether it gets the editor's.
            .chain(
                report
                    .context
                    .iter()
                    .filter(|c| c.installed.is_some())
                    .map(|c| Line {
                        name: format!("{} (context)", c.name),
                        installed: true,
                        version: c.installed.as_ref().and_then(|i| i.version.clone()),
                        ok: c.ok,
                        reason: c.reason.clone(),
                        fix: None,
                        fix_where: Place::Shell,
                    }),
            )
            .collect(),
    }
}
