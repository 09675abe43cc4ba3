//! The start and end of a CLI's turn (its prompt hook: Codex, Claude Code and Qwen Code
//! `UserPromptSubmit`, Gemini CLI `BeforeAgent`, Copilot CLI `userPromptSubmitted`, opencode's
//! plugin on `chat.message`; its end: Codex, Claude Code and Qwen Code `Stop`, Gemini CLI
//! `AfterAgent`, Copilot CLI `agentStop`, opencode's plugin on `session.idle`):
//! whose turn its hooks name, and the user's answer in the words each takes
//! (`../shared/specs/cli-hooks.md`).

use super::ruling::HookOutput;
use super::HookCli;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Whose turn a hook input names: the CLI's session, and its turn where the CLI says (Codex).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnOf {
    pub session: String,
    pub turn: Option<String>,
}

/// An end-of-turn hook's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnEnd {
    pub of: TurnOf,
    pub cwd: String,
    /// The turn goes on because an end-of-turn hook blocked it before (`stop_hook_active`): the
    /// user is asked again, and only the user's answer blocks it again.
    pub again: bool,
}

/// Copilot CLI names the session `sessionId`, Redline's opencode plugin `sessionID` (opencode's
/// own name); the others `session_id`.
#[derive(Deserialize)]
struct Fields {
    #[serde(alias = "sessionId", alias = "sessionID")]
    session_id: String,
    #[serde(default)]
    turn_id: Option<String>,
    cwd: String,
    #[serde(default)]
    stop_hook_active: bool,
}

/// The CLIs whose end of turn Redline reviews, with the event their hook runs on.
pub fn event(cli: HookCli) -> Option<&'static str> {
    cli.site().turn_event
}

/// Whose turn a pre-edit or end-of-turn hook input names; `None`: the input names no session.
pub fn of(cli: HookCli, input: &Value) -> Option<TurnOf> {
    let session = (input.get("session_id"))
        .or_else(|| input.get("sessionId"))
        .or_else(|| input.get("sessionID"))?
        .as_str()?
        .to_owned();
    // Only Codex names the turn (`names_turn`); the others' turn runs until the session's next end of turn.
    let turn = match cli.names_turn {
        true => input
            .get("turn_id")
            .and_then(Value::as_str)
            .map(str::to_owned),
        false => None,
    };
    Some(TurnOf { session, turn })
}

/// The end-of-turn hook's input; `Err`: why it is not one (the turn ends as it would).
pub fn read(cli: HookCli, input: &Value) -> Result<TurnEnd, String> {
    let name = cli.name();
    let Some(event) = event(cli) else {
        return Err(format!("Redline does not review {name}'s turns yet"));
    };
    let f = Fields::deserialize(input)
        .map_err(|e| format!("this is not {name}'s {event} hook input ({e})"))?;
    Ok(TurnEnd {
        of: TurnOf {
            session: f.session_id,
            turn: f.turn_id.filter(|_| cli.names_turn),
        },
        cwd: f.cwd,
        again: f.stop_hook_active,
    })
}

/// The event a CLI's prompt hook runs on, where it has one: the turn's start.
pub fn start_event(cli: HookCli) -> Option<&'static str> {
    cli.site().start_event
}

/// A prompt hook's input: whose turn starts, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnStart {
    /// The CLI's session; empty where the input names none.
    pub session: String,
    pub cwd: String,
    /// The prompt the model is about to get, where the input says (Gemini CLI runs its prompt
    /// hook again with a Continue's instructions as the prompt: that turn already began).
    pub prompt: Option<String>,
    /// The CLI's id of the user's prompt, where the input names one (Qwen Code's `prompt_id`):
    /// a prompt hook run again under the same id is that prompt's turn going on. Qwen Code runs
    /// it before each request to the model, and words typed while it works (its mid-turn
    /// steering) ride on a tool's result under the turn's own id.
    pub prompt_id: Option<String>,
}

/// The longest prompt id kept: a longer one is none (it is only compared, never shown).
const MAX_PROMPT_ID: usize = 256;

#[derive(Deserialize)]
struct StartFields {
    #[serde(default, alias = "sessionId", alias = "sessionID")]
    session_id: Option<String>,
    cwd: String,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    prompt_id: Option<String>,
}

/// Whether a prompt hook's input is the CLI going on with its own turn, not a prompt: a CLI that
/// runs its prompt hook before every request to the model (`start_every_request`: Qwen Code)
/// sends a tool call's result with no words in it. Nothing begins, and the hook says nothing.
pub fn goes_on(cli: HookCli, input: &Value) -> bool {
    cli.start_every_request
        && input
            .get("prompt")
            .and_then(Value::as_str)
            .is_none_or(|p| p.trim().is_empty())
}

