//! A Continue on Gemini CLI's turn over the real control socket: Gemini runs its prompt hook
//! (`BeforeAgent`) again with the Continue's instructions as the prompt before the model goes on.
//! That is the turn the Continue began going on, not a new one: `turns list` holds the reviewed
//! turn and the one after it, no empty turn between them.

use crate::common::{eventually, start, Fixture, WAIT};
use crate::editor::serve_control;
use redline_core::api::turns::{TurnState, TurnSummary};
use redline_core::protocols::hook::turn::{TurnBegun, TurnRuling};
use redline_core::protocols::hook::{HookCall, HookCli};
use redline_core::runtime::control::{self, Request};
use redline_core::surfaces::action::{ReviewReject, TurnsList};
use serde_json::{json, Value};

fn gemini(input: Value) -> HookCall {
    HookCall {
        cli: HookCli::of("gemini").unwrap(),
        input,
        record_turn: false,
    }
}

/// Gemini's `BeforeAgent` with `prompt`: the turn it recorded.
async fn before_agent(f: &Fixture, prompt: &str) -> TurnBegun {
    let input = json!({ "session_id": "g1", "transcript_path": "/dev/null", "cwd": f.ws,
        "hook_event_name": "BeforeAgent", "timestamp": "t", "prompt": prompt });
    let answer = control::call(&f.dirs, &Request::TurnStart(gemini(input))).await;
    serde_json::from_value(answer.expect("the prompt hook's answer")).expect("a turn begun")
}

/// Gemini's `AfterAgent` (`again`: its `stop_hook_active`), answered in the background.
fn after_agent(f: &Fixture, again: bool) -> tokio::task::JoinHandle<TurnRuling> {
    let dirs = f.dirs.clone();
    let input = json!({ "session_id": "g1", "transcript_path": "/dev/null", "cwd": f.ws,
        "hook_event_name": "AfterAgent", "timestamp": "t", "prompt": "go",
        "prompt_response": "done", "stop_hook_active": again });
    let req = Request::TurnReview(gemini(input));
    tokio::spawn(async move {
        let v = control::call(&dirs, &req).await.expect("the turn's answer");
        serde_json::from_value(v).expect("a turn ruling")
    })
}

#[tokio::test]
async fn geminis_prompt_hook_for_a_continue_goes_on_with_the_turn_the_continue_began() {
    let f = start().await;
    serve_control(&f).await;
    std::fs::write(f.ws.join("a.txt"), "one\n").unwrap();
    assert_eq!(before_agent(&f, "go").await, TurnBegun::Recorded { id: 0 });
    std::fs::write(f.ws.join("a.txt"), "two\n").unwrap();
    let ending = after_agent(&f, false);
    eventually("the turn's review", || async {
        f.instance.reviews().list().len() == 1
    })
    .await;
    let id = f.instance.reviews().details().remove(0).id;
    let reject = ReviewReject {
        id,
        reason: Some("REDLINE-AGAIN".into()),
        comments: None,
    };
    let rejected = control::call(&f.dirs, &Request::Action(reject.into())).await;
    assert!(rejected.is_ok(), "{rejected:?}");
    let ruling = tokio::time::timeout(WAIT, ending).await.unwrap().unwrap();
    let TurnRuling::Continue { instructions } = ruling else {
        panic!("not a Continue: {ruling:?}");
    };
    // Gemini sends the instructions to the model as its next prompt, its prompt hook first.
    assert_eq!(
        before_agent(&f, &instructions).await,
        TurnBegun::Recorded { id: 1 }
    );
    let ruling = tokio::time::timeout(WAIT, after_agent(&f, true)).await;
    assert_eq!(ruling.unwrap().unwrap(), TurnRuling::Done);
    // The user's next prompt, even with the same words, is a new turn.
    assert_eq!(
        before_agent(&f, &instructions).await,
        TurnBegun::Recorded { id: 2 }
    );

    let list = TurnsList { dir: f.ws.clone() };
    let turns = control::call(&f.dirs, &Request::Action(list.into())).await;
    let turns: Vec<TurnSummary> = serde_json::from_value(turns.unwrap()).unwrap();
    let listed: Vec<(u64, TurnState)> = turns.iter().map(|t| (t.id, t.state)).collect();
    assert_eq!(
        listed,
        [
            (2, TurnState::Running),
            (1, TurnState::Ended),
            (0, TurnState::Ended)
        ]
    );
    assert_eq!(turns[2].files.len(), 1, "{turns:?}");
}
