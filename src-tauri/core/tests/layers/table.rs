//! The layer table of redline-core: which layer may import which, and what each holds. The test
//! checks the code against it, and docs/architecture.md's table is generated from it.

pub struct Layer {
    /// The top-level module (`src/<name>.rs` or `src/<name>/`).
    pub name: &'static str,
    /// The layers its files may import, besides their own and `error`.
    pub imports: &'static [&'static str],
    pub holds: &'static str,
}

/// Lowest first. `error` is below all: every layer may import it.
pub const LAYERS: &[Layer] = &[
    Layer {
        name: "error",
        imports: &[],
        holds: "the typed errors (`Error`, `Result`) and their codes (`FaultCode`); every layer may import \
                it, and `Error` composes each layer's own errors (`src/<layer>/error.rs`, the one file of a \
                layer it imports)",
    },
    Layer { name: "clients", imports: &[], holds: "each CLI as data" },
    Layer {
        name: "platform",
        imports: &["clients"],
        holds: "dirs, the runtime dir's owner check, clock, process table, peer process and its npm \
                package, keyring, tokens, signals, private files, small files a peer planted, children \
                run to a deadline, beneath, folder (files written beneath a root), file URIs, the \
                bundle identifier, the display and its GTK/WebKit settings, Windows users (SIDs) and \
                named pipes only this user may open",
    },
    Layer {
        name: "api",
        imports: &["platform"],
        holds: "Status, WorkspaceStatus, Pin, Fault, a workspace's turns as `redline turns` shows them \
                (what surfaces read)",
    },
    Layer {
        name: "workspace",
        imports: &["clients", "platform"],
        holds: "roots and confinement, config, settings, containers",
    },
    Layer {
        name: "checkpoint",
        imports: &["platform"],
        holds: "a workspace's checkpoints (its files, ignore rules applied, as git trees in a private \
                store, written with the `git` program), what changed between two, its hunks, undo \
                (whole files or hunks, written beneath the workspace), and the turns' history",
    },
    Layer {
        name: "review",
        imports: &["platform", "workspace"],
        holds: "queue, service, registry, diff, quota, original, selection, context, editor, origin, \
                read-only, turn (what a CLI session's turn touched, for its end-of-turn review)",
    },
    Layer {
        name: "discovery",
        imports: &["clients", "platform", "workspace"],
        holds: "the discovery and lock files each CLI reads, and Redline's hook in a CLI's hook config: written and removed",
    },
    Layer { name: "net", imports: &["platform", "workspace"], holds: "accept loop and caps, Host check, limits" },
    Layer {
        name: "protocols",
        imports: &["clients", "net", "platform", "review"],
        holds: "mcp_http, mcp_ws, copilot, codex_ipc (Codex CLI's IDE socket, its named pipe on Windows), amp_ws (Amp's IDE WebSocket), jsonrpc, mcp, hook (pre-edit and end-of-turn hooks: Codex's patch format); never each other, but for `copilot` on \
                `mcp_http`'s app (one way)",
    },
    Layer {
        name: "doctor",
        imports: &["api", "clients", "discovery", "platform", "workspace"],
        holds: "facts, scan, probe, verdict",
    },
    Layer {
        name: "surfaces",
        imports: &["api", "clients", "doctor", "platform", "review", "workspace"],
        holds: "tray menu as data, redline env, TS types, the editor jump and its launcher, diff's two \
                sides, diff --edit's write",
    },
    Layer {
        name: "runtime",
        imports: &[
            "api", "checkpoint", "clients", "discovery", "doctor", "net", "platform", "protocols", "review",
            "surfaces", "workspace",
        ],
        holds: "companion (one workspace's servers, wired), bridge (container listeners), instance (its \
                parts: the workspaces and their companions, the review queue, the editor channels, \
                Codex CLI's IDE socket, one per user, the turns, the checkpoint stores and the turns \
                running in them), \
                serving, control channel (Unix socket; named pipe on Windows), the editor channel, \
                the review window's channel, hub and launcher, command, folders (Copilot CLI's \
                folder locks: the sessions' folders, the locks, their follower)",
    },
];

