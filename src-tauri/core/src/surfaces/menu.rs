//! The tray menu as data, built from the instance's state, so it is tested without a display.

use crate::api::remote_info::LinkState;
use crate::api::status::{Status, WorkspaceStatus};
use crate::review::Summary;
use std::path::{Path, PathBuf};

mod item;
mod recent;
use item::name;
pub use item::{Action, Item};
pub use recent::{recent_turns, RECENT_PER_WORKSPACE};

/// Pending reviews listed by name in the menu; the rest are counted.
const MAX_LISTED: usize = 5;

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The whole tray menu. `token_hint` shows a token's first and last characters, never all of it.
pub fn tray(
    status: &Status,
    reviews: &[Summary],
    autostart: bool,
    token_hint: impl Fn(&Path) -> Option<String>,
) -> Vec<Item> {
    tray_with_turns(status, reviews, None, autostart, token_hint)
}

/// [`tray`], with *Recent turns* after the workspaces: each served workspace's turns, newest
/// first (`None`: no such submenu).
pub fn tray_with_turns(
    status: &Status,
    reviews: &[Summary],
    turns: Option<&[(PathBuf, Vec<crate::api::turns::TurnSummary>)]>,
    autostart: bool,
    token_hint: impl Fn(&Path) -> Option<String>,
) -> Vec<Item> {
    let window_problem = status.window_problem.as_deref();
    if status.workspaces.is_empty() {
        // First run: nothing is served until a workspace exists, so that comes first.
        return first_run(autostart, window_problem, log_file(status));
    }
    let mut items = pending(reviews);
    items.extend(window_problem.into_iter().flat_map(problem_notes));
    items.push(Item::Separator);
    items.extend(workspaces(status));
    items.extend(remotes(status));
    items.extend(turns.map(recent_turns));
    items.push(Item::Separator);
    items.push(tokens(status, token_hint));
    items.push(Item::Submenu {
        label: "Containers".into(),
        items: status.workspaces.iter().map(containers_item).collect(),
    });
    items.push(discovery_files(status));
    items.extend(warnings(status));
    items.extend(log_file(status));
    items.push(Item::Separator);
    // Always there: with nothing pending it is the one way to the window (and its check).
    items.push(getting_started());
    items.extend(footer(autostart));
    items
}

/// Opens the window on its welcome page (when nothing is pending): the steps and the live check.
fn getting_started() -> Item {
    Item::Action {
        label: "Getting started…".into(),
        action: Action::OpenReviews,
    }
}

/// The pending reviews: how many (a click opens them), then who asked for the first few.
fn pending(reviews: &[Summary]) -> Vec<Item> {
    let pending = reviews.len();
    let mut items = vec![if pending == 0 {
        Item::Note("No pending reviews".into())
    } else {
        Item::Action {
            label: format!("{} pending — open…", plural(pending, "review", "reviews")),
            action: Action::OpenReviews,
        }
    }];
    // Who asked, for each of the first few: the program and its terminal or tmux pane.
    for r in reviews.iter().take(MAX_LISTED) {
        items.push(Item::Note(format!(
            "{} — {}",
            name(Path::new(&r.file_path)),
            r.client.label()
        )));
    }
    if pending > MAX_LISTED {
        items.push(Item::Note(format!("and {} more", pending - MAX_LISTED)));
    }
    items
}

/// The remote machines, each with its link's state and its reviews here, and why one is not
/// connected (`redline remote list` says the same); nothing when there are none.
fn remotes(status: &Status) -> Option<Item> {
    if status.remotes.is_empty() {
        return None;
    }
    let items = (status.remotes.iter())
        .map(|r| {
            let reviews = plural(r.pending, "review", "reviews");
            Item::Note(match &r.reason {
                Some(why) => format!("{} — {}: {why}", r.name, r.state),
                None => format!("{} — {}, {reviews}", r.name, r.state),
            })
        })
        .collect();
    let connected = (status.remotes.iter())
        .filter(|r| r.state == LinkState::Connected)
        .count();
    let label = format!(
        "Remotes ({connected} of {} connected)",
        status.remotes.len()
    );
    Some(Item::Submenu { label, items })
}