/// The prompt hook's input; `Err`: why it is not one (the prompt goes on, no checkpoint taken).
pub fn read_start(cli: HookCli, input: &Value) -> Result<TurnStart, String> {
    let name = cli.name();
    let Some(event) = start_event(cli) else {
        return Err(format!(
            "Redline takes no turn checkpoint from {name}'s hooks yet"
        ));
    };
    if goes_on(cli, input) {
        return Err(format!(
            "{name}'s {event} for its own going on (a tool's result) begins no turn"
        ));
    }
    let f = StartFields::deserialize(input)
        .map_err(|e| format!("this is not {name}'s {event} hook input ({e})"))?;
    Ok(TurnStart {
        session: f.session_id.unwrap_or_default(),
        cwd: f.cwd,
        prompt: f.prompt,
        prompt_id: f
            .prompt_id
            .filter(|id| !id.is_empty() && id.len() <= MAX_PROMPT_ID),
    })
}

/// What the instance answers a prompt hook: the turn recorded, or why not. Either way the
/// prompt goes on: a checkpoint that failed never holds up the user.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(
    tag = "turn",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TurnBegun {
    /// The workspace's turn `id` starts: its files are checkpointed.
    Recorded { id: u64 },
    /// No checkpoint was taken; `why` goes to the terminal.
    Pass { why: String },
}