/// One part of a layer whose parts keep apart: what it may import of its layer's other parts.
pub struct Part {
    pub layer: &'static str,
    pub name: &'static str,
    pub imports: &'static [&'static str],
}

/// The protocols never import each other, but for `copilot` on `mcp_http`'s app (one way); what
/// they share sits beside them, once (`jsonrpc`, `mcp`, and `selection_changed`, the one
/// selection message Claude Code and Copilot CLI both read). A layer with no parts here is one whole.
pub const PARTS: &[Part] = &[
    Part {
        layer: "protocols",
        name: "jsonrpc",
        imports: &[],
    },
    Part {
        layer: "protocols",
        name: "mcp",
        imports: &["jsonrpc"],
    },
    Part {
        layer: "protocols",
        name: "selection_changed",
        imports: &[],
    },
    Part {
        layer: "protocols",
        name: "hook",
        imports: &[],
    },
    Part {
        layer: "protocols",
        name: "codex_ipc",
        imports: &[],
    },
    Part {
        layer: "protocols",
        name: "amp_ws",
        imports: &[],
    },
    Part {
        layer: "protocols",
        name: "mcp_http",
        imports: &["jsonrpc", "mcp"],
    },
    Part {
        layer: "protocols",
        name: "mcp_ws",
        imports: &["jsonrpc", "mcp", "selection_changed"],
    },
    Part {
        layer: "protocols",
        name: "copilot",
        imports: &["jsonrpc", "mcp", "mcp_http", "selection_changed"],
    },
];

/// Layers whose own errors do not reach an edge through `Error`, so `Error` does not compose
/// them (`each_layer_raises_its_own_errors`): `checkpoint` imports nothing, not even `error`, so
/// its `CheckpointError` has no `code()` beside it: `Error::Checkpoint` composes it and gives its
/// codes in `src/error.rs`.
pub const ERRORS_APART: &[&str] = &["checkpoint"];

/// Cycles let through while a change that removes them is under way (one strongly connected
/// component each, exactly, paths under src-tauri/core). Empty: every cycle fails.
pub const KNOWN_CYCLES: &[&[&str]] = &[];

/// The longest a source file outside tests may be.
pub const MAX_LINES: usize = 400;

/// Files over `MAX_LINES` let through while a change splits them (paths from the repository
/// root). Empty: every long file fails.
pub const LONG_FILES: &[&str] = &[];