/// Each workspace's switch with its state, then adding one and the submenu that removes one.
fn workspaces(status: &Status) -> Vec<Item> {
    let mut items = vec![Item::Note("Workspaces".into())];
    for w in &status.workspaces {
        let state = match w.port {
            Some(port) => format!("port {port}"),
            None if w.missing => "folder gone".into(),
            None => "off".into(),
        };
        items.push(Item::Check {
            label: format!("{} — {state}", name(&w.path)),
            checked: w.enabled && w.port.is_some(),
            action: Action::ToggleWorkspace {
                path: w.path.clone(),
            },
        });
    }
    items.push(Item::Action {
        label: "Add workspace…".into(),
        action: Action::AddWorkspace,
    });
    items.push(Item::Submenu {
        label: "Remove workspace".into(),
        items: status
            .workspaces
            .iter()
            .map(|w| Item::Action {
                label: w.path.to_string_lossy().into_owned(),
                action: Action::RemoveWorkspace {
                    path: w.path.clone(),
                },
            })
            .collect(),
    });
    items
}

/// A submenu per workspace: its token's hint and where it is kept, copy and rotate.
fn tokens(status: &Status, token_hint: impl Fn(&Path) -> Option<String>) -> Item {
    let store = if status.keyring.available {
        "in the OS keyring"
    } else {
        "in memory for this run"
    };
    let token_menu = |w: &WorkspaceStatus| {
        let mut sub = vec![Item::Note(match token_hint(&w.path) {
            Some(hint) => format!("{hint} ({store})"),
            None => format!("no token yet ({store})"),
        })];
        sub.push(Item::Action {
            label: "Copy token".into(),
            action: Action::CopyToken {
                path: w.path.clone(),
            },
        });
        sub.push(Item::Action {
            label: "Rotate token…".into(),
            action: Action::RotateToken {
                path: w.path.clone(),
            },
        });
        Item::Submenu {
            label: name(&w.path),
            items: sub,
        }
    };
    Item::Submenu {
        label: "Tokens".into(),
        items: status.workspaces.iter().map(token_menu).collect(),
    }
}

/// The discovery files written, then a way to open each folder they are in.
fn discovery_files(status: &Status) -> Item {
    let mut files: Vec<Item> = Vec::new();
    let mut folders: Vec<PathBuf> = Vec::new();
    for w in &status.workspaces {
        for f in &w.discovery_files {
            files.push(Item::Note(name(f)));
            if let Some(dir) = f.parent() {
                if !folders.iter().any(|d| d == dir) {
                    folders.push(dir.to_owned());
                }
            }
        }
    }
    if files.is_empty() {
        files.push(Item::Note("none (no workspace is on)".into()));
    }
    files.push(Item::Separator);
    for dir in folders {
        files.push(Item::Action {
            label: format!("Open folder {}", dir.display()),
            action: Action::OpenFolder { path: dir },
        });
    }
    Item::Submenu {
        label: "Discovery files".into(),
        items: files,
    }
}

/// What the user should know is wrong: no keyring, discovery files not written or gone.
fn warnings(status: &Status) -> Vec<Item> {
    let mut items = Vec::new();
    if !status.keyring.available {
        items.push(Item::Note(
            "⚠ No OS keyring: tokens change at every start".into(),
        ));
    }
    for w in &status.workspaces {
        for failure in &w.discovery_failures {
            items.push(Item::Note(format!("⚠ Not written: {failure}")));
        }
        for gone in &w.discovery_gone {
            items.push(Item::Note(format!("⚠ Gone: {gone}")));
        }
    }
    items
}

/// The tray icon's file in `icons/`, and whether the OS tints it itself (a macOS template image,
/// black and transparent, recoloured for light and dark menu bars). Elsewhere the panel is
/// assumed dark unless `light_panel`.
pub fn tray_icon(pending: bool, light_panel: bool) -> (&'static str, bool) {
    if cfg!(target_os = "macos") {
        let name = if pending {
            "tray-pending-template@2x.png"
        } else {
            "tray-template@2x.png"
        };
        return (name, true);
    }
    let name = match (pending, light_panel) {
        (true, true) => "tray-pending-light@2x.png",
        (false, true) => "tray-light@2x.png",
        (true, false) => "tray-pending-dark@2x.png",
        (false, false) => "tray-dark@2x.png",
    };
    (name, false)
}

