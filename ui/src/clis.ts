// Generated from clients::ALL by `redline_core::surfaces::bindings::clis`; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings

/** Each CLI Redline serves, and what the user does once to connect it (`code` in backticks). */
export const CONNECT: ReadonlyArray<{ name: string; how: string }> = [
  { name: "Gemini CLI", how: "`/ide enable`" },
  { name: "Qwen Code", how: "`/ide enable`" },
  { name: "Claude Code", how: "`claude --ide`, or `/ide` inside it" },
  { name: "Copilot CLI", how: "nothing: it connects by itself; `/ide` shows Redline" },
  { name: "Amp", how: "nothing: it reads your editor's context by itself (its edits are not reviewed)" },
  { name: "Codex CLI", how: "`redline hooks install codex` in a shell; `/ide on` for your editor's context" },
  { name: "Kiro CLI", how: "`redline hooks install kiro` in a shell (its reviews are read-only)" },
  { name: "Cursor CLI", how: "`redline hooks install cursor` in a shell (its reviews are read-only)" },
  { name: "opencode", how: "`redline hooks install opencode` in a shell" },
];
