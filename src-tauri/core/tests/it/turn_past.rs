//! A past turn from the window's Turns view, over the real control socket and the window's
//! channel: the turn is listed (newest first, its files and lines counted), opened file by
//! file, and undone whole after one of its files changed since: that file is named and left as
//! it is, the others are back byte for byte; the tray's Recent turns asks the page to open one.
//! How many turns are kept is the window's setting, applied at the next turn's end.

use crate::common::{eventually, start, WAIT};
use crate::editor::serve_control;
use redline_core::api::turns::{HistoryTurn, TurnAsked, TurnFileView, TurnFiles, TurnUndone};
use redline_core::protocols::hook::turn::TurnRuling;
use redline_core::protocols::hook::{HookCall, HookCli};
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::window::link;
use redline_core::surfaces::action::{
    Call, PastTurnFile, PastTurnFiles, PastTurnUndo, ReviewAccept, SettingsSet, TurnAskedGet,
    TurnsHistory,
};
use redline_core::workspace::config::Config;
use redline_core::workspace::settings::{HistoryBounds, Settings};
use redline_core::FaultCode;
use serde_json::{json, Value};
use std::path::Path;

fn claude(event: &str, cwd: &Path) -> Request {
    let input = json!({ "session_id": "s1", "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": event, "prompt": "go", "stop_hook_active": false });
    let call = HookCall {
        cli: HookCli::of("claude").unwrap(),
        input,
        record_turn: false,
    };
    match event {
        "UserPromptSubmit" => Request::TurnStart(call),
        _ => Request::TurnReview(call),
    }
}

async fn ask<T: serde::de::DeserializeOwned>(window: &link::Link, call: Call) -> T {
    let answer = window.forward(call).await.expect("the action's answer");
    serde_json::from_value(answer).expect("the action's reply")
}

const START: &str = "one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\n";
const END: &str = "one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX\r\nseven\r\n";

#[tokio::test]
async fn a_past_turn_is_listed_and_undone_where_it_still_applies() {
    let f = start().await;
    serve_control(&f).await;
    let (window, _events) = link::connect(&f.dirs).await.unwrap();
    for name in ["a.txt", "b.txt", "c.txt"] {
        std::fs::write(f.ws.join(name), START).unwrap();
    }
    let begun = control::call(&f.dirs, &claude("UserPromptSubmit", &f.ws)).await;
    assert!(begun.is_ok(), "{begun:?}");
    for name in ["a.txt", "b.txt", "c.txt"] {
        std::fs::write(f.ws.join(name), END).unwrap();
    }
    let dirs = f.dirs.clone();
    let stop = claude("Stop", &f.ws);
    let ending = tokio::spawn(async move { control::call(&dirs, &stop).await });
    eventually("the turn's review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    // The turn's review is answered Done: from here on it is a past turn.
    let id = f.instance.reviews().details().remove(0).id;
    let done = ReviewAccept {
        id,
        revision: None,
        content: None,
    };
    assert_eq!(window.forward(done.into()).await, Ok(Value::Null));
    let answer = tokio::time::timeout(WAIT, ending).await.unwrap().unwrap();
    let ruling: TurnRuling = serde_json::from_value(answer.unwrap()).unwrap();
    assert!(matches!(ruling, TurnRuling::Done), "{ruling:?}");

    let rows: Vec<HistoryTurn> = ask(&window, TurnsHistory {}.into()).await;
    let row = rows
        .iter()
        .find(|r| !r.running)
        .expect("the ended turn listed");
    assert_eq!((row.cli.as_str(), row.session.as_str()), ("claude", "s1"));
    assert_eq!((row.files, row.added, row.removed), (3, 6, 6));
    let (workspace, turn) = (row.workspace.clone(), row.turn);

    // The tray's Recent turns: the page, shown, takes the turn asked once.
    f.instance.request_open_turn(workspace.clone(), turn);
    let asked: Option<TurnAsked> = ask(&window, TurnAskedGet {}.into()).await;
    let expected = TurnAsked {
        workspace: workspace.clone(),
        turn,
    };
    assert_eq!(asked, Some(expected));
    let again: Option<TurnAsked> = ask(&window, TurnAskedGet {}.into()).await;
    assert_eq!(again, None);

    let listed: TurnFiles = ask(
        &window,
        PastTurnFiles {
            workspace: workspace.clone(),
            turn,
        }
        .into(),
    )
    .await;
    assert_eq!(listed.files.len(), 3);
    let b = PastTurnFile {
        workspace: workspace.clone(),
        turn,
        path: "b.txt".into(),
    };
    let opened: TurnFileView = ask(&window, b.into()).await;
    assert_eq!(opened.hunks.len(), 2);
    assert_eq!(opened.start.as_deref(), Some(START));

    // b.txt changes after the turn: its undo no longer applies.
    let since = "written after the turn\n";
    std::fs::write(f.ws.join("b.txt"), since).unwrap();
    let all = PastTurnUndo {
        workspace,
        turn,
        picks: Vec::new(),
    };
    let undone: TurnUndone = ask(&window, all.into()).await;
    let TurnUndone::Partly { mut files, left } = undone else {
        panic!("not partly undone: {undone:?}");
    };
    files.sort();
    assert_eq!(files, [Path::new("a.txt"), Path::new("c.txt")]);
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0].path, Path::new("b.txt"));
    assert!(left[0].why.contains("b.txt"), "{}", left[0].why);
    for name in ["a.txt", "c.txt"] {
        assert_eq!(std::fs::read(f.ws.join(name)).unwrap(), START.as_bytes());
    }
    assert_eq!(std::fs::read_to_string(f.ws.join("b.txt")).unwrap(), since);
}

