//! `redline hook CLI`: a CLI's pre-edit hook, carried to the running instance and its ruling
//! put in the CLI's words; with no Redline to ask, the CLI's own approval runs. Anything else
//! that leaves the edit undecided (the channel dropping, an answer it cannot read, input that is
//! not JSON) is a no: an edit goes through only on the user's accept.

use crate::args::HookArgs;
use crate::output::{errln, out, Printer};
use redline_core::platform::dirs::Dirs;
use redline_core::protocols::hook::turn::{self, TurnBegun, TurnRuling};
use redline_core::protocols::hook::{self, HookCall, HookRuling};
use redline_core::runtime::control::{self, Request, MAX_REQUEST_BYTES};
use redline_core::{ControlFailure, Error};
use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;

pub async fn run(dirs: &Dirs, p: &mut Printer<'_>, a: HookArgs) -> ExitCode {
    if a.turn_review {
        return turn_review(dirs, p, &a).await;
    }
    if a.turn_start {
        return turn_start(dirs, p, &a).await;
    }
    if a.record_only {
        return record_only(dirs, p, &a).await;
    }
    let (input, ruling) = match input() {
        Ok(input) => (input.clone(), ask(dirs, p, &a, input).await),
        Err(why) => (serde_json::Value::Null, refused(p, &why)),
    };
    let answer = hook::answer(a.cli, &input, &ruling);
    if let Some(line) = &answer.stderr {
        errln!(p, "{line}");
    }
    out!(p, "{}", answer.stdout);
    ExitCode::from(answer.exit)
}

/// The hook's JSON on standard input, bounded as any request to the instance is.
fn input() -> Result<serde_json::Value, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_REQUEST_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the hook's input: {e}"))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("the hook's input is not JSON: {e}"))
}

async fn ask(
    dirs: &Dirs,
    p: &mut Printer<'_>,
    a: &HookArgs,
    input: serde_json::Value,
) -> HookRuling {
    let req = Request::Hook(HookCall {
        cli: a.cli,
        input,
        record_turn: a.record_turn,
    });
    let call = control::call(dirs, &req);
    // The CLI killed outright leaves its hook running (Codex starts it in a session of its own):
    // the hook ends with it, and the dropped connection withdraws the review.
    let asked = async {
        tokio::select! {
            answered = call => answered,
            () = orphaned() => Err(Error::Control(ControlFailure::HookOrphaned)),
        }
    };
    let answered = match a.deny_after {
        Some(secs) => match tokio::time::timeout(Duration::from_secs(secs), asked).await {
            Ok(answered) => answered,
            // Dropping the connection withdraws the review.
            Err(_) => {
                return HookRuling::Deny {
                    reason: format!(
                        "Nobody decided on this edit in Redline within {}: it was not made. \
                         Ask the user before trying it again.",
                        spell(secs)
                    ),
                }
            }
        },
        None => asked.await,
    };
    ruling_of(p, a.cli, answered)
}

/// The ruling from what the instance answered. Only "no Redline to ask" passes (and "no
/// workspace", which the instance itself answers as a pass); every other failure denies, and the
/// terminal is told why either way.
fn ruling_of(
    p: &mut Printer,
    cli: hook::HookCli,
    answered: Result<serde_json::Value, Error>,
) -> HookRuling {
    match answered {
        Ok(v) => serde_json::from_value(v).unwrap_or_else(|e| {
            refused(
                p,
                &format!("Redline answered something this hook cannot read ({e})"),
            )
        }),
        Err(Error::NotRunning) => HookRuling::Pass {
            why: format!(
                "Redline is not running, so this edit is not reviewed there; {}'s own approval \
                 runs",
                cli.name()
            ),
        },
        Err(e) => refused(
            p,
            &format!("the review in Redline ended without a decision ({e})"),
        ),
    }
}

/// A deny for an edit this hook could not get decided: the model reads why, and so does the
/// terminal.
fn refused(p: &mut Printer, why: &str) -> HookRuling {
    errln!(p, "redline: {why}; the edit is denied");
    HookRuling::Deny {
        reason: format!(
            "Redline did not let this edit through: {why}, so nobody accepted it and it was not \
             made. Ask the user before trying it again."
        ),
    }
}

