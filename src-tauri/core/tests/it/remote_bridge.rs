//! A remote instance's end of a bridge over the real control socket: its hello and snapshot,
//! the queue's events, a desktop's decision applied once however often it is sent, the calls a
//! desktop may and may not make, and the heartbeat that lets a silent link go.

use crate::common::{start_with, Fixture, WAIT};
use crate::editor::{serve_control, Duplex, Stream};
use redline_core::net::limits::{Beat, Limits};
use redline_core::runtime::control;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A fixture whose bridges beat fast: a ping after 150 ms idle, let go after 600 ms silent.
async fn fixture() -> Fixture {
    let f = start_with(Limits {
        beat: Beat {
            idle: Duration::from_millis(150),
            dead: Duration::from_millis(600),
        },
        ..Limits::default()
    })
    .await;
    serve_control(&f).await;
    f
}

/// A link to the fixture's bridge, past the remote's hello (returned).
async fn link(f: &Fixture) -> (Stream, Value) {
    let stream: Box<dyn Duplex> = Box::new(control::connect(&f.dirs).await.unwrap());
    let mut s = BufReader::new(stream);
    send(&mut s, &json!({"cmd": "bridge"})).await;
    let hello = next(&mut s).await.expect("the remote's hello");
    (s, hello)
}

async fn send(s: &mut Stream, v: &Value) {
    let mut line = serde_json::to_vec(v).unwrap();
    line.push(b'\n');
    s.get_mut().write_all(&line).await.unwrap();
}

/// The next line that is no ping; `None` once the remote closed the link.
async fn next(s: &mut Stream) -> Option<Value> {
    loop {
        let mut l = String::new();
        let n = tokio::time::timeout(WAIT, s.read_line(&mut l))
            .await
            .expect("a line in time")
            .unwrap();
        if n == 0 {
            return None;
        }
        let v: Value = serde_json::from_str(&l).unwrap();
        if v["kind"] != "ping" {
            return Some(v);
        }
    }
}

/// The lines until one of each of `kinds` came (in any order), by kind.
async fn until(s: &mut Stream, kinds: &[&str]) -> Vec<Value> {
    let mut got: Vec<Value> = Vec::new();
    while kinds.iter().any(|k| !got.iter().any(|v| v["kind"] == *k)) {
        got.push(next(s).await.expect("the link is open"));
    }
    kinds
        .iter()
        .map(|k| got.iter().find(|v| v["kind"] == *k).cloned().unwrap())
        .collect()
}

fn hello() -> Value {
    json!({"kind": "hello", "protocol": 1, "redline": "test", "instance": "desk", "os": "linux", "arch": "x86_64"})
}

fn accept(decision: &str, run: &Value, id: u64, content: &str) -> Value {
    json!({"kind": "decide", "decision": decision, "instance": run,
           "call": {"cmd": "reviewAccept", "id": id, "content": content}})
}