/// Where the log is, when Redline runs in the background: a click opens its folder.
fn log_file(status: &Status) -> Option<Item> {
    let file = status.log_file.as_ref()?;
    Some(Item::Action {
        label: format!("Log file: {}", file.display()),
        action: Action::OpenFolder {
            path: file.parent().unwrap_or(file).to_owned(),
        },
    })
}

/// The last items of every menu.
fn footer(autostart: bool) -> [Item; 2] {
    [
        Item::Check {
            label: "Start at login".into(),
            checked: autostart,
            action: Action::ToggleAutostart,
        },
        Item::Action {
            label: "Quit Redline".into(),
            action: Action::Quit,
        },
    ]
}

/// The menu before any workspace exists: add one, or open the welcome page that explains.
fn first_run(autostart: bool, window_problem: Option<&str>, log: Option<Item>) -> Vec<Item> {
    let mut items = vec![
        Item::Action {
            label: "Add a workspace…".into(),
            action: Action::AddWorkspace,
        },
        Item::Note("No workspace yet: CLIs cannot find Redline".into()),
        getting_started(),
    ];
    items.extend(window_problem.into_iter().flat_map(problem_notes));
    // Where a first run that goes wrong says why.
    items.extend(log);
    items.push(Item::Separator);
    items.extend(footer(autostart));
    items
}

/// A menu row is one line of a popup: a longer reason (a window's last words) is cut there; the
/// log has it whole.
const MAX_PROBLEM_CHARS: usize = 90;

/// The first of the lines that say the review window cannot start, and what to use instead.
pub const WINDOW_PROBLEM: &str = "⚠ The review window cannot start: use `redline review list`";

/// Why the review window cannot start, where the reviews are listed: the menu is then the only
/// place on screen that says so. Two rows, so that what to do is not cut off by a long reason.
fn problem_notes(problem: &str) -> [Item; 2] {
    let why = problem.trim();
    // The launcher's sentence starts with what the first row says and ends with the commands to
    // use instead: the row keeps what is between.
    let why = why
        .strip_prefix("the review window cannot start: ")
        .unwrap_or(why);
    let why = why.split_once("; answer reviews").map_or(why, |(w, _)| w);
    let mut line: String = why.chars().take(MAX_PROBLEM_CHARS).collect();
    if line.len() < why.len() {
        line.push('…');
    }
    [Item::Note(WINDOW_PROBLEM.into()), Item::Note(line)]
}

/// A workspace's containers switch: checked when on, with where containers reach it.
fn containers_item(w: &WorkspaceStatus) -> Item {
    let state = match &w.containers {
        None => "off".to_owned(),
        Some(c) => match (c.address, c.port, &c.error) {
            (Some(a), Some(p), _) => format!("{a}:{p} (host.docker.internal)"),
            (_, _, Some(e)) => format!("⚠ {e}"),
            _ => "on when the workspace is".to_owned(),
        },
    };
    Item::Check {
        label: format!("{} — {state}", name(&w.path)),
        checked: w.containers.is_some(),
        action: Action::ToggleContainers {
            path: w.path.clone(),
        },
    }
}

/// Where the *Add workspace* folder dialog opens: beside `newest` (a workspace; a new project is
/// usually its sibling), else in `home`. Never nowhere: GTK's chooser opened with no folder shows
/// an empty "Recent" view, where a path typed leaves *Open* greyed out.
pub fn add_workspace_folder(newest: Option<&Path>, home: Option<PathBuf>) -> Option<PathBuf> {
    newest
        .and_then(Path::parent)
        .filter(|p| p.is_dir())
        .map(Path::to_path_buf)
        .or(home)
}

/// A token as the menu may show it: its first and last four characters.
pub fn token_hint(token: &str) -> String {
    match (token.get(..4), token.get(token.len().saturating_sub(4)..)) {
        (Some(head), Some(tail)) if token.len() > 8 => format!("{head}…{tail}"),
        _ => "…".into(),
    }
}

#[cfg(test)]
mod tests;
