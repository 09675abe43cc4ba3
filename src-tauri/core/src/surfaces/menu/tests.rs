//! Tests of `surfaces::menu`.

use super::*;
use crate::api::status::KeyringStatus;
use crate::api::status::WorkspaceStatus;

fn ws(path: &str, port: Option<u16>) -> WorkspaceStatus {
    WorkspaceStatus {
        path: path.into(),
        enabled: port.is_some(),
        missing: false,
        port,
        ws_port: None,
        amp_port: None,
        token_store: "keyring".into(),
        discovery_files: port
            .map(|p| {
                vec![
                    PathBuf::from(format!("/tmp/gemini/ide/gemini-ide-server-9-{p}.json")),
                    PathBuf::from(format!("/home/u/.qwen/ide/{p}.lock")),
                ]
            })
            .unwrap_or_default(),
        discovery_failures: vec![],
        discovery_gone: vec![],
        clients: vec![],
        pending_reviews: 0,
        containers: None,
    }
}

fn status(available: bool) -> Status {
    Status {
        pid: 9,
        keyring: KeyringStatus {
            available,
            detail: String::new(),
        },
        workspaces: vec![ws("/src/app", Some(4000)), ws("/src/lib", None)],
        editors: vec![],
        window_problem: None,
        log_file: None,
        codex_ide: None,
        remotes: vec![],
    }
}

fn pending(n: usize) -> Vec<Summary> {
    (0..n)
        .map(|i| Summary {
            id: i as u64 + 1,
            workspace: "/src/app".into(),
            file_path: format!("/src/app/f{i}.rs"),
            path: format!("/src/app/f{i}.rs").into(),
            container: false,
            client: crate::review::ClientInfo {
                name: "streamable-http-client".into(),
                version: "1.0.0".into(),
                process: Some(crate::platform::peer::PeerProcess {
                    pid: 7,
                    program: "Qwen Code".into(),
                    version: Some("0.24.4".into()),
                    tmux: Some("main:1.0".into()),
                    ..Default::default()
                }),
                session_name: None,
                command: false,
            },
            added: 1,
            removed: 0,
            new_file: false,
            created_at: 0,
            read_only: None,
            can_mention: false,
            reason_heard: false,
            kind: crate::review::ReviewKind::Edit,
            turn_id: None,
            remote: None,
        })
        .collect()
}

#[test]
fn pending_reviews_say_who_asked_and_the_rest_are_counted() {
    let items = tray(&status(true), &pending(7), false, |_| None);
    assert_eq!(
        items[1],
        Item::Note("f0.rs — Qwen Code 0.24.4 · tmux main:1.0".into())
    );
    assert_eq!(items[6], Item::Note("and 2 more".into()));
    assert_eq!(items[7], Item::Separator);
}

#[test]
fn first_run_puts_adding_a_workspace_first_and_says_why() {
    let mut s = status(true);
    s.workspaces.clear();
    let items = tray(&s, &[], false, |_| None);
    assert_eq!(
        items[0],
        Item::Action {
            label: "Add a workspace…".into(),
            action: Action::AddWorkspace
        }
    );
    assert_eq!(
        items[1],
        Item::Note("No workspace yet: CLIs cannot find Redline".into())
    );
    assert!(matches!(
        &items[2],
        Item::Action {
            action: Action::OpenReviews,
            ..
        }
    ));
    assert!(find(&items, "Workspaces").is_none());
    assert!(matches!(
        items.last(),
        Some(Item::Action {
            action: Action::Quit,
            ..
        })
    ));
    // With a workspace, the usual menu.
    assert_eq!(
        tray(&status(true), &[], false, |_| None)[0],
        Item::Note("No pending reviews".into())
    );
}

#[test]
fn getting_started_stays_once_a_workspace_exists_after_the_workspaces() {
    for reviews in [vec![], pending(2)] {
        let items = tray(&status(true), &reviews, false, |_| None);
        let at = items
            .iter()
            .position(|i| {
                matches!(i, Item::Action { label, action: Action::OpenReviews }
                    if label == "Getting started…")
            })
            .expect("Getting started… in the menu with a workspace");
        let workspaces = items
            .iter()
            .position(|i| i == &Item::Note("Workspaces".into()));
        assert!(workspaces.is_some_and(|w| w < at), "after the workspaces");
        assert!(matches!(
            &items[at + 1],
            Item::Check {
                action: Action::ToggleAutostart,
                ..
            }
        ));
    }
}

fn find<'a>(items: &'a [Item], label: &str) -> Option<&'a Item> {
    items.iter().find(|i| match i {
        Item::Action { label: l, .. } | Item::Check { label: l, .. } => l == label,
        Item::Submenu { label: l, .. } => l == label,
        Item::Note(l) => l == label,
        Item::Separator => false,
    })
}

