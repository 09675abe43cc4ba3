// Interop: Redline's pre-edit hook (`redline hooks install copilot`) in the REAL GitHub Copilot CLI
// (@github/copilot 1.0.102, pinned in package.json), offline, in a loopback-only network namespace.
//
//   cd tests/interop && REDLINE_BIN=/path/to/redline node --test copilot-hook.test.mjs
//
// copilot runs under a private tmux server with a throwaway HOME, its IDE connection off (the hook
// is the only review path), and a fake Chat Completions API proposing one `edit` (or `create`) per
// prompt (copilot-fake-api.mjs). The hook reaches Redline's control socket through XDG_RUNTIME_DIR,
// which copilot passes on to the command it runs (a path socket: the network namespace does not
// hide it). Accept (the file ends as proposed, copilot asks nothing of its own), accept with the
// reviewer's text (`modifiedArgs`: the file ends as that text, the model reads Redline's note),
// reject with a reason (the file is unchanged, the model reads the reason), and no Redline running
// (one line on stderr, copilot's own permission prompt as without the hook). Copilot lets the tool
// call go on when a hook times out (its log: "timed out; allowing the tool call to proceed"), so
// `redline hook --deny-after` denies first.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ok, startRedline } from './lib/redline.mjs';
import { realTmpDir } from './lib/dirs.mjs';
import { startFakeApi, CREATE_TOOL } from './copilot-fake-api.mjs';
import { copilotHome, startTmux, copilotInstalled, isolationUnavailable, waitForEditPermission, approveEdit, READY } from './copilot-driver.mjs';

const STEP_MS = 60_000;
const verbose = !!process.env.REDLINE_IT_VERBOSE;
const log = verbose ? (m) => console.log(m) : () => {};

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : p?.text ?? '')).join('\n');
  return content == null ? '' : JSON.stringify(content);
}

const skip = (!copilotInstalled() && 'copilot not installed (npm install in tests/interop)') || isolationUnavailable() || false;

