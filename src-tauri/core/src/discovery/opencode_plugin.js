// Redline's review of opencode's edits. Written by `redline hooks install opencode` and removed by `redline hooks uninstall opencode`; a change made here is overwritten by the next install.
//
// Before each file-writing tool runs, it asks Redline (`redline hook opencode`, run with an
// argument list, never through a shell) and does what the user decided: a rejection fails the
// tool with the user's reason, an acceptance with edits makes the tool write the user's text.
import { spawn } from "node:child_process";

const REDLINE = "__REDLINE__";
const EDITS = new Set(["write", "edit", "apply_patch"]);
// What the model is told after a tool wrote the user's text instead of its own, by call.
const notes = new Map();

function ask(call) {
  return new Promise((resolve, reject) => {
    const child = spawn(REDLINE, ["hook", "opencode"], {
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

export default {
  id: "redline",
  server: async ({ directory }) => ({
    "tool.execute.before": async (input, output) => {
      if (!EDITS.has(input.tool)) return;
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
    },
    "tool.execute.after": async (input, output) => {
      const note = notes.get(input.callID);
      if (note === undefined) return;
      notes.delete(input.callID);
      if (typeof output.output === "string") output.output += `\n\n${note}`;
    },
  }),
};