#[test]
fn header_counts_pending_reviews_and_opens_them() {
    let items = tray(&status(true), &[], false, |_| None);
    assert_eq!(items[0], Item::Note("No pending reviews".into()));
    let items = tray(&status(true), &pending(2), false, |_| None);
    assert_eq!(
        items[0],
        Item::Action {
            label: "2 reviews pending — open…".into(),
            action: Action::OpenReviews
        }
    );
    assert!(
        matches!(&tray(&status(true), &pending(1), false, |_| None)[0],
        Item::Action { label, .. } if label == "1 review pending — open…")
    );
}

#[test]
fn each_workspace_has_a_check_mark_and_its_tokens_and_files() {
    let tokens = |p: &Path| (p == Path::new("/src/app")).then(|| token_hint(&"ab12".repeat(16)));
    let items = tray(&status(true), &[], true, tokens);
    assert_eq!(
        find(&items, "app — port 4000"),
        Some(&Item::Check {
            label: "app — port 4000".into(),
            checked: true,
            action: Action::ToggleWorkspace {
                path: "/src/app".into()
            }
        })
    );
    assert!(matches!(
        find(&items, "lib — off"),
        Some(Item::Check { checked: false, .. })
    ));
    assert!(find(&items, "Add workspace…").is_some());
    let Some(Item::Submenu { items: tokens, .. }) = find(&items, "Tokens") else {
        panic!("a Tokens submenu")
    };
    let Item::Submenu { items: app, .. } = &tokens[0] else {
        panic!()
    };
    assert_eq!(app[0], Item::Note("ab12…ab12 (in the OS keyring)".into()));
    assert!(find(app, "Rotate token…").is_some());
    assert!(find(app, "Copy token").is_some());
    let Some(Item::Submenu { items: files, .. }) = find(&items, "Discovery files") else {
        panic!("a Discovery files submenu")
    };
    assert!(find(files, "gemini-ide-server-9-4000.json").is_some());
    assert!(find(files, "4000.lock").is_some());
    assert!(find(files, "Open folder /tmp/gemini/ide").is_some());
    assert!(matches!(
        find(&items, "Start at login"),
        Some(Item::Check { checked: true, .. })
    ));
    assert!(matches!(
        items.last(),
        Some(Item::Action {
            action: Action::Quit,
            ..
        })
    ));
}

#[test]
fn a_containers_submenu_has_a_check_item_per_workspace_with_its_address() {
    let mut s = status(true);
    s.workspaces[0].containers = Some(crate::api::status::ContainerStatus {
        address: Some("172.17.0.1".parse().unwrap()),
        port: Some(4000),
        ws_port: Some(4001),
        paths: vec![],
        discovery_files: vec![],
        error: None,
    });
    let items = tray(&s, &[], false, |_| None);
    let Some(Item::Submenu { items: sub, .. }) = find(&items, "Containers") else {
        panic!("a Containers submenu")
    };
    assert_eq!(
        sub[0],
        Item::Check {
            label: "app — 172.17.0.1:4000 (host.docker.internal)".into(),
            checked: true,
            action: Action::ToggleContainers {
                path: "/src/app".into()
            }
        }
    );
    assert!(matches!(&sub[1], Item::Check { label, checked: false, .. } if label == "lib — off"));
    s.workspaces[0].containers = Some(crate::api::status::ContainerStatus {
        address: None,
        port: None,
        ws_port: None,
        paths: vec![],
        discovery_files: vec![],
        error: Some("no container bridge found".into()),
    });
    let items = tray(&s, &[], false, |_| None);
    let Some(Item::Submenu { items: sub, .. }) = find(&items, "Containers") else {
        panic!()
    };
    assert!(
        matches!(&sub[0], Item::Check { label, checked: true, .. } if label == "app — ⚠ no container bridge found")
    );
}

#[test]
fn warns_when_there_is_no_keyring_or_a_file_failed() {
    let mut s = status(false);
    s.workspaces[0]
        .discovery_failures
        .push("/x/1.lock: permission denied".into());
    let items = tray(&s, &[], false, |_| None);
    assert!(find(&items, "⚠ No OS keyring: tokens change at every start").is_some());
    assert!(find(&items, "⚠ Not written: /x/1.lock: permission denied").is_some());
    assert!(find(
        &tray(&status(true), &[], false, |_| None),
        "⚠ No OS keyring: tokens change at every start"
    )
    .is_none());
}

#[test]
fn the_token_is_never_shown_whole_and_ids_round_trip() {
    let token = "0123456789abcdef".repeat(4);
    let hint = token_hint(&token);
    assert_eq!(hint, "0123…cdef");
    assert!(!hint.contains(&token[4..60]));
    let a = Action::RotateToken {
        path: "/src/app".into(),
    };
    assert_eq!(Action::from_id(&a.id()), Some(a));
    assert_eq!(Action::from_id("nonsense"), None);
}