#[tokio::test]
async fn a_desktop_sees_the_reviews_and_its_decision_is_applied_once_across_links() {
    let f = fixture().await;
    let mut cli = f.session().await;
    let mut told = cli.stream().await;
    let first = f.propose(&mut cli, "a.txt", "one\r\n").await;

    let (mut s, remote) = link(&f).await;
    assert_eq!(remote["kind"], "hello");
    assert_eq!(remote["protocol"], 1);
    let run = remote["instance"].clone();
    assert!(run.as_str().is_some_and(|r| !r.is_empty()), "{remote}");
    send(&mut s, &hello()).await;
    let snapshot = next(&mut s).await.unwrap();
    assert_eq!(snapshot["kind"], "snapshot", "{snapshot}");
    assert_eq!(snapshot["reviews"][0]["id"], first, "{snapshot}");
    let second = f.propose(&mut cli, "b.txt", "two\n").await;
    let added = next(&mut s).await.unwrap();
    assert_eq!(
        (&added["kind"], &added["review"]["id"]),
        (&json!("added"), &json!(second))
    );

    // Accepted with the desktop's edit: the CLI writes exactly it.
    send(&mut s, &accept("desk:1", &run, first, "edited\r\n")).await;
    let [decided, resolved] = until(&mut s, &["decided", "resolved"])
        .await
        .try_into()
        .unwrap();
    assert_eq!(
        decided,
        json!({"kind": "decided", "decision": "desk:1", "result": "applied"})
    );
    assert_eq!(
        resolved["resolved"],
        json!({"id": first, "outcome": "accepted"})
    );
    let decision = told.next_decision().await.unwrap();
    assert_eq!(decision["params"]["content"], "edited\r\n", "{decision}");

    // The link drops before the desktop heard; on the next one it sends the decision again.
    drop(s);
    let (mut s, again) = link(&f).await;
    assert_eq!(again["instance"], run, "the same run");
    send(&mut s, &hello()).await;
    let snapshot = next(&mut s).await.unwrap();
    let ids: Vec<&Value> = snapshot["reviews"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert_eq!(ids, [&json!(second)]);
    send(&mut s, &accept("desk:1", &run, first, "edited again\r\n")).await;
    let decided = next(&mut s).await.unwrap();
    assert_eq!(decided["result"], "appliedBefore", "{decided}");

    // Made against another run of the remote (it restarted): never applied.
    send(
        &mut s,
        &accept("desk:2", &json!("an earlier run"), second, "x"),
    )
    .await;
    let decided = next(&mut s).await.unwrap();
    assert_eq!(decided["result"], "gone", "{decided}");
    assert!(
        decided["why"].as_str().unwrap().contains("restarted"),
        "{decided}"
    );
    assert_eq!(
        f.instance.reviews().list().len(),
        1,
        "the review still waits"
    );

    // A decision for a review that ended otherwise says so.
    send(&mut s, &accept("desk:3", &run, 999, "x")).await;
    let decided = next(&mut s).await.unwrap();
    assert_eq!(decided["result"], "gone", "{decided}");
}

#[tokio::test]
async fn a_desktop_asks_only_what_a_bridge_carries_and_is_answered_by_id() {
    let f = fixture().await;
    let (mut s, run) = link(&f).await;
    send(&mut s, &hello()).await;
    assert_eq!(next(&mut s).await.unwrap()["kind"], "snapshot");

    send(
        &mut s,
        &json!({"kind": "call", "id": 7, "call": {"cmd": "workspaceList"}}),
    )
    .await;
    let reply = next(&mut s).await.unwrap();
    assert_eq!(
        (&reply["kind"], &reply["id"]),
        (&json!("reply"), &json!(7)),
        "{reply}"
    );
    assert!(reply["answer"]["ok"].is_array(), "{reply}");

    // A setting, the remote's editor, the instance itself: not a desktop's to ask.
    for call in [
        json!({"cmd": "settingsGet"}),
        json!({"cmd": "reviewOpenInEditor", "id": 1, "line": 1}),
        json!({"cmd": "quit"}),
    ] {
        send(&mut s, &json!({"kind": "call", "id": 8, "call": call})).await;
        let reply = next(&mut s).await.unwrap();
        assert_eq!(reply["answer"]["error"]["code"], "usage", "{call}: {reply}");
    }
    // Nor is a call that is no decision made one.
    let not = json!({"kind": "decide", "decision": "d", "instance": run["instance"], "call": {"cmd": "quit"}});
    send(&mut s, &not).await;
    let decided = next(&mut s).await.unwrap();
    assert_eq!(decided["result"], "gone", "{decided}");
    let quit = tokio::time::timeout(Duration::ZERO, f.instance.quit_requested()).await;
    assert!(quit.is_err(), "the instance serves on");

    // A line that is no message is dropped, the link serves on, and a ping is answered.
    s.get_mut().write_all(b"not json\n").await.unwrap();
    send(&mut s, &json!({"kind": "ping"})).await;
    assert_eq!(next(&mut s).await.unwrap()["kind"], "pong");
}

#[tokio::test]
async fn a_silent_link_is_let_go_and_an_idle_one_is_pinged() {
    let f = fixture().await;
    let (mut s, _) = link(&f).await;
    send(&mut s, &hello()).await;
    assert_eq!(next(&mut s).await.unwrap()["kind"], "snapshot");
    // Nothing sent: the remote pings after its idle spell, then lets the link go once nothing
    // has been heard for its dead spell.
    let mut l = String::new();
    tokio::time::timeout(WAIT, s.read_line(&mut l))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&l).unwrap()["kind"], "ping");
    assert_eq!(next(&mut s).await, None, "the silent link is closed");

    // One that answers its pings stays: three dead spells later it still answers a call.
    let (mut s, _) = link(&f).await;
    send(&mut s, &hello()).await;
    let started = tokio::time::Instant::now();
    while started.elapsed() < Duration::from_millis(1800) {
        let mut l = String::new();
        tokio::time::timeout(WAIT, s.read_line(&mut l))
            .await
            .unwrap()
            .unwrap();
        assert!(!l.is_empty(), "the link closed while answered");
        if serde_json::from_str::<Value>(&l).unwrap()["kind"] == "ping" {
            send(&mut s, &json!({"kind": "pong"})).await;
        }
    }
    send(&mut s, &json!({"kind": "ping"})).await;
    assert_eq!(next(&mut s).await.unwrap()["kind"], "pong");
}

#[tokio::test]
async fn another_protocol_or_no_hello_is_told_why_and_let_go() {
    let f = fixture().await;
    let (mut s, _) = link(&f).await;
    let mut newer = hello();
    newer["protocol"] = json!(2);
    send(&mut s, &newer).await;
    let bye = next(&mut s).await.unwrap();
    assert_eq!(bye["kind"], "bye");
    assert!(bye["why"].as_str().unwrap().contains("protocol 2"), "{bye}");
    assert_eq!(next(&mut s).await, None);

    let (mut s, _) = link(&f).await;
    let bye = next(&mut s).await.unwrap();
    assert!(bye["why"].as_str().unwrap().contains("no hello"), "{bye}");
}
