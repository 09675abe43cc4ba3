//! Rejecting with a reason, over the real control socket and the window's channel: the reason
//! reaches a waiting `redline propose` cleaned, one too long is refused with the review still
//! pending, and a sender that knows no reason still rejects.

use crate::common::{eventually, start, Fixture, WAIT};
use crate::editor::{serve_control, Duplex};
use redline_core::review::reason::MAX_REASON_CHARS;
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::instance::local::{LocalAnswer, Propose};
use redline_core::runtime::window::link;
use redline_core::surfaces::action::ReviewReject;
use redline_core::Error;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::task::JoinHandle;

/// A `redline propose --wait` of `a.txt` on its own connection, and its review's id once queued.
async fn propose_and_wait(f: &Fixture) -> (u64, JoinHandle<LocalAnswer>) {
    let dirs = f.dirs.clone();
    let req = Request::Propose(Propose {
        file: f.ws.join("a.txt"),
        content: "new\n".into(),
        wait: true,
    });
    let waiting = tokio::spawn(async move {
        let v = control::call(&dirs, &req)
            .await
            .expect("the propose answer");
        serde_json::from_value(v).expect("a local answer")
    });
    eventually("the proposal is queued", || async {
        !f.instance.reviews().list().is_empty()
    })
    .await;
    (f.instance.reviews().list()[0].id, waiting)
}

async fn answered(waiting: JoinHandle<LocalAnswer>) -> Value {
    let answer = tokio::time::timeout(WAIT, waiting)
        .await
        .expect("the waiting propose is answered in time")
        .expect("the waiting task ends well");
    let settled = answer.settled.expect("it waited");
    serde_json::to_value(&settled[0]).unwrap()
}

#[tokio::test]
async fn a_waiting_propose_hears_the_reason_cleaned_and_a_too_long_one_leaves_it_pending() {
    let f = start().await;
    serve_control(&f).await;
    let (id, waiting) = propose_and_wait(&f).await;

    let long = "x".repeat(MAX_REASON_CHARS + 1);
    let refused = control::call(
        &f.dirs,
        &ReviewReject {
            id,
            reason: Some(long),
            comments: None,
        }
        .into(),
    )
    .await;
    match refused {
        Err(Error::Refused(message)) => assert_eq!(
            message,
            "the reason is 2001 characters long; at most 2000 are passed on: shorten it"
        ),
        other => panic!("a too-long reason is refused, got {other:?}"),
    }
    assert_eq!(
        f.instance.reviews().list().len(),
        1,
        "the review is still pending"
    );
    assert!(!waiting.is_finished(), "the command still waits");

    let reason = "  use tabs,\r\nnot spaces\u{1b}[2J\u{7}  ";
    let done = control::call(
        &f.dirs,
        &ReviewReject {
            id,
            reason: Some(reason.into()),
            comments: None,
        }
        .into(),
    )
    .await;
    assert_eq!(done.unwrap(), Value::Null);
    let settled = answered(waiting).await;
    assert_eq!(settled["decision"], "rejected");
    assert_eq!(settled["reason"], "use tabs,\nnot spaces[2J");
}

/// A `redline` older than reasons sends `reviewReject` without one: still a plain rejection.
#[tokio::test]
async fn a_reject_request_without_a_reason_still_rejects() {
    let f = start().await;
    serve_control(&f).await;
    let (id, waiting) = propose_and_wait(&f).await;

    let stream: Box<dyn Duplex> = Box::new(control::connect(&f.dirs).await.unwrap());
    let mut s = BufReader::new(stream);
    let line = format!("{}\n", json!({"cmd": "reviewReject", "id": id}));
    s.get_mut().write_all(line.as_bytes()).await.unwrap();
    let mut reply = String::new();
    tokio::time::timeout(WAIT, s.read_line(&mut reply))
        .await
        .expect("a reply in time")
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&reply).unwrap(),
        json!({"ok": null})
    );

    let settled = answered(waiting).await;
    assert_eq!(settled["decision"], "rejected");
    assert_eq!(settled.get("reason"), None, "{settled}");
}

#[tokio::test]
async fn the_windows_reject_with_a_reason_reaches_the_waiting_propose_and_a_blank_one_is_none() {
    let f = start().await;
    serve_control(&f).await;
    let (window, _events) = link::connect(&f.dirs).await.unwrap();

    let (id, waiting) = propose_and_wait(&f).await;
    let answer = window
        .forward(
            ReviewReject {
                id,
                reason: Some("keep the old name".into()),
                comments: None,
            }
            .into(),
        )
        .await;
    assert_eq!(answer, Ok(Value::Null));
    assert_eq!(answered(waiting).await["reason"], "keep the old name");

    let (id, waiting) = propose_and_wait(&f).await;
    let answer = window
        .forward(
            ReviewReject {
                id,
                reason: Some(" \n\t".into()),
                comments: None,
            }
            .into(),
        )
        .await;
    assert_eq!(answer, Ok(Value::Null));
    let settled = answered(waiting).await;
    assert_eq!(settled["decision"], "rejected");
    assert_eq!(settled.get("reason"), None, "{settled}");
}