#[cfg(target_os = "macos")]
#[test]
fn macos_shows_template_icons_the_menu_bar_tints() {
    for pending in [false, true] {
        for light in [false, true] {
            let (name, template) = tray_icon(pending, light);
            assert!(template);
            assert!(name.contains("template"), "{name}");
            assert_eq!(name.contains("pending"), pending);
        }
    }
}

#[cfg(not(target_os = "macos"))]
#[test]
fn elsewhere_the_icon_follows_the_panel_and_is_not_a_template() {
    assert_eq!(tray_icon(false, false), ("tray-dark@2x.png", false));
    assert_eq!(tray_icon(true, true), ("tray-pending-light@2x.png", false));
}

fn window_problem(mut s: Status, why: &str) -> Status {
    s.window_problem = Some(why.into());
    s
}

#[test]
fn a_window_that_cannot_start_is_said_where_the_reviews_are_and_on_first_run() {
    let why = "the review window cannot start: it ended before its page loaded (exit status: 1); \
               answer reviews with `redline review list`, `redline review accept ID` and \
               `redline review reject ID`";
    let items = tray(
        &window_problem(status(true), why),
        &pending(1),
        false,
        |_| None,
    );
    // Lines to read, before the first separator, below the reviews they concern: what to do,
    // then why.
    let at = items
        .iter()
        .position(|i| *i == Item::Note(WINDOW_PROBLEM.into()));
    let separator = items.iter().position(|i| *i == Item::Separator);
    assert!(
        matches!((at, separator), (Some(a), Some(s)) if a > 0 && a + 1 < s),
        "{items:#?}"
    );
    let reason = "it ended before its page loaded (exit status: 1)";
    assert_eq!(items[at.unwrap() + 1], Item::Note(reason.into()));

    let mut s = window_problem(status(true), why);
    s.workspaces.clear();
    let items = tray(&s, &[], false, |_| None);
    assert!(find(&items, WINDOW_PROBLEM).is_some(), "{items:#?}");
    assert!(find(&items, reason).is_some(), "{items:#?}");
    // Gone once the window starts again.
    let items = tray(&status(true), &pending(1), false, |_| None);
    assert!(find(&items, WINDOW_PROBLEM).is_none());
}

#[test]
fn a_long_window_problem_is_cut_to_one_menu_row() {
    let why = format!("Could not create default EGL display: {}", "x".repeat(500));
    let items = tray(&window_problem(status(true), &why), &[], false, |_| None);
    let at = items
        .iter()
        .position(|i| *i == Item::Note(WINDOW_PROBLEM.into()))
        .expect("the problem's first row");
    let Item::Note(reason) = &items[at + 1] else {
        panic!("{items:#?}");
    };
    assert!(
        reason.starts_with("Could not create default EGL display: xxx"),
        "{reason}"
    );
    assert!(reason.ends_with('…'), "{reason}");
    assert_eq!(reason.chars().count(), MAX_PROBLEM_CHARS + 1);
}

#[test]
fn the_folder_dialog_opens_beside_the_newest_workspace_else_at_home() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("shop");
    let home = Some(PathBuf::from("/home/ana"));
    assert_eq!(
        add_workspace_folder(Some(&ws), home.clone()).as_deref(),
        Some(tmp.path())
    );
    assert_eq!(add_workspace_folder(None, home.clone()), home);
    // A workspace whose parent is gone: home, not a folder GTK cannot open.
    let gone = tmp.path().join("gone").join("shop");
    assert_eq!(add_workspace_folder(Some(&gone), home.clone()), home);
}

#[test]
fn the_log_file_is_named_and_opens_its_folder_only_when_there_is_one() {
    let label = "Log file: /state/redline/redline.log";
    assert_eq!(
        find(&tray(&status(true), &[], false, |_| None), label),
        None
    );
    let mut s = status(true);
    s.log_file = Some("/state/redline/redline.log".into());
    assert_eq!(
        find(&tray(&s, &[], false, |_| None), label),
        Some(&Item::Action {
            label: label.into(),
            action: Action::OpenFolder {
                path: "/state/redline".into()
            }
        })
    );
}

#[test]
fn the_first_run_menu_names_the_log_file_too() {
    let mut s = status(true);
    s.workspaces.clear();
    s.log_file = Some("/state/redline/redline.log".into());
    let label = "Log file: /state/redline/redline.log";
    assert!(find(&tray(&s, &[], false, |_| None), label).is_some());
}

