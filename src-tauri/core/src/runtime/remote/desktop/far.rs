//! One remote of this desktop: the command that reaches it, its reviews shown here, the
//! decisions sent there, and its link's state as `redline remote list` shows it.

use super::asked::Asked;
use super::asked::MAX_ASKED;
use super::mirror::Mirror;
use super::said::label;
use super::unsettled::{Answered, Unsettled};
use crate::api::remote_info::{LinkState, RemoteInfo};
use crate::error::{RemoteFailure, Result};
use crate::review::{Outcome, ReviewQueue};
use crate::runtime::remote::protocol::{Call, Fate};
use crate::runtime::window::message::Returned;
use crate::workspace::remote_entry::RemoteEntry;
use serde_json::Value;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// How long a call waits for the remote's answer (a turn's file is read there).
const ASK_WAIT: Duration = Duration::from_secs(30);

/// One remote: what reaches it, what it shows here, what was sent there.
pub(super) struct Remote {
    pub entry: RemoteEntry,
    pub stop: CancellationToken,
    pub mirror: Mirror,
    pub unsettled: Unsettled,
    pub asked: Asked,
    /// What shows the remotes (the tray) hears of a change.
    changed: watch::Sender<()>,
    now: Mutex<Now>,
}

struct Now {
    state: LinkState,
    reason: Option<String>,
    last_decision: Option<String>,
}

impl Remote {
    /// `changed` hears each change of its link's state.
    pub fn new(entry: RemoteEntry, changed: watch::Sender<()>) -> Remote {
        Remote {
            changed,
            mirror: Mirror::new(&entry.name),
            entry,
            stop: CancellationToken::new(),
            unsettled: Unsettled::default(),
            asked: Asked::default(),
            now: Mutex::new(Now {
                state: LinkState::Connecting,
                reason: None,
                last_decision: None,
            }),
        }
    }

    fn now(&self) -> std::sync::MutexGuard<'_, Now> {
        self.now.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The link's `state`, and why when it is not connected: a remote's words, already made fit
    /// to show (`said::label`, by the one caller that has any).
    pub fn set(&self, state: LinkState, reason: Option<String>) {
        let mut now = self.now();
        now.state = state;
        now.reason = reason;
        drop(now);
        self.changed.send_replace(());
    }

    /// `call` asked of the remote's instance: its answer, or why there is none (the link is not
    /// up, it ended before the answer, `ASK_WAIT` passed, or the instance refused it).
    pub async fn ask(&self, call: Call) -> Result<Value> {
        let remote = self.entry.name.clone();
        let state = self.now().state;
        if state != LinkState::Connected {
            let state = state.to_string();
            return Err(RemoteFailure::NotConnected { remote, state }.into());
        }
        let Some(answer) = self.asked.push(call) else {
            let why = format!("{MAX_ASKED} calls wait for it already");
            return Err(RemoteFailure::NoAnswer { remote, why }.into());
        };
        match tokio::time::timeout(ASK_WAIT, answer).await {
            Ok(Ok(Returned::Ok(value))) => Ok(value),
            Ok(Ok(Returned::Error(fault))) => {
                let message = label(&fault.message);
                let code = fault.code;
                Err(RemoteFailure::Said {
                    remote,
                    code,
                    message,
                }
                .into())
            }
            Ok(Err(_)) => {
                let why = "the link ended before it did".to_owned();
                Err(RemoteFailure::NoAnswer { remote, why }.into())
            }
            Err(_) => {
                let why = format!("nothing within {} s", ASK_WAIT.as_secs());
                Err(RemoteFailure::NoAnswer { remote, why }.into())
            }
        }
    }

    pub fn info(&self) -> RemoteInfo {
        let now = self.now();
        RemoteInfo {
            name: self.entry.name.clone(),
            command: self.entry.command.clone(),
            state: now.state,
            reason: now.reason.clone(),
            pending: self.mirror.len(),
            last_decision: now.last_decision.clone(),
        }
    }

    /// Decisions answered: each review here ends if it was applied there, and what became of
    /// the last is said (the log, `redline remote list`).
    pub fn told(&self, queue: &ReviewQueue, answered: Vec<Answered>) {
        for a in answered {
            let name = &self.entry.name;
            let said = match &a.fate {
                Fate::Applied | Fate::AppliedBefore => {
                    self.mirror.decided(queue, a.desktop, a.outcome);
                    format!("review {}: {} on {name}", a.desktop, words(a.outcome))
                }
                Fate::Gone { why } => format!("review {}: not applied on {name}: {why}", a.desktop),
            };
            let said = label(&said);
            tracing::info!(remote = %name, "{said}");
            self.now().last_decision = Some(said);
        }
    }
}

fn words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Accepted => "accepted",
        Outcome::Rejected => "rejected",
        Outcome::Closed => "closed",
        Outcome::Dismissed => "dismissed",
    }
}
