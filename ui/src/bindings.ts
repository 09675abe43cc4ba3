// Generated from the Rust types by `redline_core::surfaces::bindings`; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings

export type PeerProcess = { pid: number, 
/**
 * `Gemini CLI`, `Qwen Code`, `Claude Code`, or the program's own name.
 */
program: string, version: string | null, cwd: string | null, 
/**
 * The controlling terminal, e.g. `/dev/pts/3`.
 */
tty: string | null, 
/**
 * `session:window.pane` when it runs in tmux.
 */
tmux: string | null, };

export type ClientInfo = { name: string, version: string, 
/**
 * The process on the other end of the connection, when it could be found.
 */
process: PeerProcess | null, 
/**
 * The title the CLI gave its session (Copilot CLI's `update_session_name`).
 */
sessionName?: string, 
/**
 * A `redline` command (`redline propose`, `redline diff`) asked: `name` is the command, and
 * `process` the program that ran it (a shell, a script), which is not itself who asked.
 */
command?: boolean, };

export type ReviewKind = "edit" | "turn";

export type ReviewDetail = { id: number, workspace: string, 
/**
 * The path relative to the workspace, for labels.
 */
relativePath: string, 
/**
 * The path as the CLI sent it (a container path for a CLI in a container).
 */
filePath: string, 
/**
 * The file on this host.
 */
path: string, 
/**
 * It came from a CLI in a container, through a container-path mapping.
 */
container: boolean, client: ClientInfo, newFile: boolean, original: string, 
/**
 * The file's bytes are not UTF-8: `original` shows U+FFFD in place of the invalid ones.
 */
originalNotUtf8: boolean, 
/**
 * `Some(size)`: the original is a binary file of `size` bytes, shown as such (`original`
 * is then empty).
 */
originalBinary: number | null, proposal: string, current: string, added: number, removed: number, createdAt: number, updatedAt: number, 
/**
 * The proposal's revision: an edit sent with `review_update` names it, and is refused once
 * the CLI has proposed a newer one.
 */
revision: number, 
/**
 * Why the proposal cannot be edited, in words (one line, shown above it); `None`: it can
 * be, and Accept sends the edited text.
 */
readOnly: string | null, 
/**
 * The CLI that proposed it can be pointed at lines of it ("Ask about this part").
 */
canMention: boolean, 
/**
 * Whoever asked hears a rejection's reason ("Reject with reason…" says so when not: the
 * IDE protocols carry none).
 */
reasonHeard: boolean, 
/**
 * `turn`: the end of a CLI's turn, answered Done and Continue with instructions (a
 * rejection whose reason the CLI goes on with); `edit`: one proposed change.
 */
kind: ReviewKind, 
/**
 * A whole turn's review (every file, from its checkpoints: `turnFiles`, `turnFile`,
 * `turnUndo`): the turn's id in the workspace's history; `None`: an edit, or one file's tab
 * of a turn that was not checkpointed.
 */
turnId: number | null, 
/**
 * The remote machine it is on (`redline remote add NAME`): its paths are that machine's,
 * shown here as labels only. Absent: a review on this machine.
 */
remote?: string, };

export type Comment = { 
/**
 * The file, relative to the workspace root, `/`-separated.
 */
path: string, 
/**
 * 1-based, in the file as the change left it (the right side of the diff); for a line
 * the change removed, its line in the file as it was.
 */
line: number, 
/**
 * The line commented on, as the diff shows it.
 */
quote: string, 
/**
 * What the user wrote.
 */
text: string, };

export type FileStatus = "added" | "deleted" | "modified" | "renamed" | "typeChanged";

export type TurnFile = { 
/**
 * Relative to the workspace, where the turn left it (where it was, when deleted).
 */
path: string, 
/**
 * Where a renamed file was.
 */
from?: string | null, status: FileStatus, 
/**
 * Binary on either side: no lines counted.
 */
binary: boolean, 
/**
 * Larger than undo reads (32 MiB): listed, never read whole, not undone (and not stored:
 * its checkpoint keeps its size and modification time).
 */
tooLarge: boolean, 
/**
 * What the file is when it is no regular file ("a FIFO", "a socket", "a device"): listed
 * as it appears or goes, never opened, not undone.
 */
notAFile?: string, added: number, removed: number, };

export type TurnFiles = { 
/**
 * The turn's id in the workspace's history.
 */
turn: number, files: Array<TurnFile>, 
/**
 * Files past the bound of the list (`MAX_LISTED`): changed, counted, not listed.
 */
unlisted: number, 
/**
 * The first file listed, opened as `turnFile` opens it, when Redline opened it ahead (a
 * whole turn's review's first listing): the window needs not ask for it.
 */
first?: TurnFileView, };

export type LineSpan = { first: number, count: number, };

export type TurnHunk = { 
/**
 * Its lines in the file as the turn found it.
 */
before: LineSpan, 
/**
 * Its lines in the file as the turn left it.
 */
after: LineSpan, };

export type Unshown = "binary" | "tooLarge" | "notAFile";

