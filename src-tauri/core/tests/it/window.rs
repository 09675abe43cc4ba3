//! The review window's channel and process, over the real control socket: what a window sees
//! and sends, and how the launcher starts, restarts and gives up on a window process.

use crate::common::{eventually, start, WAIT};
use crate::editor::serve_control;
use redline_core::runtime::window::link::{self, Event};
use redline_core::runtime::window::message::{Call, Down, Up};
use redline_core::surfaces::action::{ReviewAccept, ReviewReject, ReviewsList};
use serde_json::{json, Value};
use tokio::sync::mpsc::Receiver;
#[cfg(unix)]
use {
    crate::common::Fixture,
    redline_core::platform::dirs::Dirs,
    redline_core::runtime::window::launcher::{self, WindowProgram},
    redline_core::runtime::window::link::Link,
    std::ffi::OsString,
    std::path::Path,
};

async fn next(events: &mut Receiver<Event>) -> Event {
    tokio::time::timeout(WAIT, events.recv())
        .await
        .expect("an event in time")
        .expect("the channel is open")
}

#[tokio::test]
async fn a_window_shows_a_proposal_and_its_edited_accept_reaches_the_cli_byte_for_byte() {
    let f = start().await;
    serve_control(&f).await;
    let (window, mut events) = link::connect(&f.dirs).await.unwrap();
    let mut cli = f.session().await;
    let mut stream = cli.stream().await;
    let proposal = "\u{feff}one\r\ntwo\r\n";
    let id = f.propose(&mut cli, "a.txt", proposal).await;

    let Down::Added { review } = next(&mut events).await else {
        panic!("the proposal comes first")
    };
    assert_eq!(review["id"], id);
    assert_eq!(review["proposal"], proposal);
    let listed = window.forward(ReviewsList {}.into()).await.unwrap();
    assert_eq!(listed[0]["id"], id, "{listed}");

    let edited = "\u{feff}one\r\nedited\r\n";
    let revision = review["revision"].as_u64().unwrap();
    let answer = window
        .forward(
            ReviewAccept {
                id,
                revision: Some(revision),
                content: Some(edited.into()),
            }
            .into(),
        )
        .await;
    assert_eq!(answer, Ok(Value::Null));
    let told = stream.next_decision().await.unwrap();
    assert_eq!(told["method"], "ide/diffAccepted");
    assert_eq!(told["params"]["content"], edited);
    assert_eq!(
        next(&mut events).await,
        Down::Resolved {
            resolved: json!({"id": id, "outcome": "accepted"})
        }
    );

    // A call that fails is answered with the fault the page shows, and the channel serves on.
    let again = window
        .forward(
            ReviewReject {
                id,
                reason: None,
                comments: None,
            }
            .into(),
        )
        .await
        .unwrap_err();
    assert_eq!(
        again.code,
        redline_core::FaultCode::NoSuchReview,
        "{}",
        again.message
    );
    assert_eq!(window.forward(ReviewsList {}.into()).await, Ok(json!([])));
}

/// A review and its pop-up come ready together (the launcher's show follows the review's
/// event): the window gets the review first, so it never maps to paint the page without it.
/// On this test's one thread neither is sent until both wait; without the channel's order the
/// pick between them was random.
#[tokio::test]
async fn a_review_goes_to_the_window_before_the_show_that_pops_it_up() {
    use redline_core::review::{ClientInfo, Origin, Proposal};
    let f = start().await;
    serve_control(&f).await;
    let (_window, mut events) = link::connect(&f.dirs).await.unwrap();
    let mut presence = f.instance.windows().presence();
    tokio::time::timeout(WAIT, presence.wait_for(|p| p.attached == 1))
        .await
        .expect("the window attaches in time")
        .unwrap();

    for round in 0..8 {
        // The show asked first, the review opened after, with no await in between.
        assert!(f.instance.windows().show(false));
        let id = f.instance.reviews().queue().open(
            Proposal {
                workspace: f.ws.clone(),
                origin: Origin::Cli {
                    session: format!("s{round}"),
                },
                client: ClientInfo::default(),
                file_path: f.ws.join("a.txt").display().to_string(),
                path: f.ws.join("a.txt"),
                original: Some("a\n".into()),
                proposal: format!("{round}\n"),
                container: false,
                read_only: None,
                can_mention: false,
                reason_heard: false,
                on_disk: None,
            },
            Box::new(|_, _| {}),
        );
        let Down::Added { review } = next(&mut events).await else {
            panic!("round {round}: the show came before the review it pops up")
        };
        assert_eq!(review["id"], id);
        assert_eq!(next(&mut events).await, Down::Show { focus: false });
    }
}