/// The end of the turn: the user's answer on the turn's changes in the CLI's words; with no
/// Redline to ask (or nothing changed), the turn ends as it would.
async fn turn_review(dirs: &Dirs, p: &mut Printer<'_>, a: &HookArgs) -> ExitCode {
    let ruling = match input() {
        Ok(input) => {
            let req = Request::TurnReview(HookCall {
                cli: a.cli,
                input,
                record_turn: false,
            });
            let asked = async {
                tokio::select! {
                    answered = control::call(dirs, &req) => answered,
                    () = orphaned() => Err(Error::Control(ControlFailure::HookOrphaned)),
                }
            };
            match asked.await {
                Ok(v) => serde_json::from_value(v).unwrap_or_else(|e| TurnRuling::Pass {
                    why: format!("Redline answered something this hook cannot read ({e})"),
                }),
                Err(Error::NotRunning) => TurnRuling::Pass {
                    why: "Redline is not running, so this turn's changes are not reviewed there"
                        .into(),
                },
                Err(e) => TurnRuling::Pass {
                    why: format!("{e}; the turn's changes are not reviewed"),
                },
            }
        }
        Err(why) => TurnRuling::Pass { why },
    };
    let answer = turn::answer(a.cli, &ruling);
    if let Some(line) = &answer.stderr {
        errln!(p, "{line}");
    }
    out!(p, "{}", answer.stdout);
    ExitCode::from(answer.exit)
}

/// The turn mode's pre-edit hook: the edit's files recorded for the turn's review, and the edit
/// left to the CLI's own approval (a pass, in its words) whatever happened: Redline asks nothing
/// and never holds an edit up here.
async fn record_only(dirs: &Dirs, p: &mut Printer<'_>, a: &HookArgs) -> ExitCode {
    let input = input().unwrap_or_default();
    if !input.is_null() {
        let req = Request::HookRecord(HookCall {
            cli: a.cli,
            input: input.clone(),
            record_turn: true,
        });
        // Not running, or gone: nothing to record in, and nothing to say on every edit.
        let _ = control::call(dirs, &req).await;
    }
    let pass = HookRuling::Pass { why: String::new() };
    let answer = hook::answer(a.cli, &input, &pass);
    out!(p, "{}", answer.stdout);
    ExitCode::from(answer.exit)
}

/// The turn's start: the workspace checkpointed before the prompt goes on. Whatever fails, the
/// prompt goes on (exit 0, nothing on standard output), and standard error says why.
async fn turn_start(dirs: &Dirs, p: &mut Printer<'_>, a: &HookArgs) -> ExitCode {
    let begun = match input() {
        // The CLI going on with its turn (Qwen Code's prompt hook for a tool's result): nothing
        // to begin, and no line on every tool call.
        Ok(input) if turn::goes_on(a.cli, &input) => return ExitCode::SUCCESS,
        Ok(input) => {
            let req = Request::TurnStart(HookCall {
                cli: a.cli,
                input,
                record_turn: false,
            });
            match control::call(dirs, &req).await {
                Ok(v) => serde_json::from_value(v).unwrap_or_else(|e| TurnBegun::Pass {
                    why: format!("Redline answered something this hook cannot read ({e})"),
                }),
                Err(Error::NotRunning) => TurnBegun::Pass {
                    why: "Redline is not running, so this turn is not checkpointed".into(),
                },
                Err(e) => TurnBegun::Pass {
                    why: format!("{e}; the turn is not checkpointed"),
                },
            }
        }
        Err(why) => TurnBegun::Pass { why },
    };
    let answer = turn::begun_answer(&begun);
    if let Some(line) = &answer.stderr {
        errln!(p, "{line}");
    }
    out!(p, "{}", answer.stdout);
    ExitCode::from(answer.exit)
}

/// Resolves once this process's parent is gone (it was reparented); never where that cannot be
/// told.
async fn orphaned() {
    #[cfg(unix)]
    {
        let parent = std::os::unix::process::parent_id();
        // No event says so: a slow poll of one system call, for as long as the review is open.
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        loop {
            tick.tick().await;
            if std::os::unix::process::parent_id() != parent {
                return;
            }
        }
    }
    #[cfg(not(unix))]
    std::future::pending::<()>().await
}

fn spell(secs: u64) -> String {
    match secs {
        s if s % 60 == 0 && s >= 120 => format!("{} minutes", s / 60),
        s => format!("{s} seconds"),
    }
}
