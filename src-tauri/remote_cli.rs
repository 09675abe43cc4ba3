//! `redline remote add|remove|list`: the other machines whose reviews this one shows.

use crate::format::Format;
use crate::output::{errln, outln, Printer};
use crate::remote_args::{RemoteCmd, RemoteWorkspaceCmd};
use crate::request::ask;
use redline_core::api::remote_info::{LinkState, RemoteInfo};
use redline_core::platform::dirs::Dirs;
use redline_core::runtime::command::Via;
use redline_core::runtime::control::decode;
use redline_core::runtime::remote::desktop::far_install::{self, Placed};
use redline_core::runtime::remote::desktop::shorthand;
use redline_core::surfaces::action::{
    Call, RemoteAdd, RemoteAsk, RemoteList, RemoteRemove, WorkspaceAdd, WorkspaceList,
    WorkspaceRemove,
};
use redline_core::workspace::config::WorkspaceEntry;
use redline_core::workspace::remote_entry::RemoteEntry;
use redline_core::{Error, Result};
use std::path::PathBuf;

/// What `redline remote …` asks, its arguments resolved.
pub(crate) enum RemoteAction {
    /// `install`: the shorthand whose machine gets this Redline's headless build first.
    Add {
        remote: RemoteEntry,
        install: Option<String>,
    },
    Remove {
        name: String,
    },
    List {
        format: Format,
    },
    /// `call` (a workspace action) asked of remote `name`'s Redline.
    Workspace {
        name: String,
        call: Call,
        format: Format,
    },
}

/// `cmd`'s arguments resolved: a shorthand expanded to its command, a name checked.
pub(crate) fn resolve(cmd: RemoteCmd) -> Result<RemoteAction> {
    Ok(match cmd {
        RemoteCmd::Add {
            target,
            name,
            install,
            command,
        } => {
            let remote = entry(&target, name.as_deref(), command)?;
            if install {
                far_install::takes(&target)?;
            }
            RemoteAction::Add {
                remote,
                install: install.then_some(target),
            }
        }
        RemoteCmd::Remove { name } => RemoteAction::Remove { name },
        RemoteCmd::List { output } => RemoteAction::List {
            format: output.format(),
        },
        RemoteCmd::Workspace { name, cmd } => {
            let (call, format) = match cmd {
                RemoteWorkspaceCmd::Add { path, force } => (
                    WorkspaceAdd {
                        path: path.into(),
                        force,
                    }
                    .into(),
                    Format::Text,
                ),
                RemoteWorkspaceCmd::Remove { path } => {
                    (WorkspaceRemove { path: path.into() }.into(), Format::Text)
                }
                RemoteWorkspaceCmd::List { output } => (WorkspaceList {}.into(), output.format()),
            };
            RemoteAction::Workspace { name, call, format }
        }
    })
}

fn entry(target: &str, name: Option<&str>, command: Vec<String>) -> Result<RemoteEntry> {
    match (shorthand::expand(target, name)?, command.is_empty(), name) {
        (Some(entry), true, _) => Ok(entry),
        (Some(_), false, _) => Err(Error::Usage(format!(
            "{target} stands for its own command: give either it or `NAME -- COMMAND...`"
        ))),
        (None, _, Some(_)) => Err(Error::Usage(
            "--name goes with ssh://… or wsl://…; otherwise the first word is the name".into(),
        )),
        (None, _, None) => Ok(RemoteEntry::new(target, command)?),
    }
}

/// `redline remote add`: saved, and what its first link did; `Ok(false)` (exit 1) when it
/// failed (the remote stays, tried again with a backoff).
async fn added(dirs: &Dirs, p: &mut Printer<'_>, remote: RemoteEntry) -> Result<bool> {
    let answer = ask(dirs, RemoteAdd { remote }).await?;
    let r = answer.value;
    if answer.via == Via::Stored {
        outln!(
            p,
            "added {} (its link is made by the next `redline serve`)",
            r.name
        );
        return Ok(true);
    }
    match (r.state, r.reason.as_deref()) {
        (LinkState::Failed, Some(why)) => {
            errln!(p, "added {}, but its link failed: {why}", r.name);
            if why.contains("not found") {
                errln!(p, "{NOT_THERE}");
            }
            Ok(false)
        }
        (state, _) => {
            outln!(p, "added {}: {state}", r.name);
            Ok(true)
        }
    }
}

/// `--install`: this Redline's headless build put on `target`'s machine, and said.
async fn installed(p: &mut Printer<'_>, target: &str, name: &str) -> Result<()> {
    // The desktop build needs GTK, which a server seldom has.
    let build = far_install::build_to_copy(name, !cfg!(feature = "desktop"))?;
    match far_install::install(target, name, &build).await? {
        Placed::Already => outln!(p, "{name} has this Redline already"),
        Placed::Copied(bytes) => outln!(
            p,
            "installed Redline on {name} in ~/.local/share/redline/bin ({} MB, sha256 checked there)",
            bytes.div_ceil(1 << 20)
        ),
    }
    Ok(())
}

/// What to do when the far side has no `redline` (the shell there said `not found`).
const NOT_THERE: &str = "Redline is not installed on that machine, or not on the PATH its \
    login shell gives: remove it and add it again with `--install` (ssh://… and wsl://…: this \
    Redline's headless build is copied to ~/.local/share/redline/bin there), install it there \
    yourself, or name its path in the command after `--`";

pub(crate) async fn run(dirs: &Dirs, p: &mut Printer<'_>, action: RemoteAction) -> Result<bool> {
    match action {
        RemoteAction::Add { remote, install } => {
            if let Some(target) = install {
                installed(p, &target, &remote.name).await?;
            }
            return added(dirs, p, remote).await;
        }
        RemoteAction::Remove { name } => {
            ask(dirs, RemoteRemove { name: name.clone() }).await?;
            outln!(p, "removed {name}");
        }
        RemoteAction::Workspace { name, call, format } => {
            workspace(dirs, p, name, call, format).await?
        }
        RemoteAction::List { format } => {
            let list: Vec<RemoteInfo> = ask(dirs, RemoteList {}).await?.value;
            p.show(format, &list, list_text);
        }
    }
    Ok(true)
}

/// A workspace action asked of remote `name`: its answer said as `redline workspace` says it,
/// with the remote's name (its paths are that machine's: nothing here looks at them).
async fn workspace(
    dirs: &Dirs,
    p: &mut Printer<'_>,
    name: String,
    call: Call,
    format: Format,
) -> Result<()> {
    let listing = matches!(call, Call::WorkspaceList(_));
    let verb = match &call {
        Call::WorkspaceAdd(_) => "added",
        _ => "removed",
    };
    let ask_call = RemoteAsk {
        name: name.clone(),
        call: Box::new(call),
    };
    let value = ask(dirs, ask_call).await?.value;
    if !listing {
        let path: PathBuf = decode::<WorkspaceAdd>(value)?;
        outln!(p, "{verb} {} on {name}", path.display());
        return Ok(());
    }
    let list: Vec<WorkspaceEntry> = decode::<WorkspaceList>(value)?;
    p.show(format, &list, |p, list| {
        if list.is_empty() {
            outln!(p, "no workspaces on {name}");
        }
        for w in list {
            let on = if w.enabled { "on " } else { "off" };
            outln!(p, "{on}  {name}:{}", w.path.display());
        }
    });
    Ok(())
}

fn list_text(p: &mut Printer, list: &Vec<RemoteInfo>) {
    if list.is_empty() {
        outln!(
            p,
            "no remotes; add one with `redline remote add ssh://HOST`"
        );
    }
    for r in list {
        crate::text::remote(p, r);
    }
}