/// The prompt hook's output: nothing on standard output (Claude Code and Codex would add it to
/// the prompt), exit 0, and on a pass why on standard error.
pub fn begun_answer(begun: &TurnBegun) -> HookOutput {
    match begun {
        TurnBegun::Recorded { .. } => HookOutput::silent(None),
        TurnBegun::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

/// The user's answer at the end of a turn.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(
    // The wire keeps its first name: a `redline hook` and an instance a version apart still agree.
    tag = "verdict",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TurnRuling {
    /// The turn ends (nothing changed, or the user said Done).
    Done,
    /// The model goes on, with the user's words.
    Continue { instructions: String },
    /// Redline stays out of it: the turn ends; `why` goes to the terminal.
    Pass { why: String },
}

/// What a model reads when the user continued without words (`redline review reject` with no
/// reason).
pub const CONTINUE_WITHOUT_WORDS: &str =
    "The user reviewed this turn's changes in Redline and asked you to continue.";

/// `ruling` as the end-of-turn hook's output. Every CLI whose turns Redline reviews takes the
/// same block.
pub fn answer(_cli: HookCli, ruling: &TurnRuling) -> HookOutput {
    match ruling {
        TurnRuling::Done => HookOutput::silent(None),
        TurnRuling::Continue { instructions } => HookOutput {
            stdout: json!({ "decision": "block", "reason": instructions }).to_string(),
            stderr: None,
            exit: 0,
        },
        TurnRuling::Pass { why } => HookOutput::silent(Some(format!("redline: {why}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_clis_end_of_turn_input_is_read_and_only_codex_names_the_turn() {
        let codex = json!({"session_id":"s","turn_id":"t","cwd":"/w","hook_event_name":"Stop",
            "stop_hook_active":true,"last_assistant_message":null});
        let end = read(HookCli::of("codex").unwrap(), &codex).unwrap();
        assert_eq!(end.of.turn.as_deref(), Some("t"));
        assert!(end.again);
        let claude = json!({"session_id":"s","cwd":"/w","hook_event_name":"Stop",
            "stop_hook_active":false,"transcript_path":"/t"});
        let end = read(HookCli::of("claude").unwrap(), &claude).unwrap();
        assert_eq!((end.of.turn, end.again), (None, false));
        let gemini = json!({"session_id":"s","cwd":"/w","hook_event_name":"AfterAgent",
            "prompt":"p","prompt_response":"r","stop_hook_active":false,"turn_id":"x"});
        assert_eq!(
            read(HookCli::of("gemini").unwrap(), &gemini)
                .unwrap()
                .of
                .turn,
            None
        );
        assert!(read(HookCli::of("kiro").unwrap(), &claude)
            .unwrap_err()
            .contains("not review"));
        assert!(read(HookCli::of("claude").unwrap(), &json!({"cwd":"/w"}))
            .unwrap_err()
            .contains("Stop hook input"));
    }

    #[test]
    fn each_clis_prompt_input_is_read_and_the_answer_never_adds_to_the_prompt() {
        let claude = json!({"session_id":"s","cwd":"/w","hook_event_name":"UserPromptSubmit",
            "prompt":"hi","transcript_path":"/t"});
        let start = read_start(HookCli::of("claude").unwrap(), &claude).unwrap();
        assert_eq!((start.session.as_str(), start.cwd.as_str()), ("s", "/w"));
        assert_eq!(start.prompt.as_deref(), Some("hi"));
        let copilot = json!({"timestamp":1,"cwd":"/w","prompt":"hi"});
        let start = read_start(HookCli::of("copilot").unwrap(), &copilot).unwrap();
        assert_eq!(start.session, "");
        assert!(read_start(HookCli::of("kiro").unwrap(), &claude)
            .unwrap_err()
            .contains("no turn checkpoint"));
        assert!(
            read_start(HookCli::of("gemini").unwrap(), &json!({"session_id":"s"}))
                .unwrap_err()
                .contains("BeforeAgent hook input")
        );
        let out = begun_answer(&TurnBegun::Recorded { id: 3 });
        assert_eq!((out.stdout.as_str(), out.stderr, out.exit), ("", None, 0));
        let out = begun_answer(&TurnBegun::Pass {
            why: "no git".into(),
        });
        assert_eq!(
            (out.stdout.as_str(), out.stderr.as_deref(), out.exit),
            ("", Some("redline: no git"), 0)
        );
    }

    /// Qwen Code 0.24.4's `Stop` and `UserPromptSubmit` inputs (`fireStopEvent`,
    /// `fireUserPromptSubmitEvent` over `createBaseInput`): a session, no turn.
    #[test]
    fn qwens_stop_and_prompt_inputs_are_read() {
        let qwen = HookCli::of("qwen").unwrap();
        let stop = json!({"session_id":"s","transcript_path":"/t","cwd":"/w",
            "hook_event_name":"Stop","timestamp":"2026-01-01T00:00:00Z","permission_mode":"yolo",
            "stop_hook_active":true,"last_assistant_message":"done","background_tasks":[],
            "crons":[]});
        let end = read(qwen, &stop).unwrap();
        assert_eq!(
            (end.of.session.as_str(), end.of.turn, end.again),
            ("s", None, true)
        );
        let prompt = json!({"session_id":"s","transcript_path":"/t","cwd":"/w",
            "hook_event_name":"UserPromptSubmit","timestamp":"2026-01-01T00:00:00Z",
            "permission_mode":"default","prompt":"hi"});
        let start = read_start(qwen, &prompt).unwrap();
        assert_eq!(
            (start.session.as_str(), start.prompt.as_deref()),
            ("s", Some("hi"))
        );
        // Qwen runs it again for each tool call's result, with no words: no new turn.
        let result = json!({"session_id":"s","cwd":"/w","hook_event_name":"UserPromptSubmit",
            "prompt":""});
        assert!(goes_on(qwen, &result));
        assert!(read_start(qwen, &result)
            .unwrap_err()
            .contains("begins no turn"));
        assert!(!goes_on(qwen, &prompt));
        assert!(!goes_on(HookCli::of("claude").unwrap(), &result));
        assert!(read(qwen, &json!({"cwd":"/w"}))
            .unwrap_err()
            .contains("Stop hook input"));
    }

    /// Copilot CLI 1.0.102's `agentStop` and `userPromptSubmitted` inputs, as the real one sent
    /// them to a command hook: `sessionId`, `cwd`, and `stop_hook_active` on a Continue.
    #[test]
    fn copilots_agent_stop_and_prompt_inputs_are_read() {
        let copilot = HookCli::of("copilot").unwrap();
        let stop = json!({"sessionId":"1c81","timestamp":1,"cwd":"/w",
            "transcriptPath":"/t/events.jsonl","stopReason":"end_turn","stop_hook_active":true});
        let end = read(copilot, &stop).unwrap();
        assert_eq!(
            (end.of.session.as_str(), end.cwd.as_str(), end.again),
            ("1c81", "/w", true)
        );
        let prompt = json!({"sessionId":"1c81","timestamp":1,"cwd":"/w","prompt":"go on"});
        let start = read_start(copilot, &prompt).unwrap();
        assert_eq!(
            (start.session.as_str(), start.prompt.as_deref()),
            ("1c81", Some("go on"))
        );
        let tool = json!({"sessionId":"1c81","timestamp":1,"cwd":"/w","toolName":"edit"});
        assert_eq!(of(copilot, &tool).unwrap().session, "1c81");
    }

    /// What Redline's opencode plugin sends (`discovery/opencode_plugin.js`): on `chat.message`
    /// the session, its folder and the user's words; on `session.idle` the session and folder; a
    /// tool's call names the session too.
    #[test]
    fn the_opencode_plugins_turn_inputs_are_read() {
        let opencode = HookCli::of("opencode").unwrap();
        let start = json!({"sessionID":"ses_1","cwd":"/w","prompt":"hi"});
        let start = read_start(opencode, &start).unwrap();
        assert_eq!(
            (
                start.session.as_str(),
                start.cwd.as_str(),
                start.prompt.as_deref()
            ),
            ("ses_1", "/w", Some("hi"))
        );
        let end = read(opencode, &json!({"sessionID":"ses_1","cwd":"/w"})).unwrap();
        assert_eq!(
            (end.of.session.as_str(), end.of.turn, end.again),
            ("ses_1", None, false)
        );
        let tool = json!({"tool":"write","sessionID":"ses_1","callID":"c","args":{},"cwd":"/w"});
        assert_eq!(of(opencode, &tool).unwrap().session, "ses_1");
        assert!(read(opencode, &json!({"cwd":"/w"}))
            .unwrap_err()
            .contains("session.idle hook input"));
    }

    #[test]
    fn continue_blocks_with_the_users_words_and_done_says_nothing() {
        let out = answer(
            HookCli::of("claude").unwrap(),
            &TurnRuling::Continue {
                instructions: "Also add a test".into(),
            },
        );
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(v, json!({"decision":"block","reason":"Also add a test"}));
        let done = answer(HookCli::of("gemini").unwrap(), &TurnRuling::Done);
        assert_eq!(
            (done.stdout.as_str(), done.stderr, done.exit),
            ("", None, 0)
        );
    }
}