/// An editor's `reject` of a file: the reason reaches the waiting `redline propose` cleaned; a
/// reason too long, a file with no pending review, one outside every workspace or a relative
/// path each get an error the plugin shows, and reject nothing.
#[tokio::test]
async fn an_editors_reject_of_a_file_carries_its_reason_and_says_why_it_cannot() {
    use crate::editor::{editor, line, send};
    let f = start().await;
    serve_control(&f).await;
    let mut ed = editor(&f).await;
    let (_, waiting) = propose_and_wait(&f).await;
    let file = f.ws.join("a.txt");

    let long = "x".repeat(MAX_REASON_CHARS + 1);
    send(
        &mut ed,
        &json!({"type": "reject", "id": 1, "path": file, "reason": long}),
    )
    .await;
    let err = line(&mut ed).await;
    assert_eq!(
        (&err["type"], &err["id"], &err["code"]),
        (&json!("error"), &json!(1), &json!("reason_too_long")),
        "{err}"
    );
    assert_eq!(
        f.instance.reviews().list().len(),
        1,
        "the review is still pending"
    );

    std::fs::write(f.ws.join("b.txt"), "b\n").unwrap();
    send(
        &mut ed,
        &json!({"type": "reject", "id": 2, "path": f.ws.join("b.txt")}),
    )
    .await;
    let err = line(&mut ed).await;
    assert_eq!(
        (&err["id"], &err["code"]),
        (&json!(2), &json!("no_review")),
        "{err}"
    );
    assert!(err["message"].as_str().unwrap().contains("b.txt"), "{err}");

    let outside = f.ws.with_file_name("outside.txt");
    send(
        &mut ed,
        &json!({"type": "reject", "id": 3, "path": outside}),
    )
    .await;
    assert_eq!(line(&mut ed).await["code"], "not_in_workspace");
    send(
        &mut ed,
        &json!({"type": "reject", "id": 4, "path": "a.txt"}),
    )
    .await;
    assert_eq!(line(&mut ed).await["code"], "relative_path");
    assert_eq!(f.instance.reviews().list().len(), 1, "nothing was rejected");

    send(
        &mut ed,
        &json!({"type": "reject", "id": 5, "path": file, "reason": " too risky\u{1b}[2J\r\n"}),
    )
    .await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 5}));
    let settled = answered(waiting).await;
    assert_eq!(settled["decision"], "rejected");
    assert_eq!(settled["reason"], "too risky[2J");
    assert!(f.instance.reviews().list().is_empty());

    // Without a reason: a plain rejection.
    let (_, waiting) = propose_and_wait(&f).await;
    send(&mut ed, &json!({"type": "reject", "id": 6, "path": file})).await;
    assert_eq!(line(&mut ed).await, json!({"type": "ok", "id": 6}));
    let settled = answered(waiting).await;
    assert_eq!(settled["decision"], "rejected");
    assert_eq!(settled.get("reason"), None, "{settled}");
}

/// A reason for a CLI whose protocol carries none (Gemini CLI's `openDiff`): the review is
/// rejected all the same, and the editor hears that its reason was not sent.
#[tokio::test]
async fn an_editors_reason_for_a_cli_that_hears_none_is_said_not_sent() {
    use crate::editor::{editor, line, send};
    let f = start().await;
    serve_control(&f).await;
    let mut ed = editor(&f).await;
    let mut gemini = f.session().await;
    let mut sse = gemini.stream().await;
    f.propose(&mut gemini, "a.txt", "new\n").await;

    send(
        &mut ed,
        &json!({"type": "reject", "id": 1, "path": f.ws.join("a.txt"), "reason": "no"}),
    )
    .await;
    assert_eq!(
        line(&mut ed).await,
        json!({"type": "ok", "id": 1, "reasonSent": false})
    );
    let decided = tokio::time::timeout(WAIT, sse.next_decision())
        .await
        .expect("the CLI hears of it in time")
        .expect("a decision");
    assert_eq!(decided["method"], "ide/diffRejected", "{decided}");
    assert!(f.instance.reviews().list().is_empty());
}