describe('GitHub Copilot CLI (real copilot) with Redline as its preToolUse hook', { skip, timeout: 400_000 }, () => {
  let ws, home, r, api, tmux, c, installed;
  const homes = [];

  before(async () => {
    ws = realTmpDir('rl-hooks-copilot-ws-');
    api = await startFakeApi({ log });
    r = await startRedline({ workspaces: [ws] });
    // The IDE connection off: Redline's hook is the only review.
    home = await copilotHome({ trustedFolders: [ws], settings: { ide: { autoConnect: false } } });
    // The user's own hook file beside Redline's: never touched.
    fs.mkdirSync(path.join(home.copilotDir, 'hooks'));
    const theirs = path.join(home.copilotDir, 'hooks', 'audit.json');
    fs.writeFileSync(theirs, JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: 'command', bash: 'true' }] } }));
    installed = await ok(r, ['hooks', 'install', 'copilot'], { env: { ...r.env, HOME: home.home, COPILOT_HOME: home.copilotDir } });
    tmux = await startTmux();
    c = await tmux.copilot({ name: 'hooked', cwd: ws, home, api, env: { XDG_RUNTIME_DIR: r.dirs.runtime } });
    await c.waitForScreen(READY, STEP_MS, 'copilot to be ready');
  });

  after(async () => {
    await tmux?.stop();
    await r?.stop();
    await api?.close();
    await home?.stop();
    for (const h of homes) await h.stop();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  async function explain(err, pane = c) {
    err.message += `\n--- screen ---\n${await pane?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
    return err;
  }

  /** Prompts copilot into the plan's tool; resolves with the review Redline opened for it. */
  async function propose(tag, plan) {
    const trigger = `REDLINE-HOOK-${tag}`;
    const n = api.addPlan({ trigger, final: `done ${tag}`, ...plan });
    await c.submit(`${trigger} please`);
    await api.waitFor((q) => q.decision.kind === 'edit' && q.decision.plan === n, STEP_MS, `copilot to send ${trigger}`);
    const review = JSON.parse(await ok(r, ['review', 'wait', '--file', plan.path, '--timeout', String(STEP_MS / 1000)]));
    assert.equal(review.client.name, 'Copilot CLI', JSON.stringify(review.client));
    // The hook runs before copilot's own permission prompt: none while Redline asks.
    assert.doesNotMatch(await c.screen(), /Do you want to (edit|create)/, 'copilot asked its own permission before the hook answered');
    return { review, n };
  }

  /** The request carrying the tool's result back to the model, once the turn is over. */
  async function toolResult(n, tag) {
    const q = await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === n, STEP_MS, `the ${tag} tool result`);
    await c.waitForScreen(new RegExp(`● done ${tag}`), STEP_MS, `the end of turn ${tag}`);
    return q;
  }

  test('hooks install copilot: a file of its own in ~/.copilot/hooks, saying copilot lets an edit through on timeout; again changes no byte', async () => {
    const file = path.join(home.copilotDir, 'hooks', 'redline.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(doc.version, 1);
    const [entry] = doc.hooks.preToolUse;
    assert.deepEqual(Object.keys(doc.hooks), ['preToolUse']);
    assert.equal(entry.type, 'command');
    assert.equal(entry.bash, `${fs.realpathSync(r.bin)} hook copilot --deny-after 3540`);
    assert.equal(entry.matcher, '^(edit|create)$');
    assert.equal(entry.timeoutSec, 3600);
    assert.match(installed, /Copilot CLI goes on with an edit whose hook runs out of time: Redline's hook denies it after 59 minutes/);
    const bytes = fs.readFileSync(file);
    const again = await ok(r, ['hooks', 'install', 'copilot'], { env: { ...r.env, HOME: home.home, COPILOT_HOME: home.copilotDir } });
    assert.match(again, /already in/);
    assert.deepEqual(fs.readFileSync(file), bytes);
    assert.ok(fs.existsSync(path.join(home.copilotDir, 'hooks', 'audit.json')), 'the user\'s hook file is left');
  });

  test('accept (edit): allow; copilot writes exactly the proposal and asks nothing of its own', async () => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo ✓\nthree\n');
    try {
      const { review, n } = await propose('A', { path: file, oldStr: 'two ✓', newStr: 'TWO ✓\nand more' });
      assert.equal(review.readOnly ?? null, null, 'Copilot CLI takes the reviewer\'s edits');
      await ok(r, ['review', 'accept', String(review.id)]);
      const q = await toolResult(n, 'A');
      assert.match(q.decision.result, /updated with changes/);
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO ✓\nand more\nthree\n');
      assert.doesNotMatch(await c.screen(), /Do you want to edit/);
    } catch (err) {
      throw await explain(err);
    }
  });

  test('accept with the reviewer\'s text (edit): the file ends exactly as that text, and the model reads Redline\'s note', async () => {
    const file = path.join(ws, 'b.txt');
    fs.writeFileSync(file, 'alpha\nbeta\ngamma\n');
    const edited = path.join(home.home, 'b.edited');
    fs.writeFileSync(edited, 'alpha\nBETA, as the reviewer wrote it\ngamma\ndelta\n');
    try {
      const { review, n } = await propose('B', { path: file, oldStr: 'beta', newStr: 'BETA' });
      await ok(r, ['review', 'accept', String(review.id), '--content-file', edited]);
      const q = await toolResult(n, 'B');
      assert.match(q.decision.result, /updated with changes/);
      assert.equal(fs.readFileSync(file, 'utf8'), fs.readFileSync(edited, 'utf8'));
      // copilot sends a hook's additionalContext as a user message after the tool's result.
      const notes = q.body.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content));
      assert.ok(notes.some((t) => t.startsWith('Additional context from preToolUse hook') && t.includes('changed it before it was written') && t.includes(file)), JSON.stringify(notes));
    } catch (err) {
      throw await explain(err);
    }
  });

  test('accept with the reviewer\'s text (create): the new file holds exactly that text', async () => {
    const file = path.join(ws, 'new.txt');
    const edited = path.join(home.home, 'new.edited');
    fs.writeFileSync(edited, 'the reviewer\'s new file\n');
    try {
      const { review, n } = await propose('N', { path: file, fileText: 'the model\'s new file\n' });
      await ok(r, ['review', 'accept', String(review.id), '--content-file', edited]);
      const q = await toolResult(n, 'N');
      assert.equal(q.body.messages.findLast((m) => m.tool_calls)?.tool_calls[0].function.name, CREATE_TOOL);
      assert.doesNotMatch(q.decision.result, /error|denied/i, q.decision.result);
      assert.equal(fs.readFileSync(file, 'utf8'), 'the reviewer\'s new file\n');
    } catch (err) {
      throw await explain(err);
    }
  });

  test('reject with a reason: deny; the file is unchanged and the model reads the reason', async () => {
    const file = path.join(ws, 'c.txt');
    fs.writeFileSync(file, 'keep me\n');
    try {
      const { review, n } = await propose('C', { path: file, oldStr: 'keep', newStr: 'drop' });
      await ok(r, ['review', 'reject', String(review.id), '--reason', 'keep the public name; add an alias instead']);
      const q = await toolResult(n, 'C');
      assert.equal(q.decision.result, 'Denied by preToolUse hook: keep the public name; add an alias instead');
      assert.equal(fs.readFileSync(file, 'utf8'), 'keep me\n');
    } catch (err) {
      throw await explain(err);
    }
  });

  test('no Redline running: the hook says so in one line and copilot\'s own permission prompt runs', async () => {
    // Another copilot whose hook finds no Redline: an empty runtime dir of its own.
    const runtime = realTmpDir('rl-hooks-copilot-norl-');
    fs.chmodSync(runtime, 0o700);
    const other = await tmux.copilot({ name: 'alone', cwd: ws, home, api, env: { XDG_RUNTIME_DIR: runtime } });
    const file = path.join(ws, 'd.txt');
    fs.writeFileSync(file, 'x\n');
    try {
      await other.waitForScreen(READY, STEP_MS, 'the second copilot to be ready');
      const n = api.addPlan({ trigger: 'REDLINE-HOOK-D', path: file, oldStr: 'x', newStr: 'y', final: 'done D' });
      await other.submit('REDLINE-HOOK-D please');
      await waitForEditPermission(other, file);
      assert.equal(fs.readFileSync(file, 'utf8'), 'x\n');
      await approveEdit(other);
      await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === n, STEP_MS, 'the D tool result');
      await other.waitForScreen(/● done D/, STEP_MS, 'the end of turn D');
      assert.equal(fs.readFileSync(file, 'utf8'), 'y\n');
      // copilot logs what its hook printed on stderr: Redline's one line.
      const line = await home.waitForLog(/redline: Redline is not running/, STEP_MS, 'copilot to log the hook\'s stderr');
      assert.match(line, /Copilot CLI's own approval runs/);
      const list = JSON.parse(await ok(r, ['review', 'list', '--json']));
      assert.deepEqual(list, [], 'the running Redline was never asked');
    } catch (err) {
      throw await explain(err, other);
    } finally {
      fs.rmSync(runtime, { recursive: true, force: true });
    }
  });

  test('--deny-after denies before copilot\'s hook timeout, past which copilot would let the edit go on', async () => {
    // A home of its own whose hook times out after 3 s (as 3600 s would, sooner) and denies after 1.
    const short = await copilotHome({ trustedFolders: [ws], settings: { ide: { autoConnect: false } } });
    homes.push(short);
    fs.mkdirSync(path.join(short.copilotDir, 'hooks'));
    const entry = { type: 'command', bash: `${fs.realpathSync(r.bin)} hook copilot --deny-after 1`, matcher: '^(edit|create)$', timeoutSec: 3 };
    fs.writeFileSync(path.join(short.copilotDir, 'hooks', 'redline.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [entry] } }));
    const other = await tmux.copilot({ name: 'short', cwd: ws, home: short, api, env: { XDG_RUNTIME_DIR: r.dirs.runtime } });
    const file = path.join(ws, 'e.txt');
    fs.writeFileSync(file, 'e\n');
    try {
      await other.waitForScreen(READY, STEP_MS, 'the third copilot to be ready');
      const n = api.addPlan({ trigger: 'REDLINE-HOOK-E', path: file, oldStr: 'e', newStr: 'E', final: 'done E' });
      await other.submit('REDLINE-HOOK-E please');
      const q = await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === n, STEP_MS, 'the E tool result');
      assert.match(q.decision.result, /^Denied by preToolUse hook: Nobody decided on this edit in Redline within 1 seconds/);
      assert.equal(fs.readFileSync(file, 'utf8'), 'e\n');
      const list = JSON.parse(await ok(r, ['review', 'list', '--json']));
      assert.deepEqual(list, [], 'the review is withdrawn');
    } catch (err) {
      throw await explain(err, other);
    }
  });

  // Every accept carries Redline's own modifiedArgs (the whole reviewed text for the whole
  // accepted one): copilot's own matching of old_str never decides what is written.
  test('every accept writes exactly the reviewed bytes: CRLF, curly quotes, trailing spaces, no final newline', async () => {
    const corpus = [
      { name: 'crlf.txt', text: 'one\r\ntwo\r\nthree\r\n', oldStr: 'two', newStr: 'TWO' },
      { name: 'quotes.txt', text: 'say \u201chi\u201d\nand \'bye\'\n', oldStr: 'say \u201chi\u201d', newStr: 'say \u201chello\u201d' },
      { name: 'spaces.txt', text: 'x = 1\nx = 1  \n\tx = 1\n', oldStr: 'x = 1  ', newStr: 'x = 2' },
      { name: 'nonl.txt', text: 'first\nlast', oldStr: 'last', newStr: 'LAST' },
    ];
    for (const [i, { name, text, oldStr, newStr }] of corpus.entries()) {
      const file = path.join(ws, name);
      fs.writeFileSync(file, text);
      try {
        const { review, n } = await propose(`X${i}`, { path: file, oldStr, newStr });
        await ok(r, ['review', 'accept', String(review.id)]);
        const q = await toolResult(n, `X${i}`);
        assert.doesNotMatch(String(q.decision.result), /denied|error|fail/i, `${name}: ${q.decision.result}`);
        assert.equal(fs.readFileSync(file, 'utf8'), text.split(oldStr).join(newStr), `${name}: copilot wrote what the review showed`);
      } catch (err) {
        throw await explain(err);
      }
    }
  });

  // The review ends undecided (its workspace turned off while it is open): a deny the model
  // reads, nothing written (before, the hook passed and copilot asked its own prompt).
  test('the review withdrawn mid-review (its workspace turned off): deny; the file is unchanged and the model reads why', async () => {
    const file = path.join(ws, 'w.txt');
    fs.writeFileSync(file, 'untouched\n');
    try {
      const { n } = await propose('W', { path: file, oldStr: 'untouched', newStr: 'never' });
      await ok(r, ['workspace', 'disable', ws]);
      const q = await toolResult(n, 'W');
      assert.match(String(q.decision.result), /^Denied by preToolUse hook: Redline did not let this edit through/, q.decision.result);
      assert.equal(fs.readFileSync(file, 'utf8'), 'untouched\n');
    } catch (err) {
      throw await explain(err);
    } finally {
      await ok(r, ['workspace', 'enable', ws]);
    }
  });

  test('hooks uninstall copilot removes only its own file', async () => {
    const env = { ...r.env, HOME: home.home, COPILOT_HOME: home.copilotDir };
    assert.match(await ok(r, ['hooks', 'uninstall', 'copilot'], { env }), /removed/);
    assert.ok(!fs.existsSync(path.join(home.copilotDir, 'hooks', 'redline.json')));
    assert.ok(fs.existsSync(path.join(home.copilotDir, 'hooks', 'audit.json')));
  });
});