/// A turn that changes nothing: begun and ended at once (no review to answer).
async fn empty_turn(f: &crate::common::Fixture) {
    for event in ["UserPromptSubmit", "Stop"] {
        let call = claude(event, &f.ws);
        let answered = tokio::time::timeout(WAIT, control::call(&f.dirs, &call)).await;
        assert!(answered.unwrap().is_ok(), "{event}");
    }
}

async fn kept(window: &link::Link) -> Vec<u64> {
    let rows: Vec<HistoryTurn> = ask(window, TurnsHistory {}.into()).await;
    rows.iter().filter(|r| !r.running).map(|r| r.turn).collect()
}

#[tokio::test]
async fn the_turns_kept_are_a_setting_applied_at_the_next_turns_end() {
    let f = start().await;
    serve_control(&f).await;
    let (window, _events) = link::connect(&f.dirs).await.unwrap();
    for _ in 0..3 {
        empty_turn(&f).await;
    }
    assert_eq!(kept(&window).await, [2, 1, 0]);
    let set = |turns, mib| SettingsSet {
        settings: Settings {
            history: HistoryBounds { turns, mib },
            ..Settings::default()
        },
    };

    // Out of range: refused with its range, nothing saved.
    for (turns, mib) in [(0, 1024), (HistoryBounds::MAX_TURNS + 1, 1024), (2, 0)] {
        let refused = window.forward(set(turns, mib).into()).await.unwrap_err();
        assert_eq!(refused.code, FaultCode::BadSetting, "{refused:?}");
        assert!(refused.message.contains("not saved"), "{}", refused.message);
    }
    let on_disk = Config::load(&f.dirs.config_file()).unwrap();
    assert_eq!(on_disk.settings.history, HistoryBounds::default());

    assert_eq!(window.forward(set(2, 1024).into()).await, Ok(Value::Null));
    let on_disk = Config::load(&f.dirs.config_file()).unwrap();
    assert_eq!(
        on_disk.settings.history,
        HistoryBounds {
            turns: 2,
            mib: 1024
        }
    );
    // Nothing pruned until a turn ends: then the newest two are kept.
    assert_eq!(kept(&window).await, [2, 1, 0]);
    empty_turn(&f).await;
    assert_eq!(kept(&window).await, [3, 2]);

    // A turn that changed something: its end is reviewed whole, and the bound is kept once the
    // review is open (off the way to the window), before it is answered.
    let begun = control::call(&f.dirs, &claude("UserPromptSubmit", &f.ws)).await;
    assert!(begun.is_ok(), "{begun:?}");
    std::fs::write(f.ws.join("a.txt"), START).unwrap();
    let dirs = f.dirs.clone();
    let stop = claude("Stop", &f.ws);
    let ending = tokio::spawn(async move { control::call(&dirs, &stop).await });
    eventually("the turn's review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    eventually("the newest two turns kept, the review open", || async {
        kept(&window).await == [4, 3]
    })
    .await;
    let id = f.instance.reviews().details().remove(0).id;
    let done = ReviewAccept {
        id,
        revision: None,
        content: None,
    };
    assert_eq!(window.forward(done.into()).await, Ok(Value::Null));
    let answer = tokio::time::timeout(WAIT, ending).await.unwrap().unwrap();
    assert!(answer.is_ok(), "{answer:?}");
}
