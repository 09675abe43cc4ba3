// Redline's review of opencode's edits. Written by `redline hooks install opencode` and removed by `redline hooks uninstall opencode`; a change made here is overwritten by the next install.
//
// Before each file-writing tool runs, it asks Redline (`redline hook opencode`, run with an
// argument list, never through a shell) and does what the user decided: a rejection fails the
// tool with the user's reason, an acceptance with edits makes the tool write the user's text.
//#if turn
// In this mode (`--review turn`) it asks nothing about an edit: it only records the files each
// edit touches for the turn's review, and the edit goes on whatever happens.
//#end
//#if turn both
// At each turn's start (`chat.message`, awaited before the model runs) Redline checkpoints the
// workspace; when the session goes idle (the turn's end) it shows the turn's changes, and a
// "Continue" sends the user's message to the session as its next prompt. Neither ever stops
// opencode: what fails is said in opencode's log.
//#end
import { spawn } from "node:child_process";

const REDLINE = "__REDLINE__";
//#if turn
// What Redline reviews (`redline hooks status` reads it here), and what `redline hook opencode`
// runs as before an edit.
const REVIEW = "turn";
const PRE = ["--record-only"];
//#end
//#if both
// What Redline reviews (`redline hooks status` reads it here), and what `redline hook opencode`
// runs as before an edit.
const REVIEW = "both";
const PRE = ["--record-turn"];
//#end
const EDITS = new Set(["write", "edit", "apply_patch"]);
// What the model is told after a tool wrote the user's text instead of its own, by call.
const notes = new Map();

//#if edit
function ask(call) {
  return new Promise((resolve, reject) => {
    const child = spawn(REDLINE, ["hook", "opencode"], {
//#end
//#if turn both
function ask(call, flags = PRE) {
  return new Promise((resolve, reject) => {
    const child = spawn(REDLINE, ["hook", "opencode", ...flags], {
//#end
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const out = [];
    const err = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    child.on("error", reject);
    // It may exit before reading everything: its exit status says why.
    child.stdin.on("error", () => {});
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8").trim(),
      }),
    );
    child.stdin.end(JSON.stringify(call));
  });
}

// opencode runs no approval of its own after a plugin unless its `edit` permission asks: an edit
// Redline could not review is never written.
function unreviewed(why) {
  return new Error(
    `Redline could not review this edit (${why}), so it was not made. Tell the user; ` +
      "`redline hooks install opencode` sets the plugin up again.",
  );
}

//#if turn both
// The sessions whose turn `chat.message` began, until they go idle.
const turns = new Set();

// `redline hook opencode` run as one of the turn's hooks: never throws (opencode must go on);
// its stderr (one `redline:` line) goes to opencode's log. The answer's stdout, if it ran.
async function turnHook(client, flags, call) {
  let r;
  try {
    r = await ask(call, flags);
  } catch (e) {
    await say(client, `redline: ${REDLINE} did not start: ${e.message}`);
    return undefined;
  }
  if (r.stderr) await say(client, r.stderr);
  if (r.code !== 0) {
    const how = r.signal ? `was killed by ${r.signal}` : `exited with ${r.code}`;
    await say(client, `redline: redline hook ${flags.join(" ")} ${how}`);
    return undefined;
  }
  return r.stdout;
}

// A line in opencode's log (its TUI owns the terminal); stderr if the log cannot take it.
async function say(client, line) {
  try {
    const res = await client.app.log({ body: { service: "redline", level: "warn", message: line } });
    if (!res?.error) return;
  } catch {}
  process.stderr.write(`${line}\n`);
}

// A session the task tool started for a subagent (it has a parent) is part of its parent's
// turn: it begins no turn of its own.
async function isSubagent(client, id) {
  try {
    const res = await client.session.get({ path: { id } });
    return !!res?.data?.parentID;
  } catch {
    return false;
  }
}

//#end
export default {
  id: "redline",
//#if edit
  server: async ({ directory }) => ({
//#end
//#if turn both
  server: async ({ directory, client }) => ({
    "chat.message": async (input, output) => {
      try {
        if (await isSubagent(client, input.sessionID)) return;
        turns.add(input.sessionID);
        // The user's words (a Continue's message, when Redline sent it: that turn goes on).
        const prompt = (output.parts ?? [])
          .filter((p) => p.type === "text" && !p.synthetic)
          .map((p) => p.text)
          .join("\n");
        await turnHook(client, ["--turn-start"], { sessionID: input.sessionID, cwd: directory, prompt });
      } catch (e) {
        await say(client, `redline: the turn's start was not recorded: ${e.message}`);
      }
    },
    // opencode does not await this: the review stays open as long as the user takes, and its
    // Continue becomes the session's next prompt.
    event: async ({ event }) => {
      if (event.type !== "session.idle") return;
      const id = event.properties?.sessionID;
      if (!turns.delete(id)) return;
      try {
        const out = await turnHook(client, ["--turn-review"], { sessionID: id, cwd: directory });
        if (!out?.trim()) return;
        const v = JSON.parse(out);
        if (v.decision !== "block" || typeof v.reason !== "string") return;
        const sent = await client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text: v.reason }] } });
        if (sent?.error) await say(client, `redline: the Continue could not be sent to opencode: ${JSON.stringify(sent.error)}`);
      } catch (e) {
        await say(client, `redline: the turn's review could not be answered: ${e.message}`);
      }
    },
//#end
    "tool.execute.before": async (input, output) => {
      if (!EDITS.has(input.tool)) return;
//#if turn
      // Recorded for the turn's review, never asked: the edit goes on whatever happens.
      await turnHook(client, PRE, {
        tool: input.tool,
        sessionID: input.sessionID,
        callID: input.callID,
        args: output.args,
        cwd: directory,
      });
//#end
//#if edit both
      let r;
      try {
        r = await ask({
          tool: input.tool,
          sessionID: input.sessionID,
          callID: input.callID,
          args: output.args,
          cwd: directory,
        });
      } catch (e) {
        throw unreviewed(`${REDLINE} did not start: ${e.message}`);
      }
      if (r.code !== 0) {
        const how = r.signal ? `was killed by ${r.signal}` : `exited with ${r.code}`;
        throw unreviewed(`redline hook ${how}${r.stderr ? `: ${r.stderr}` : ""}`);
      }
      let v;
      try {
        v = JSON.parse(r.stdout);
      } catch {
        throw unreviewed("redline hook answered something that is not JSON");
      }
      switch (v.verdict) {
        case "allow":
          // opencode passes this very object on to the tool: a new one would be ignored.
          for (const [k, val] of Object.entries(v.args ?? {})) output.args[k] = val;
          if (typeof v.note === "string") notes.set(input.callID, v.note);
          return;
        case "deny":
          throw new Error(String(v.reason));
        case "pass":
          if (r.stderr) process.stderr.write(`${r.stderr}\n`);
          return;
        default:
          throw unreviewed(`redline hook answered an unknown verdict`);
      }
//#end
    },
    "tool.execute.after": async (input, output) => {
      const note = notes.get(input.callID);
      if (note === undefined) return;
      notes.delete(input.callID);
      if (typeof output.output === "string") output.output += `\n\n${note}`;
    },
  }),
};
