// Interop: headless real Neovim (Debian's `nvim`) with Redline's plugin (editors/nvim) moves the
// cursor and selects lines in a workspace; the real CLIs connected to Redline receive it in their
// own terms: the Gemini CLI IdeClient (@google/gemini-cli-core 0.61.0) an `ide/contextUpdate`,
// Qwen Code and Claude Code under tmux the selection in their next model request.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { runProcess, startRedline } from './lib/redline.mjs';
import { clientEnv, startGeminiClient } from './lib/gemini.mjs';
import { nvimMissing, startNvim } from './lib/nvim.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeModel } from './qwen-fake-model.mjs';
import { qwenInstalled, startQwen, writeQwenSettings } from './qwen-driver.mjs';

const TEST_TIMEOUT_MS = 120_000;
const STEP_MS = 20_000;
const skip = nvimMissing() ?? false;

const LINES = ['first line', 'second line', 'third línea', 'fourth line', 'fifth line'];

async function workspace(t) {
  const dir = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-nvim-')));
  t.after(() => fsp.rm(dir, { recursive: true, force: true }));
  await fsp.writeFile(path.join(dir, 'a.txt'), LINES.join('\n') + '\n');
  await fsp.writeFile(path.join(dir, 'b.txt'), 'b\n');
  return dir;
}

/** The active file of a contextUpdate's params, or undefined. */
const activeOf = (params) => params?.workspaceState?.openFiles?.find((f) => f.isActive);

test('Neovim moves the cursor and selects lines: the Gemini CLI IdeClient receives them', { skip, timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await workspace(t);
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  const g = await startGeminiClient({ cwd: ws, env: clientEnv(r) });
  t.after(() => g.close());
  const c = await g.connect();
  assert.equal(c.state.status, 'connected', `not connected: ${c.state.details}\n${g.output()}`);
  assert.equal(c.tapped, true);

  const file = path.join(ws, 'a.txt');
  const n = await startNvim({ r, cwd: ws, file: 'b.txt' });
  t.after(() => n.stop());
  await n.keys(':edit a.txt<CR>');
  // Line 3, on the "í" of "línea": character 8 of the line (1-based), whatever its bytes.
  await n.keys('3G0fí');
  const cursor = await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' &&
      activeOf(e.params)?.path === file && activeOf(e.params)?.cursor?.line === 3,
    { timeoutMs: STEP_MS, what: 'a contextUpdate with the cursor on line 3' },
  );
  const active = activeOf(cursor.params);
  assert.deepEqual(active.cursor, { line: 3, character: 8 }, JSON.stringify(cursor.params));
  assert.equal(active.selectedText, undefined);
  const others = cursor.params.workspaceState.openFiles.filter((f) => !f.isActive);
  assert.deepEqual(others.map((f) => f.path), [path.join(ws, 'b.txt')], 'the other open buffer');
  assert.ok(others[0].timestamp < active.timestamp, 'the active file is the newest');

  // Select lines 3 to 4 (linewise): the selected text is theirs.
  await n.keys('Vj');
  const sel = await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.selectedText,
    { timeoutMs: STEP_MS, what: 'a contextUpdate with a selection' },
  );
  assert.equal(activeOf(sel.params).selectedText, 'third línea\nfourth line');
  assert.equal(activeOf(sel.params).cursor.line, 4);
  await n.keys('<Esc>');
  await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' &&
      activeOf(e.params)?.path === file && !activeOf(e.params)?.selectedText,
    { timeoutMs: STEP_MS, what: 'the selection cleared' },
  );

  // The CLI proposes a change to a.txt, the user accepts it in Redline, the CLI writes the file
  // (here the test, as the IdeClient leaves writing to the CLI): the buffer shows the new text.
  const proposal = ['first line', 'SECOND LINE', ...LINES.slice(2)].join('\n') + '\n';
  const diff = g.openDiff(file, proposal);
  await diff.started;
  const review = JSON.parse((await r.run(['review', 'wait', '--file', file, '--timeout', '20'])).stdout);
  const accepted = await r.run(['review', 'accept', String(review.id)]);
  assert.equal(accepted.code, 0, accepted.stderr);
  const result = await diff.result;
  assert.equal(result.status, 'accepted');
  await fsp.writeFile(file, result.content);
  await pollUntil(async () => {
    const line = await n.expr('getline(2)');
    return { ok: line === 'SECOND LINE', value: line };
  }, STEP_MS, 'the Neovim buffer to show the accepted text');

  // Neovim quits: the CLI no longer hears of its files.
  await n.stop();
  await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' &&
      (e.params.workspaceState.openFiles ?? []).length === 0,
    { timeoutMs: STEP_MS, what: 'an empty context once Neovim quit' },
  );
});

/** Every text a chat-completions request carries, joined. */
function textsOf(body) {
  const out = [];
  for (const m of body?.messages ?? []) {
    if (typeof m.content === 'string') out.push(m.content);
    else if (Array.isArray(m.content)) for (const p of m.content) out.push(typeof p === 'string' ? p : p?.text ?? '');
  }
  return out.join('\n');
}