export type TurnFileView = { path: string, from: string | null, 
/**
 * At the turn's start; `None`: the file was not there (or is not shown).
 */
start: string | null, 
/**
 * As the review shows it; `None`: the file is gone (or is not shown).
 */
end: string | null, 
/**
 * Each contiguous run of changed lines, as `turnUndo` takes them back.
 */
hunks: Array<TurnHunk>, 
/**
 * Why no text is shown; `None`: it is.
 */
unshown: Unshown | null, };

export type TurnPick = { path: string, hunks?: Array<TurnHunk>, };

export type TurnLeft = { path: string, why: string, };

export type TurnUndone = { "undo": "done", files: Array<string>, } | { "undo": "refused", why: string, } | { "undo": "partly", files: Array<string>, left: Array<TurnLeft>, };

export type HistoryTurn = { 
/**
 * The workspace's root, as its checkpoint store is keyed (the past-turn actions take it).
 */
workspace: string, 
/**
 * The turn's id in that workspace's history.
 */
turn: number, cli: string, session: string, 
/**
 * Milliseconds since the Unix epoch.
 */
started: number, ended: number | null, 
/**
 * Still running: nothing to show or undo yet.
 */
running: boolean, 
/**
 * Files changed (the listed ones and those past the bound).
 */
files: number, added: number, removed: number, };

export type TurnAsked = { workspace: string, turn: number, };

export type Outcome = "accepted" | "rejected" | "closed" | "dismissed";

export type Resolved = { id: number, outcome: Outcome, };

export type Selection = { startLine: number, startCharacter: number, endLine: number, endCharacter: number, };

export type PopupMode = "focus" | "noFocus" | "trayOnly";

export type HistoryBounds = { turns: number, mib: number, };

export type Settings = { popup: PopupMode, 
/**
 * Keep the window open when the last review is answered.
 */
keepOpen: boolean, 
/**
 * The command "Open in editor" runs (`code --wait`, `nvim`); `None` or blank: `$VISUAL`,
 * else `$EDITOR`.
 */
editor?: string, 
/**
 * How much turn history each workspace keeps.
 */
history: HistoryBounds, };

export type FaultCode = "usage" | "relative_path" | "outside_workspace" | "not_in_workspace" | "bad_path" | "not_text" | "is_directory" | "not_regular_file" | "empty_content" | "reason_too_long" | "bad_comment" | "not_whole_turn" | "container_address" | "container_path" | "bad_setting" | "too_large" | "busy" | "no_such_review" | "no_review" | "no_open_diff" | "cannot_take" | "read_only" | "superseded" | "no_such_workspace" | "workspace_exists" | "workspace_off" | "folder_gone" | "no_folder" | "containers_off" | "no_container_bridge" | "no_such_remote" | "remote_exists" | "on_remote" | "not_applied" | "unanswered" | "not_connected" | "not_installed" | "not_written" | "not_kept" | "io" | "config" | "hook_config" | "keyring" | "no_display" | "no_window" | "window" | "timeout" | "not_running" | "already_running" | "runtime_dir" | "foreign_server" | "refused" | "control" | "bad_request" | "bad_message" | "internal";

export type Fault = { code: FaultCode, message: string, };

export type FixPlace = "shell" | "cli" | "advice";

export type DoctorLine = { name: string, installed: boolean, 
/**
 * The installed version, when its package says.
 */
version: string | null, ok: boolean, reason: string, 
/**
 * The one command that fixes it, if any.
 */
fix: string | null, 
/**
 * Where the fix is typed: in a shell, at the CLI's prompt (e.g. `/ide enable`), or no
 * command at all but what to do, in a sentence (`advice`).
 */
fixWhere: FixPlace, };

export type Welcome = { 
/**
 * The workspace checked (the newest); `None` when there is none yet.
 */
workspace: string | null, lines: Array<DoctorLine>, };

export type ReviewsList = Record<symbol, never>;

export type ReviewUpdate = { id: number, revision: number, content: string, };

export type ReviewAccept = { id: number, revision?: number | null, content: string | null, };

export type ReviewReject = { id: number, reason?: string, 
/**
 * Comments on lines of the diff, sent before the reason (`review::comment::message`).
 */
comments?: Array<Comment>, };

export type CommentsMessage = { comments: Array<Comment>, reason?: string, };

export type ReviewOpenInEditor = { id: number, line: number, };

export type ReviewDiskChanged = { id: number, };

export type ReviewMention = { id: number, lineStart: number, lineEnd: number, };

export type ReviewSelect = { id: number, selection: Selection, };

export type ReviewShown = { id: number, };

export type TurnFilesGet = { id: number, };

export type TurnFileGet = { id: number, path: string, };

export type TurnUndo = { id: number, picks: Array<TurnPick>, };

export type TurnsHistory = Record<symbol, never>;

export type PastTurnFiles = { workspace: string, turn: number, };

export type PastTurnFile = { workspace: string, turn: number, path: string, };

export type PastTurnUndo = { workspace: string, turn: number, picks: Array<TurnPick>, };

export type TurnAskedGet = Record<symbol, never>;

export type SettingsGet = Record<symbol, never>;

export type SettingsSet = { settings: Settings, };

export type WelcomeGet = Record<symbol, never>;