fn turn(id: u64, cli: &str, ended: bool) -> crate::api::turns::TurnSummary {
    use crate::api::turns::{FileStatus, TurnFile, TurnState, TurnSummary};
    let file = |path: &str, added, removed| TurnFile {
        path: path.into(),
        from: None,
        status: FileStatus::Modified,
        binary: false,
        too_large: false,
        not_a_file: None,
        added,
        removed,
    };
    TurnSummary {
        id,
        cli: cli.into(),
        session: "s".into(),
        // 2026-11-29 08:41:12 UTC.
        started: 1_795_941_672_000,
        ended: ended.then_some(1_795_941_700_000),
        state: match ended {
            true => TurnState::Ended,
            false => TurnState::Running,
        },
        unlisted: 0,
        files: match ended {
            true => vec![file("a.rs", 10, 3), file("b.rs", 2, 1)],
            false => vec![],
        },
    }
}

#[test]
fn recent_turns_list_a_few_per_workspace_newest_first_each_opening_the_window() {
    let app = PathBuf::from("/src/app");
    let many: Vec<_> = (1..=8).rev().map(|id| turn(id, "codex", true)).collect();
    let turns = vec![
        (app.clone(), many),
        (PathBuf::from("/src/lib"), vec![turn(2, "claude", false)]),
    ];
    let items = tray_with_turns(&status(true), &[], Some(&turns), false, |_| None);
    let Some(Item::Submenu { items: sub, .. }) = items
        .iter()
        .find(|i| matches!(i, Item::Submenu { label, .. } if label == "Recent turns"))
    else {
        panic!("no Recent turns in {items:?}");
    };
    // After the workspaces, before the tokens.
    let at = |label: &str| {
        items
            .iter()
            .position(|i| matches!(i, Item::Submenu { label: l, .. } if l == label))
    };
    assert!(at("Remove workspace") < at("Recent turns"));
    assert!(at("Recent turns") < at("Tokens"));
    assert_eq!(sub[0], Item::Note("app".into()));
    let rows: Vec<_> = sub
        .iter()
        .filter_map(|i| match i {
            Item::Action {
                label,
                action: Action::OpenTurn { path, id },
            } => Some((label.clone(), path.clone(), *id)),
            _ => None,
        })
        .collect();
    assert_eq!(rows.len(), RECENT_PER_WORKSPACE + 1, "{rows:?}");
    assert_eq!(
        rows[0],
        ("codex 08:41Z — 2 files +12 −4".to_owned(), app.clone(), 8)
    );
    assert_eq!(rows[RECENT_PER_WORKSPACE - 1].2, 4);
    assert_eq!(rows[RECENT_PER_WORKSPACE].0, "claude 08:41Z — running");
    let checkpoints: Vec<_> = sub
        .iter()
        .filter_map(|i| match i {
            Item::Action {
                label,
                action: Action::CheckpointNow { path },
            } if label == "Checkpoint now" => Some(path.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(checkpoints, [app, PathBuf::from("/src/lib")]);
    // A click's id maps back to the action.
    let open = Action::OpenTurn {
        path: "/src/app".into(),
        id: 8,
    };
    assert_eq!(Action::from_id(&open.id()), Some(open));
    // Without turns given, the menu is as before.
    assert!(at("Recent turns").is_some());
    let plain = tray(&status(true), &[], false, |_| None);
    assert!(!plain
        .iter()
        .any(|i| matches!(i, Item::Submenu { label, .. } if label == "Recent turns")));
}

#[test]
fn remotes_show_their_state_and_why_one_is_not_connected() {
    use crate::api::remote_info::{LinkState, RemoteInfo};
    let mut s = status(true);
    let remotes = |items: &[Item]| {
        items
            .iter()
            .find(|i| matches!(i, Item::Submenu { label, .. } if label.starts_with("Remotes")))
            .cloned()
    };
    assert!(remotes(&tray(&s, &[], false, |_| None)).is_none());
    let remote = |name: &str, state, reason: Option<&str>, pending| RemoteInfo {
        name: name.into(),
        command: vec!["ssh".into()],
        state,
        reason: reason.map(str::to_owned),
        pending,
        last_decision: None,
    };
    s.remotes = vec![
        remote("devbox", LinkState::Connected, None, 2),
        remote(
            "gpu",
            LinkState::Failed,
            Some("Permission denied (publickey)"),
            0,
        ),
    ];
    let items = tray(&s, &[], false, |_| None);
    let Some(Item::Submenu { label, items }) = remotes(&items) else {
        panic!("no Remotes submenu: {items:?}")
    };
    assert_eq!(label, "Remotes (1 of 2 connected)");
    assert_eq!(
        items,
        vec![
            Item::Note("devbox — connected, 2 reviews".into()),
            Item::Note("gpu — failed: Permission denied (publickey)".into()),
        ]
    );
}