#[tokio::test]
async fn a_workspace_added_or_switched_elsewhere_is_told_to_the_window() {
    let f = start().await;
    serve_control(&f).await;
    let (window, mut events) = link::connect(&f.dirs).await.unwrap();
    // One call answered: the channel is served, and follows the workspaces from here.
    window.forward(ReviewsList {}.into()).await.unwrap();
    // As `redline workspace add` in a terminal does, while the welcome page is up.
    let other = f.tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    f.instance.workspaces().add(&other, false).await.unwrap();
    assert_eq!(next(&mut events).await, Down::WorkspacesChanged);
    f.instance
        .workspaces()
        .set_enabled(&other, false)
        .await
        .unwrap();
    assert_eq!(next(&mut events).await, Down::WorkspacesChanged);
}

#[tokio::test]
async fn a_show_asked_with_no_window_goes_to_the_next_one_and_windows_are_counted() {
    let f = start().await;
    serve_control(&f).await;
    let hub = f.instance.windows();
    assert!(!hub.show(true), "no window is attached yet");
    let (window, mut events) = link::connect(&f.dirs).await.unwrap();
    assert_eq!(next(&mut events).await, Down::Show { focus: true });
    window.note(Up::Ready).await;
    window.note(Up::Visible { visible: true }).await;
    let mut presence = hub.presence();
    eventually("the window is counted, loaded and shown", || {
        let p = *presence.borrow_and_update();
        async move { p.attached == 1 && p.ready && p.visible }
    })
    .await;
    assert!(hub.show(false));
    assert_eq!(next(&mut events).await, Down::Show { focus: false });

    drop(window);
    eventually("a window that leaves is not counted", || {
        let p = *presence.borrow_and_update();
        async move { p.attached == 0 }
    })
    .await;
}

#[tokio::test]
async fn a_line_past_the_bound_is_dropped_and_the_channel_serves_on() {
    use redline_core::runtime::window::message::MAX_UP_LINE;
    use tokio::io::AsyncWriteExt;
    let f = start().await;
    serve_control(&f).await;
    let mut raw = redline_core::runtime::control::connect(&f.dirs)
        .await
        .unwrap();
    raw.write_all(b"{\"cmd\":\"window\"}\n").await.unwrap();
    let huge = vec![b'x'; MAX_UP_LINE as usize + 16];
    raw.write_all(&huge).await.unwrap();
    raw.write_all(b"\n").await.unwrap();
    let call = serde_json::to_vec(&Up::Call {
        id: 9,
        call: Call::ReviewsList(ReviewsList {}),
    })
    .unwrap();
    raw.write_all(&call).await.unwrap();
    raw.write_all(b"\n").await.unwrap();
    let mut lines = tokio::io::BufReader::new(raw);
    let mut line = String::new();
    use tokio::io::AsyncBufReadExt;
    tokio::time::timeout(WAIT, lines.read_line(&mut line))
        .await
        .unwrap()
        .unwrap();
    let reply: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        reply,
        json!({"kind": "reply", "id": 9, "answer": {"ok": []}})
    );
}

// The launcher's tests start real processes by Unix means (kill(2), /bin/sh): Unix only.

/// The window process as the launcher starts it, played by this test binary (see `stand_in`).
#[cfg(unix)]
fn played_by_this_test(f: &Fixture, log: &Path) -> WindowProgram {
    WindowProgram {
        program: std::env::current_exe().unwrap(),
        args: ["window::stand_in", "--exact", "--ignored", "--nocapture"]
            .map(OsString::from)
            .to_vec(),
        envs: vec![
            (
                "REDLINE_STAND_IN_ROOT".into(),
                f.dirs.config.parent().unwrap().into(),
            ),
            ("REDLINE_STAND_IN_LOG".into(), log.into()),
        ],
    }
}