test('Neovim selects lines: the real qwen sends them to its model as the IDE context', { skip: skip || (!qwenInstalled() && 'qwen is not installed: npm ci in tests/interop'), timeout: 180_000 }, async (t) => {
  const ws = await workspace(t);
  const model = await startFakeModel({ log: process.env.REDLINE_IT_VERBOSE ? (s) => console.error(s) : undefined });
  t.after(() => model.close());
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  await writeQwenSettings(r.dirs.home);
  const q = await startQwen({
    cwd: ws,
    env: {
      PATH: process.env.PATH, HOME: r.dirs.home, TMPDIR: r.dirs.tmp, XDG_CONFIG_HOME: r.dirs.config,
      XDG_RUNTIME_DIR: r.dirs.runtime, TERM: 'xterm-256color', LANG: 'C.UTF-8', REMOTE_CONTAINERS: '1',
      OPENAI_API_KEY: 'dummy-key-for-the-fake-model', OPENAI_BASE_URL: model.baseURL, OPENAI_MODEL: model.model,
    },
  });
  t.after(() => q.stop());
  const explain = async (fn) => {
    try {
      return await fn();
    } catch (err) {
      err.message += `\n--- qwen screen ---\n${await q.screen().catch(() => '(none)')}\n--- redline stderr ---\n${r.stderr?.().slice(-3000) ?? ''}`;
      throw err;
    }
  };
  await explain(async () => {
    await q.waitForScreen(/Type your message/, 60_000, 'qwen to show its input prompt');
    await pollUntil(async () => {
      const st = JSON.parse((await r.run(['status', '--json'])).stdout);
      const clients = st.workspaces.find((w) => w.path === ws)?.clients ?? [];
      return { ok: clients.length > 0, value: clients };
    }, STEP_MS, 'qwen to connect to Redline');

    // qwen shows nothing of the IDE context on screen: a Gemini IdeClient on the same workspace
    // tells when Redline has sent the update (to every session in one broadcast).
    const g = await startGeminiClient({ cwd: ws, env: clientEnv(r) });
    t.after(() => g.close());
    assert.equal((await g.connect()).state.status, 'connected');
    const n = await startNvim({ r, cwd: ws, file: 'a.txt' });
    t.after(() => n.stop());
    await n.keys('3GVj');
    await g.waitEvent(
      (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.selectedText,
      { timeoutMs: STEP_MS, what: 'the selection sent to the CLIs' },
    );
    await q.submit('What did I select? REDLINE-CONTEXT');
    const req = await model.waitFor((x) => textsOf(x.body).includes('REDLINE-CONTEXT'), STEP_MS, 'the prompt to reach the model');
    const text = textsOf(req.body);
    assert.ok(text.includes(path.join(ws, 'a.txt')), `the active file is in the request:\n${text}`);
    assert.ok(text.includes('third línea\nfourth line') || text.includes('third línea\\nfourth line'), `the selected text is in the request:\n${text}`);
  });
});

test('Neovim :RedlineReject rejects the pending review of the file, and its reason reaches the proposer', { skip, timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await workspace(t);
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  const file = path.join(ws, 'a.txt');
  const n = await startNvim({ r, cwd: ws, file: 'a.txt' });
  t.after(() => n.stop());
  const messages = async () => n.expr('execute("messages")');

  // No review of a.txt yet: the plugin shows Redline's error.
  await n.keys(':RedlineReject too early<CR>');
  await pollUntil(async () => {
    const m = await messages();
    return { ok: /reject: no review of .*a\.txt is pending/.test(m), value: m };
  }, STEP_MS, 'the no-review error in :messages');

  // A proposer that hears a reason: `redline propose --wait`.
  const proposing = runProcess(r.bin, ['propose', file, '--content-file', '-', '--wait', '--json'], {
    env: r.env, cwd: ws, input: 'all new\n', timeoutMs: 60_000,
  });
  await r.run(['review', 'wait', '--file', file, '--timeout', '20']);
  await n.keys(':RedlineReject too risky<CR>');
  const out = await proposing;
  assert.equal(out.code, 1, `propose --wait: ${out.stdout}${out.stderr}`);
  assert.deepEqual(JSON.parse(out.stdout), { decision: 'rejected', content: null, reason: 'too risky' });
  await pollUntil(async () => {
    const m = await messages();
    return { ok: /rejected the review of a\.txt/.test(m), value: m };
  }, STEP_MS, 'the confirmation in :messages');
  assert.equal(fs.readFileSync(file, 'utf8'), LINES.join('\n') + '\n', 'nothing was written');
  const left = JSON.parse((await r.run(['review', 'list', '--json'])).stdout);
  assert.deepEqual(left, []);

  // A CLI whose protocol takes no reason (the Gemini CLI IdeClient): rejected all the same, and
  // Neovim says the reason was not sent.
  const g = await startGeminiClient({ cwd: ws, env: clientEnv(r) });
  t.after(() => g.close());
  assert.equal((await g.connect()).state.status, 'connected');
  const diff = g.openDiff(file, 'from gemini\n');
  await diff.started;
  await r.run(['review', 'wait', '--file', file, '--timeout', '20']);
  await n.keys(':RedlineReject not this<CR>');
  assert.equal((await diff.result).status, 'rejected');
  await pollUntil(async () => {
    const m = await messages();
    return { ok: /rejected the review of a\.txt \(its CLI takes no reason: yours was not sent\)/.test(m), value: m };
  }, STEP_MS, 'the note that the reason was not sent');
});
