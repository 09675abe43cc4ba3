//! A CLI whose pre-edit hook runs `redline hook`, as data: where its hook goes and in what form.

use super::location::Location;

#[derive(Debug, Clone, Copy)]
pub struct HookSite {
    /// Which of `protocols::hook`'s adapters reads its hook's input and answers it.
    pub dialect: Dialect,
    /// Its hook input names the turn (`turn_id`), not only the session.
    pub names_turn: bool,
    /// The file the hook goes into.
    pub config: Location,
    /// The event run before a file edit, and the matcher naming its edit tools.
    pub event: &'static str,
    pub matcher: &'static str,
    /// The event the CLI's prompt hook runs on, before the model gets the prompt: the turn's
    /// start, its checkpoint (`redline hook CLI --turn-start`); `None`: none Redline hooks
    /// (docs/hooks.md says why).
    pub start_event: Option<&'static str>,
    /// The event run at the end of the model's turn, for `--turn-review`; `None`: Redline does
    /// not review this CLI's turns.
    pub turn_event: Option<&'static str>,
    /// The prompt hook runs before every request to the model, a tool call's result included
    /// (its prompt then empty): only a prompt with words begins a turn (Qwen Code).
    pub start_every_request: bool,
    /// The hook's timeout the CLI enforces; `redline hook` denies before it (none for a plugin).
    pub timeout_secs: u64,
    /// The config gives the timeout in milliseconds (else seconds).
    pub timeout_in_ms: bool,
    /// The CLI takes the tool's input back from its hook: every accept, edited or not, is
    /// answered with an input of Redline's own making; else its reviews are read-only.
    pub takes_edits: bool,
    /// What the user still does in the CLI before it runs a hook it finds in its config.
    pub trust: Option<&'static str>,
    /// How the config file lays its hooks out.
    pub layout: Layout,
    /// How the CLI reads that file (what Redline may find in it and keep as it is).
    pub reads: Reads,
    /// A hook that runs out of time lets the edit through (so `redline hook` must deny first).
    pub fails_open: bool,
}

/// The words a hook's input and output are in, as a CLI's hooks speak them: `protocols::hook`
/// has one adapter per variant (a CLI copying another's hooks would share its dialect).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Codex,
    Claude,
    Gemini,
    Qwen,
    Copilot,
    Kiro,
    Cursor,
    Opencode,
}

/// Where a CLI's hook goes: entries merged into a config the user writes too, or a file of
/// Redline's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Entries in a JSON config, beside the user's own hooks.
    Settings(Entries),
    /// A file of Redline's own in Copilot CLI's hooks directory, which it reads every `*.json`
    /// of: `{version: 1, hooks: {EVENT: [{type, bash|powershell, matcher, timeoutSec}]}}`.
    OwnFile,
    /// A plugin file of Redline's own, loaded into the CLI's own process, which awaits it
    /// without a timeout (opencode): `event` and `matcher` only say what the plugin hooks.
    Plugin,
}

/// How a CLI reads its JSON hook config: Redline edits only a file the CLI reads, and refuses
/// (never rewrites) one it would not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    /// Comments, blanked before `JSON.parse` (strip-json-comments: Gemini CLI, Qwen Code).
    pub comments: bool,
    /// A UTF-8 byte-order mark, dropped before parsing (Qwen Code's `stripUtf8Bom`).
    pub bom: bool,
}

impl Reads {
    /// Plain JSON (`JSON.parse`, serde_json): no comments, no byte-order mark.
    pub const JSON: Reads = Reads {
        comments: false,
        bom: false,
    };
}

/// How a JSON config lays out its hook entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entries {
    /// `hooks.{event}` lists groups `{matcher, hooks: [{type, command, timeout}]}` (Claude Code
    /// and the CLIs that copied it).
    Grouped,
    /// `hooks.{event}` lists entries `{command, matcher, timeout}`, beside a top-level
    /// `"version": 1` (Cursor's `hooks.json`).
    Flat,
    /// A hooks file of Kiro CLI's: `"version": "v1"` and `hooks` listing entries `{name,
    /// trigger, matcher, action: {type, command}, timeout, enabled}`; removed when only
    /// Redline's entry was in it.
    Kiro,
}

impl HookSite {
    /// Whether, and by which of its own settings, the CLI still asks its own question about an
    /// edit Redline's pre-edit hook accepted (`../shared/specs/cli-hooks.md`); `None`: an accept
    /// answers for it. Redline never changes these settings.
    pub fn asks_after_accept(&self) -> Option<&'static str> {
        match self.dialect {
            Dialect::Codex => Some("unless its approval policy lets writes through"),
            Dialect::Gemini => Some("unless its approval mode is auto_edit or yolo"),
            Dialect::Qwen => {
                Some("before its hook runs, unless its approval mode lets edits through")
            }
            Dialect::Claude
            | Dialect::Copilot
            | Dialect::Kiro
            | Dialect::Cursor
            | Dialect::Opencode => None,
        }
    }

    /// The CLI's own setting that decides whether it asks before an edit no hook answered (the
    /// turn mode's edits).
    pub fn own_questions(&self) -> &'static str {
        match self.dialect {
            Dialect::Codex => "its approval policy (approval_policy in config.toml)",
            Dialect::Claude => "its permission mode (acceptEdits lets edits through; Shift+Tab)",
            Dialect::Gemini => "its approval mode (auto_edit or yolo let edits through)",
            Dialect::Qwen => "its approval mode",
            Dialect::Copilot => "its tool permissions (--allow-tool)",
            Dialect::Kiro => "its trusted tools",
            Dialect::Cursor => "its permissions",
            Dialect::Opencode => "its permission settings",
        }
    }

    /// How long the CLI waits for its hook, if it stops waiting at all.
    pub fn timeout(&self) -> Option<u64> {
        match self.layout {
            Layout::Plugin => None,
            _ => Some(self.timeout_secs),
        }
    }

    /// The timeout as the config writes it.
    pub fn timeout_value(&self) -> u64 {
        match self.timeout_in_ms {
            true => self.timeout_secs * 1000,
            false => self.timeout_secs,
        }
    }

    /// How long `redline hook` waits for the user before it denies: a minute less than the CLI
    /// waits for it, so the CLI never times out and goes on with the edit; no limit for a CLI
    /// that waits as long as it takes.
    pub fn deny_after(&self) -> Option<u64> {
        self.timeout().map(|t| t.saturating_sub(60).max(1))
    }
}
