// Interop: the REAL Claude Code CLI (@anthropic-ai/claude-code 2.1.332, pinned in package.json)
// against `redline serve --headless`, with no network and no account.
//
//   cd tests/interop && npm install && REDLINE_BIN=/path/to/redline node --test claude.test.mjs
//
// claude runs under a private tmux server with a throwaway HOME shared with Redline (so Redline's
// lock lands in the ~/.claude/ide/ that claude scans), `claude --ide`, and ANTHROPIC_BASE_URL
// pointing at a local fake of the Messages API (claude-fake-api.mjs) that answers a prompt with
// Read, then Write, then text. See claude/README.md.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startRedline } from './lib/redline.mjs';
import { realTmpDir } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled, CLAUDE_VERSION } from './claude-driver.mjs';

const STEP_MS = 60_000;
const API_KEY = 'sk-ant-api03-redline-interop-0123456789abcdefghijklmnop';
const verbose = !!process.env.REDLINE_IT_VERBOSE;

/**
 * Presses `key` until the screen satisfies `done`: claude's dialogs ignore keys for a moment after
 * they appear (against answers typed ahead).
 */
async function pressUntil(c, key, done, what) {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    await c.keys(key);
    try {
      return await c.waitForScreen(done, 1000, what);
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

describe('Claude Code (real claude binary) against Redline', { skip: !claudeInstalled() && 'claude not installed (npm install in tests/interop)', timeout: 600_000 }, () => {
  let ws;
  let r;
  let api;
  let tmux;
  let one;

  before(async () => {
    ws = realTmpDir('rl-claude-ws-');
    api = await startFakeApi({ log: verbose ? (m) => console.log(m) : () => {} });
    r = await startRedline({ workspaces: [ws] });
    await writeClaudeConfig(r.dirs.home, { workspaces: [ws], apiKey: API_KEY });
    tmux = await startTmux();
  });

  after(async () => {
    await tmux?.stop();
    await r?.stop();
    await api?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  function env() {
    // Nothing but the lock file tells claude where Redline is: no CLAUDE_CODE_SSE_PORT.
    return claudeEnv({ home: r.dirs.home, apiBaseUrl: api.baseURL, apiKey: API_KEY });
  }

  async function reviews() {
    return r.json(['review', 'list', '--json']);
  }

  /** Prompts `c` to edit `name` to `content`; resolves with the Redline review once it is open. */
  async function proposeEdit(c, name, content, tag) {
    const filePath = path.join(ws, name);
    const trigger = `REDLINE-EDIT-${tag}`;
    const plan = api.addPlan({ trigger, filePath, content, final: `done ${tag}` });
    await c.submit(`${trigger} please`);
    await c.waitForScreen(/Opened changes in Redline/, STEP_MS, `claude to open the diff in Redline (${tag})`);
    const review = await pollUntil(
      async () => {
        const list = await reviews();
        const found = list.find((x) => x.filePath === filePath);
        return { ok: !!found, value: found ?? list };
      },
      STEP_MS,
      `Redline to list the review of ${name}`,
    );
    assert.equal(review.client.name, 'Claude Code');
    assert.equal(review.client.version, CLAUDE_VERSION);
    // Who really asked: the claude process behind the WebSocket, found by its socket.
    assert.equal(review.client.process?.program, 'Claude Code', JSON.stringify(review.client));
    assert.equal(review.client.process?.version, CLAUDE_VERSION);
    assert.equal(review.client.process?.cwd, ws);
    assert.match(review.client.process?.tty ?? '', /^\/dev\/pts\/\d+$/);
    assert.equal(review.workspace, ws);
    return { review, plan, filePath };
  }

  /** The Write's tool_result claude sends back to the model once the edit is settled, and the
   * turn's end on screen (a prompt typed before it would be queued into the same request). */
  async function writeResult(c, plan, tag) {
    const q = await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === plan, STEP_MS, `the Write result of plan ${plan}`);
    await c.waitForScreen(new RegExp(`● done ${tag}`), STEP_MS, `the end of turn ${tag}`);
    return q;
  }

  test('claude --ide connects by the lock file alone and /status says so', async () => {
    const st = await r.json(['status', '--json']);
    const w = st.workspaces.find((x) => x.path === ws);
    const lockFile = path.join(r.dirs.home, '.claude', 'ide', `${w.wsPort}.lock`);
    assert.ok(w.discoveryFiles.includes(lockFile), `status lists ${lockFile}: ${JSON.stringify(w.discoveryFiles)}`);
    assert.equal((fs.statSync(lockFile).mode & 0o777).toString(8), '600');
    const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    assert.equal(lock.pid, st.pid);
    assert.deepEqual(lock.workspaceFolders, [ws]);
    assert.equal(lock.ideName, 'Redline');
    assert.equal(lock.transport, 'ws');

    one = await tmux.claude({ name: 'one', cwd: ws, env: env() });
    await one.waitForScreen(/for shortcuts/, STEP_MS, 'claude to be ready');
    await pollUntil(
      async () => {
        const s = await r.json(['status', '--json']);
        const clients = s.workspaces[0].clients;
        return { ok: clients.some((c) => c.name === 'Claude Code' && c.version === CLAUDE_VERSION), value: clients };
      },
      STEP_MS,
      'redline status to list Claude Code as a client',
    );
    await one.submit('/status');
    await one.waitForScreen(/IDE:\s+Connected to Redline extension/, STEP_MS, '/status to show the IDE connected to Redline');
    await one.keys('Escape');
    await one.waitForScreen((s) => !/Esc to close/.test(s), STEP_MS, '/status to close');
  });

  test('accept with an edited text: the file holds exactly that text', async () => {
    fs.writeFileSync(path.join(ws, 'accept.txt'), 'before\n');
    const { review, plan, filePath } = await proposeEdit(one, 'accept.txt', 'proposed\n', 'ACCEPT');
    const edited = path.join(r.dirs.root, 'edited.txt');
    const text = 'edited by the user ✓\nsecond line\n';
    fs.writeFileSync(edited, text);
    const res = await r.run(['review', 'accept', String(review.id), '--content-file', edited]);
    assert.equal(res.code, 0, res.stderr);
    await writeResult(one, plan, 'ACCEPT');
    await pollUntil(async () => {
      const now = fs.readFileSync(filePath, 'utf8');
      return { ok: now === text, value: now };
    }, STEP_MS, 'claude to write the accepted text');
    assert.deepEqual(await reviews(), []);
  });

  test('reject: the file is unchanged', async () => {
    fs.writeFileSync(path.join(ws, 'reject.txt'), 'keep me\n');
    const { review, plan, filePath } = await proposeEdit(one, 'reject.txt', 'unwanted\n', 'REJECT');
    const res = await r.run(['review', 'reject', String(review.id)]);
    assert.equal(res.code, 0, res.stderr);
    // A rejected Write ends claude's turn: no result goes back to the model.
    await one.waitForScreen(/Rejected write to reject\.txt/, STEP_MS, 'claude to show the rejection');
    await one.waitForScreen((s) => !/Do you want to/.test(s), STEP_MS, 'claude to drop its prompt');
    assert.ok(!api.requests.some((q) => q.decision.kind === 'final' && q.decision.plan === plan), 'no Write result');
    assert.deepEqual(await reviews(), []);
    assert.equal(fs.readFileSync(filePath, 'utf8'), 'keep me\n');
  });

  test('"Yes" in claude\'s own prompt: the review leaves Redline and the file holds the proposal', async () => {
    fs.writeFileSync(path.join(ws, 'terminal.txt'), 'old\n');
    const { plan, filePath } = await proposeEdit(one, 'terminal.txt', 'from the terminal\n', 'TERMINAL');
    await one.waitForScreen(/Do you want to overwrite terminal\.txt\?/, STEP_MS, 'the terminal prompt');
    await pressUntil(one, '1', (s) => !/Do you want to overwrite terminal\.txt\?/.test(s), 'the prompt to take "1" (Yes)');
    await writeResult(one, plan, 'TERMINAL');
    await pollUntil(async () => {
      const list = await reviews();
      return { ok: list.length === 0, value: list };
    }, STEP_MS, 'the review to leave Redline');
    assert.equal(fs.readFileSync(filePath, 'utf8'), 'from the terminal\n');
  });

  test('two claude sessions in two windows (the second connected with /ide) each get their own decision', async () => {
    // The second one without --ide: the /ide picker lists Redline (from its lock) and connects.
    const two = await tmux.claude({ name: 'two', cwd: ws, env: env(), args: [] });
    await two.waitForScreen(/for shortcuts/, STEP_MS, 'the second claude to be ready');
    await two.submit('/ide');
    await two.waitForScreen(/Connect to an IDE/, STEP_MS, 'the /ide picker');
    await pressUntil(two, 'Up', /❯\s*(✔\s*)?Redline/, 'Redline to be the picked entry');
    await two.keys('Enter');
    // claude then offers to connect automatically from now on: "No, connect with /ide".
    await two.waitForScreen(/Connect to your IDE automatically\?/, STEP_MS, 'the auto-connect question');
    await pressUntil(two, 'Enter', (s) => !/Connect to your IDE automatically\?/.test(s), 'the answer to be taken');
    await pollUntil(
      async () => {
        const s = await r.json(['status', '--json']);
        const n = s.workspaces[0].clients.filter((c) => c.name === 'Claude Code').length;
        return { ok: n === 2, value: s.workspaces[0].clients };
      },
      STEP_MS,
      'the second claude to connect through /ide',
    ).catch(async (e) => {
      throw new Error(`${e.message}\n--- screen ---\n${await two.screen()}`);
    });
    await two.waitForScreen((s) => !/Connect to an IDE/.test(s), STEP_MS, 'the picker to close');
    fs.writeFileSync(path.join(ws, 'one.txt'), 'one\n');
    fs.writeFileSync(path.join(ws, 'two.txt'), 'two\n');
    const a = await proposeEdit(one, 'one.txt', 'one proposed\n', 'ONE');
    const b = await proposeEdit(two, 'two.txt', 'two proposed\n', 'TWO');
    assert.notEqual(a.review.id, b.review.id);
    const st = await r.json(['status', '--json']);
    assert.equal(st.workspaces[0].clients.filter((c) => c.name === 'Claude Code').length, 2);
    // Decide the second first: each answer reaches only the session that asked.
    assert.equal((await r.run(['review', 'reject', String(b.review.id)])).code, 0);
    await two.waitForScreen(/Rejected write to two\.txt/, STEP_MS, 'the second claude to show the rejection');
    assert.equal((await r.run(['review', 'accept', String(a.review.id)])).code, 0);
    await writeResult(one, a.plan, 'ONE');
    await pollUntil(async () => {
      const now = fs.readFileSync(a.filePath, 'utf8');
      return { ok: now === 'one proposed\n', value: now };
    }, STEP_MS, 'the first claude to write its accepted proposal');
    assert.equal(fs.readFileSync(b.filePath, 'utf8'), 'two\n');
    assert.deepEqual(await reviews(), []);
  });
});

// 150 s idle, several of Redline's 30 s pings: opt in with REDLINE_IT_LONG=1.
describe('an idle Claude Code session', { skip: (!claudeInstalled() && 'claude not installed') || (!process.env.REDLINE_IT_LONG && 'set REDLINE_IT_LONG=1'), timeout: 300_000 }, () => {
  test('stays connected for 150 s and then still gets its decision', async (t) => {
    const ws = realTmpDir('rl-claude-idle-');
    const api = await startFakeApi();
    const r = await startRedline({ workspaces: [ws] });
    const tmux = await startTmux();
    t.after(async () => {
      await tmux.stop();
      await r.stop();
      await api.close();
      fs.rmSync(ws, { recursive: true, force: true });
    });
    await writeClaudeConfig(r.dirs.home, { workspaces: [ws], apiKey: API_KEY });
    const c = await tmux.claude({ name: 'idle', cwd: ws, env: claudeEnv({ home: r.dirs.home, apiBaseUrl: api.baseURL, apiKey: API_KEY }) });
    await c.waitForScreen(/for shortcuts/, STEP_MS, 'claude to be ready');
    const sessions = async () => (await r.json(['status', '--json'])).workspaces[0].clients.map((x) => x.session);
    const first = await pollUntil(async () => {
      const s = await sessions();
      return { ok: s.length === 1, value: s };
    }, STEP_MS, 'claude to connect');
    // The session must not change or vanish while idle: polled until the deadline.
    const idleMs = 150_000;
    const changed = await pollUntil(async () => {
      const s = await sessions();
      return { ok: JSON.stringify(s) !== JSON.stringify(first), value: s };
    }, idleMs, 'the idle session to change').then((s) => s, () => null);
    assert.equal(changed, null, `the session changed while idle: ${JSON.stringify(changed)}`);

    const file = path.join(ws, 'after-idle.txt');
    fs.writeFileSync(file, 'before\n');
    api.addPlan({ trigger: 'REDLINE-EDIT-IDLE', filePath: file, content: 'still here\n', final: 'done IDLE' });
    await c.submit('REDLINE-EDIT-IDLE please');
    await c.waitForScreen(/Opened changes in Redline/, STEP_MS, 'the diff after the idle spell');
    const review = await pollUntil(async () => {
      const list = await r.json(['review', 'list', '--json']);
      return { ok: list.length === 1, value: list[0] ?? list };
    }, STEP_MS, 'the review');
    assert.equal((await r.run(['review', 'accept', String(review.id)])).code, 0);
    await c.waitForScreen(/● done IDLE/, STEP_MS, 'the end of the turn');
    assert.equal(fs.readFileSync(file, 'utf8'), 'still here\n');
    assert.deepEqual(await sessions(), first, 'the same connection throughout');
  });
});