#[cfg(unix)]
fn lines(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A window process: attaches, says it loaded, and on each show logs `PID shown`. A window that
/// is not the first accepts the pending review with its own text, as a user would in it. With
/// `REDLINE_STAND_IN_RELEASE` the first one ends with status 0 at its first show instead, as a
/// window whose idle spell ran out just as a review came.
#[cfg(unix)]
#[tokio::test]
#[ignore = "run by the launcher tests as a window process"]
async fn stand_in() {
    let (Some(root), Some(log)) = (
        std::env::var_os("REDLINE_STAND_IN_ROOT"),
        std::env::var_os("REDLINE_STAND_IN_LOG"),
    ) else {
        return;
    };
    let dirs = Dirs::under(Path::new(&root));
    let (window, mut events): (Link, _) = link::connect(&dirs).await.unwrap();
    let earlier = lines(Path::new(&log)).len();
    window.note(Up::Ready).await;
    while let Some(event) = events.recv().await {
        match event {
            Down::Show { .. } => {
                if earlier == 0 && std::env::var_os("REDLINE_STAND_IN_RELEASE").is_some() {
                    std::fs::write(&log, format!("{} released\n", std::process::id())).unwrap();
                    std::process::exit(0);
                }
                window.note(Up::Visible { visible: true }).await;
                let mut out = std::fs::OpenOptions::new()
                    .append(true)
                    .create(true)
                    .open(&log)
                    .unwrap();
                use std::io::Write;
                writeln!(out, "{} shown", std::process::id()).unwrap();
                if earlier > 0 {
                    let listed = window.forward(ReviewsList {}.into()).await.unwrap();
                    let review = &listed[0];
                    let call = ReviewAccept {
                        id: review["id"].as_u64().unwrap(),
                        revision: review["revision"].as_u64(),
                        content: Some("from the new window\n".into()),
                    };
                    window.forward(call.into()).await.unwrap();
                }
            }
            Down::Quit => return,
            _ => {}
        }
    }
}

#[cfg(unix)]
#[tokio::test]
async fn a_killed_window_comes_back_with_the_pending_review_and_its_accept_reaches_the_cli() {
    let f = start().await;
    serve_control(&f).await;
    let log = f.dirs.config.parent().unwrap().join("windows.log");
    tokio::spawn(launcher::run(
        f.instance.clone(),
        played_by_this_test(&f, &log),
    ));
    let mut cli = f.session().await;
    let mut stream = cli.stream().await;
    f.propose(&mut cli, "a.txt", "proposed\n").await;
    eventually("the window shows the review", || {
        let n = lines(&log).len();
        async move { n == 1 }
    })
    .await;
    let first: i32 = lines(&log)[0].split(' ').next().unwrap().parse().unwrap();
    // SAFETY: kill(2) on the window process this test's launcher started.
    assert_eq!(unsafe { libc::kill(first, libc::SIGKILL) }, 0);

    let told = stream.next_decision().await.unwrap();
    assert_eq!(told["method"], "ide/diffAccepted", "{told}");
    assert_eq!(told["params"]["content"], "from the new window\n");
    let shown = lines(&log);
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert_ne!(shown[1], shown[0], "a new window process");
    assert_eq!(*f.instance.windows().problem().borrow(), None);
}

/// The window's idle spell ran out as a review came: it ended with status 0 (a release, not a
/// crash) with the review's show sent to it. A new window shows the review, and its accept
/// reaches the CLI; before, the review waited with no window until the next one.
#[cfg(unix)]
#[tokio::test]
async fn a_window_released_as_a_review_came_is_brought_back_for_it() {
    let f = start().await;
    serve_control(&f).await;
    let log = f.dirs.config.parent().unwrap().join("windows.log");
    let mut launch = played_by_this_test(&f, &log);
    launch
        .envs
        .push(("REDLINE_STAND_IN_RELEASE".into(), "1".into()));
    tokio::spawn(launcher::run(f.instance.clone(), launch));
    let mut cli = f.session().await;
    let mut stream = cli.stream().await;
    f.propose(&mut cli, "a.txt", "proposed\n").await;

    let told = tokio::time::timeout(WAIT, stream.next_decision())
        .await
        .expect("a new window shows the review and answers it")
        .unwrap();
    assert_eq!(told["method"], "ide/diffAccepted", "{told}");
    assert_eq!(told["params"]["content"], "from the new window\n");
    let windows = lines(&log);
    assert!(windows[0].ends_with(" released"), "{windows:?}");
    assert_eq!(windows.len(), 2, "{windows:?}");
    assert_eq!(*f.instance.windows().problem().borrow(), None);
}

#[cfg(unix)]
#[tokio::test]
async fn a_window_that_cannot_start_is_said_once_with_why_and_the_servers_stay_up() {
    let f = start().await;
    serve_control(&f).await;
    let tries = f.dirs.config.parent().unwrap().join("tries");
    let script = format!(
        "echo try >> '{}'; echo 'Could not create default EGL display: EGL_BAD_PARAMETER. \
         Aborting...' >&2; kill -ABRT $$",
        tries.display()
    );
    let launch = WindowProgram {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into()],
        envs: vec![],
    };
    tokio::spawn(launcher::run(f.instance.clone(), launch));
    let mut problem = f.instance.windows().problem();
    assert!(f.instance.request_show());
    tokio::time::timeout(WAIT, problem.wait_for(Option::is_some))
        .await
        .unwrap()
        .unwrap();
    let said = problem.borrow_and_update().clone().unwrap();
    assert!(said.contains("EGL_BAD_PARAMETER"), "{said}");
    assert!(said.contains("redline review list"), "{said}");
    // `redline status` says it too.
    assert_eq!(f.instance.status().await.window_problem, Some(said));

    // The servers stay up: a CLI's proposal is queued and answered without a window.
    let mut cli = f.session().await;
    let mut stream = cli.stream().await;
    let id = f.propose(&mut cli, "a.txt", "x\n").await;
    f.instance
        .reviews()
        .decide(id, redline_core::runtime::companion::Decision::reject())
        .await
        .unwrap();
    assert_eq!(
        stream.next_decision().await.unwrap()["method"],
        "ide/diffRejected"
    );
    // The proposal was a pop-up: the window was tried again, and failed the same way, which is
    // not said twice.
    eventually("the pop-up tried the window again", || {
        let n = lines(&tries).len();
        async move { n >= 2 }
    })
    .await;
    assert!(
        !problem.has_changed().unwrap(),
        "the same problem is said once"
    );
}