/// docs/architecture.md's generated block: the table, one row per layer, highest first.
pub fn markdown() -> String {
    let mut out = String::from("| layer | may import | what it holds |\n| --- | --- | --- |\n");
    for l in LAYERS.iter().rev() {
        let imports = if l.imports.is_empty() {
            "nothing".to_string()
        } else {
            l.imports
                .iter()
                .map(|i| format!("`{i}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let holds = l.holds.split_whitespace().collect::<Vec<_>>().join(" ");
        out.push_str(&format!("| `{}` | {imports} | {holds} |\n", l.name));
    }
    let mut layers: Vec<&str> = PARTS.iter().map(|p| p.layer).collect();
    layers.dedup();
    for layer in layers {
        out.push_str(&format!(
            "\n| inside `{layer}` | may import |\n| --- | --- |\n"
        ));
        for p in PARTS.iter().filter(|p| p.layer == layer).rev() {
            out.push_str(&format!("| `{}` | {} |\n", p.name, list(p.imports)));
        }
    }
    out
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "nothing".to_string()
    } else {
        names
            .iter()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Type names defined in more than one file of the core that mean the same thing in each: one
/// per protocol adapter, or one per OS. Any other name defined twice fails
/// (`a_type_name_means_one_thing_in_the_core`).
pub const SAME_MEANING: &[&str] = &[
    "Guard",    // each adapter's check of a request's Host and token (mcp_http, mcp_ws)
    "Tools",    // each HTTP adapter's tool set (mcp_http, copilot)
    "Listener", // the control channel's listener: a unix socket, or a named pipe on Windows
];

/// Module names (a file's stem) used by more than one file of the core, and the one thing each
/// names: a CLI's declaration, adapter and probe; one protocol adapter's part of a role each
/// adapter has; one layer's side of one thing. Any other name used twice fails
/// (`a_module_name_means_one_thing_in_the_core`): "answer", "verdict" and "editor" each named
/// unrelated things before issue 38.
pub const SAME_MODULE: &[(&str, &str)] = &[
    ("amp", "Amp: its declaration, its server, its probe"),
    ("claude", "Claude Code: its declaration, its hook"),
    (
        "codex",
        "Codex CLI: its declaration, its hook, the instance's channel to it",
    ),
    (
        "copilot",
        "Copilot CLI: its declaration, its hook, its server",
    ),
    ("cursor", "Cursor CLI: its declaration, its hook"),
    ("gemini", "Gemini CLI: its declaration, its hook"),
    ("kiro", "Kiro CLI: its declaration, its hook"),
    ("opencode", "opencode: its declaration, its hook"),
    ("qwen", "Qwen Code: its declaration, its hook"),
    ("wire", "one protocol's messages as serde types"),
    (
        "server",
        "one protocol's server, and the doctor's finding on a server",
    ),
    ("session", "one connected CLI session of a protocol"),
    (
        "sessions",
        "CLI sessions: a protocol's connected ones, the ones Copilot CLI records on disk",
    ),
    ("guard", "one adapter's check of a request's Host and token"),
    ("connections", "one WebSocket adapter's open connections"),
    ("tools", "one adapter's MCP tools"),
    ("socket", "a channel's unix socket"),
    ("pipe", "a channel's named pipe (Windows)"),
    ("http", "the HTTP MCP server: bound, probed"),
    ("hub", "where a channel's peers meet"),
    (
        "launcher",
        "what starts a process: the review window's, a terminal editor's",
    ),
    ("caller", "who made a request"),
    (
        "context",
        "the IDE context a CLI reads: kept, or probed by doctor",
    ),
    ("control", "the control channel, and its failures"),
    (
        "action",
        "an action on the instance: declared (surfaces), carried out (runtime)",
    ),
    (
        "editor",
        "the user's editor: what its plugin says, its channel, what that does",
    ),
    (
        "folders",
        "the folders CLIs run in, and the Copilot locks kept for them",
    ),
    (
        "settings",
        "the user's window settings: stored, kept by the instance, checked by doctor",
    ),
    (
        "status",
        "what the running Redline says of itself: the type, and its making",
    ),
    ("token", "a workspace's token: made and compared, rotated"),
    ("turn", "a CLI's turn: its files, its end hook, its review"),
    ("error", "a layer's typed errors"),
];

/// What the shell (both programs) takes from the core, and why: any other core module it names
/// fails `the_shell_takes_from_the_core_only_what_the_table_says`, and so does an entry it no
/// longer uses. docs/architecture.md's `shell` block is generated from it.
pub const SHELL_SEES: &[(&str, &str)] = &[
    ("runtime", "the instance it serves, every command it sends (`runtime::command`), the window's channel"),
    ("api", "what it prints and shows: status, the UI's error, a workspace's turns"),
    ("review", "a review's summary, outcome and events, printed or put in the tray"),
    ("surfaces", "the tray menu as data, the shell's quoting (`redline env`), diff's two sides and its write"),
    ("workspace", "the config's path, a container's arguments, the settings the window edits"),
    ("platform", "the directories, the display check, the bundle identifier"),
    ("protocols", "`redline hook`: the CLI named on its command line and its answer in that CLI's words"),
    ("discovery", "`redline hooks install`/`uninstall`: Redline's entry in a CLI's hook config"),
    ("clients", "which CLIs take hooks, for `redline hooks`"),
    ("doctor", "the words of `redline doctor`'s report (`doctor::render`)"),
    ("error", "the typed errors, mapped to exit statuses"),
];

/// docs/architecture.md's `shell` block.
pub fn shell_markdown() -> String {
    let mut out = String::from("| core module | the shell uses it for |\n| --- | --- |\n");
    for (module, why) in SHELL_SEES {
        out.push_str(&format!("| `{module}` | {why} |\n"));
    }
    out
}
