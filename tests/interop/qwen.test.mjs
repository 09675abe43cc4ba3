// Interop: the REAL Qwen Code CLI (@qwen-code/qwen-code 0.24.4, pinned in package.json)
// against `redline serve --headless`.
//
//   cd tests/interop && npm ci && REDLINE_BIN=/path/to/redline node --test qwen.test.mjs
//
// qwen runs in a private tmux server with a throwaway HOME shared with Redline (so Redline's
// lock file lands in the ~/.qwen/ide/ that qwen scans), user settings that pick OpenAI-compatible
// API-key auth and enable IDE mode, and OPENAI_BASE_URL pointing at a local fake model
// (qwen-fake-model.mjs) that answers with read_file → write_file tool calls. See qwen/README.md.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { startRedline } from './lib/redline.mjs';
import { realTmpDir } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeModel } from './qwen-fake-model.mjs';
import { startQwen, writeQwenSettings, after as screenAfter, qwenInstalled, QWEN_PKG_DIR, QWEN_VERSION } from './qwen-driver.mjs';

// What Qwen Code 0.24.4 sends as MCP clientInfo from its IdeClient (ide-client.ts: a TODO says
// it should become the CLI version one day).
const QWEN_MCP_CLIENT = { name: 'streamable-http-client', version: '1.0.0' };
const LOCK_RE = /^\d+\.lock$/;
const STEP_MS = 45_000;

async function status(r) {
  const res = await r.run(['status', '--json']);
  assert.equal(res.code, 0, `redline status --json exited ${res.code}: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

function wsStatus(st, ws) {
  const w = st.workspaces.find((x) => x.path === ws);
  assert.ok(w, `redline status has no workspace ${ws}: ${JSON.stringify(st)}`);
  return w;
}

async function runJson(r, args) {
  const res = await r.run(args);
  assert.equal(res.code, 0, `redline ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  try {
    return JSON.parse(res.stdout);
  } catch (err) {
    assert.fail(`redline ${args.join(' ')}: stdout is not JSON (${err.message}): ${JSON.stringify(res.stdout)}`);
  }
}

/** POST a bare MCP initialize to the server; resolves with the HTTP status. */
function postInitialize(port, headers) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '0' } },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
    req.on('timeout', () => req.destroy(new Error('initialize probe timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Waits until Redline lists no review: qwen's closeDiff after an answer in its terminal. */
function reviewDropped(r) {
  return pollUntil(
    async () => {
      const list = await runJson(r, ['review', 'list', '--json']);
      return { ok: list.length === 0, value: list };
    },
    15_000,
    'Redline to drop the review after qwen\'s closeDiff',
  );
}

/** Checks the lock file Redline wrote for `ws` in `ideDir`; returns {file, lock, port}. */
async function checkLockFile(r, ws, ideDir) {
  const st = await status(r);
  const w = wsStatus(st, ws);
  assert.equal(typeof w.port, 'number', 'status.workspaces[].port is a number');
  const file = path.join(ideDir, `${w.port}.lock`);
  assert.ok(fs.existsSync(file), `no lock file ${file}; ${ideDir} holds: ${fs.existsSync(ideDir) ? fs.readdirSync(ideDir).join(', ') : '(missing dir)'}`);
  assert.match(path.basename(file), LOCK_RE, 'qwen only scans ^\\d+\\.lock$ names');
  assert.ok(w.discoveryFiles.includes(file), `status.discoveryFiles ${JSON.stringify(w.discoveryFiles)} lists ${file}`);

  const mode = fs.statSync(file).mode & 0o777;
  assert.equal(mode.toString(8), '600', 'lock file mode');

  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(lock.port, w.port, 'lock.port');
  assert.equal(typeof lock.workspacePath, 'string');
  assert.deepEqual(lock.workspacePath.split(path.delimiter), [ws], 'lock.workspacePath is the one workspace');
  assert.equal(lock.ppid, st.pid, 'lock.ppid is the running Redline PID (qwen deletes locks whose ppid is dead)');
  const servePid = r.pid ?? r.process?.pid;
  if (servePid !== undefined) assert.equal(st.pid, servePid, 'status.pid is the `redline serve` process');
  assert.doesNotThrow(() => process.kill(lock.ppid, 0), 'ppid is alive');
  assert.equal(typeof lock.authToken, 'string');
  assert.ok(lock.authToken.length >= 16, 'authToken is a real secret');
  assert.equal(typeof lock.ideInfo?.name, 'string');
  assert.equal(typeof lock.ideInfo?.displayName, 'string');
  assert.ok(lock.ideInfo.name.length > 0 && lock.ideInfo.displayName.length > 0, 'ideInfo names are non-empty');
  assert.notEqual(lock.ideInfo.name, 'vscode', 'Redline must not claim to be VS Code');

  // The token in the lock is the one that opens the server; others are refused.
  assert.equal(await postInitialize(w.port, {}), 401, 'initialize without a token');
  assert.equal(await postInitialize(w.port, { authorization: 'Bearer not-the-token' }), 401, 'initialize with a wrong token');
  return { file, lock, port: w.port };
}

describe('Qwen Code lock file', { timeout: 120_000 }, () => {
  test('(a2) QWEN_HOME moves the lock to $QWEN_HOME/ide/, and `redline quit` removes it', async () => {
    const ws = realTmpDir('rl-qwen-ws-');
    const qwenHome = realTmpDir('rl-qwen-home-');
    let r;
    try {
      r = await startRedline({ workspaces: [ws], env: { QWEN_HOME: qwenHome } });
      const { file } = await checkLockFile(r, ws, path.join(qwenHome, 'ide'));
      const homeIde = path.join(r.dirs.home, '.qwen', 'ide');
      const stray = fs.existsSync(homeIde) ? fs.readdirSync(homeIde).filter((n) => LOCK_RE.test(n)) : [];
      assert.deepEqual(stray, [], 'no lock in ~/.qwen/ide when QWEN_HOME is set');

      const q = await r.run(['quit']);
      assert.equal(q.code, 0, `redline quit: ${q.stderr}`);
      await pollUntil(async () => ({ ok: !fs.existsSync(file), value: file }), 15_000, 'the lock file to be removed after `redline quit`');
    } finally {
      await r?.stop();
      await fsp.rm(ws, { recursive: true, force: true });
      await fsp.rm(qwenHome, { recursive: true, force: true });
    }
  });
});

describe(`real qwen ${QWEN_VERSION} against Redline`, { timeout: 300_000 }, () => {
  let ws;
  let r;
  let model;
  let q;
  let lock;
  let scratch;

  /** Adds the qwen screen and Redline's stderr to a failure. */
  async function explain(fn) {
    try {
      return await fn();
    } catch (err) {
      const screen = q ? await q.screen().catch(() => '(no screen)') : '(qwen not started)';
      const stderr = typeof r?.stderr === 'function' ? r.stderr().slice(-4000) : '(not captured)';
      const reqs = model ? model.requests.map((x) => `#${x.n}:${x.decision.kind}`).join(' ') : '';
      err.message += `\n--- qwen screen ---\n${screen}\n--- fake model requests: ${reqs}\n--- redline stderr (tail) ---\n${stderr}`;
      throw err;
    }
  }

  before(async () => {
    assert.ok(qwenInstalled(), `qwen is not installed at ${QWEN_PKG_DIR}: run \`npm ci\` in tests/interop`);
    ws = realTmpDir('rl-qwen-ws-');
    scratch = realTmpDir('rl-qwen-scratch-');
    fs.writeFileSync(path.join(ws, 'accept.txt'), 'original accept line\n');
    fs.writeFileSync(path.join(ws, 'reject.txt'), 'original reject line\n');
    model = await startFakeModel({ log: process.env.REDLINE_IT_VERBOSE ? (s) => console.error(s) : undefined });
    r = await startRedline({ workspaces: [ws] });
  });

  after(async () => {
    await q?.stop();
    await r?.stop();
    await model?.close();
    if (ws) await fsp.rm(ws, { recursive: true, force: true });
    if (scratch) await fsp.rm(scratch, { recursive: true, force: true });
  });

  test('(a) lock file ~/.qwen/ide/<PORT>.lock: fields, mode 0600, ppid = Redline PID', async () => {
    ({ lock } = await checkLockFile(r, ws, path.join(r.dirs.home, '.qwen', 'ide')));
  });

  test('(b) qwen finds Redline by the lock file alone and connects', { timeout: 90_000 }, async () => {
    assert.ok(lock, 'needs (a)');
    await writeQwenSettings(r.dirs.home);
    // No QWEN_CODE_IDE_* variables, no TERM_PROGRAM: the lock file (with ideInfo) is the only clue.
    const env = {
      PATH: process.env.PATH,
      HOME: r.dirs.home,
      TMPDIR: r.dirs.tmp,
      XDG_CONFIG_HOME: r.dirs.config,
      XDG_RUNTIME_DIR: r.dirs.runtime,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      REMOTE_CONTAINERS: '1',
      OPENAI_API_KEY: 'dummy-key-for-the-fake-model',
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_MODEL: model.model,
    };
    // Nor the legacy file qwen also looks for: discovery must come from the lock.
    const legacy = fs.readdirSync(r.dirs.tmp).filter((n) => n.startsWith('qwen-code-ide-server-'));
    assert.deepEqual(legacy, [], 'no legacy qwen-code-ide-server-*.json in TMPDIR');

    q = await startQwen({ cwd: ws, env });
    await explain(async () => {
      await q.waitForScreen(/Type your message/, 60_000, 'qwen to show its input prompt');
      // Redline sees the client (qwen connects at startup when ide.enabled is set).
      const client = await pollUntil(
        async () => {
          const w = wsStatus(await status(r), ws);
          return { ok: w.clients.length > 0, value: w.clients };
        },
        STEP_MS,
        'redline status to list a client for the workspace',
      );
      assert.deepEqual(
        client.map((c) => ({ name: c.name, version: c.version })),
        [QWEN_MCP_CLIENT],
        'the one client is qwen (by its MCP clientInfo)',
      );
      // And qwen says so.
      await q.submit('/ide status');
      const screen = await q.waitForScreen(
        (s) => /✓ Connected to|✗ Disconnected|◐ Connecting/.test(screenAfter(s, '/ide status')),
        STEP_MS,
        'the /ide status answer',
      );
      const answer = screenAfter(screen, '/ide status');
      assert.match(answer, new RegExp(`✓ Connected to ${lock.ideInfo.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    });
  });

  test('(c) an edit opens a review; accept with edited text; qwen writes exactly that text', { timeout: 120_000 }, async () => {
    assert.ok(q, 'needs (b)');
    const file = path.join(ws, 'accept.txt');
    const original = fs.readFileSync(file, 'utf8');
    const proposed = 'model proposal line\n';
    const edited = 'edited by the reviewer\nsecond line, also from the reviewer\n';
    model.setPlan({ trigger: 'REDLINE-ACCEPT', filePath: file, content: proposed, final: 'Accept flow finished.' });

    await explain(async () => {
      await q.submit('Please do REDLINE-ACCEPT');
      const review = await runJson(r, ['review', 'wait', '--file', file, '--timeout', '40']);
      assert.equal(review.filePath, file, 'review.filePath is exactly what qwen sent');
      assert.equal(review.workspace, ws);
      assert.equal(review.client.name, QWEN_MCP_CLIENT.name);
      assert.equal(review.client.version, QWEN_MCP_CLIENT.version);
      // Who really asked: the qwen process behind the connection, found by its socket.
      assert.equal(review.client.process?.program, 'Qwen Code', JSON.stringify(review.client));
      assert.equal(review.client.process?.version, QWEN_VERSION);
      assert.equal(review.client.process?.cwd, ws);
      assert.match(review.client.process?.tty ?? '', /^\/dev\/pts\/\d+$/);
      const listed = await r.run(['review', 'list']);
      assert.match(listed.stdout, new RegExp(`\\[Qwen Code ${QWEN_VERSION.replaceAll('.', '\\.')} · /dev/pts/\\d+\\]`), listed.stdout);
      assert.equal(review.newFile, false);
      assert.equal(typeof review.id, 'number');
      assert.ok(review.added >= 1 && review.removed >= 1, `added/removed counted: ${JSON.stringify(review)}`);

      const shown = await r.run(['review', 'show', String(review.id)]);
      assert.equal(shown.code, 0, `review show: ${shown.stderr}`);
      assert.match(shown.stdout, /^-original accept line$/m);
      assert.match(shown.stdout, /^\+model proposal line$/m);

      // qwen is waiting for the decision in its terminal too.
      await q.waitForScreen((s) => /Apply this change\?/.test(screenAfter(s, 'REDLINE-ACCEPT')), STEP_MS, 'qwen to ask for confirmation');
      assert.equal(fs.readFileSync(file, 'utf8'), original, 'nothing written before the decision');

      const contentFile = path.join(scratch, 'edited.txt');
      fs.writeFileSync(contentFile, edited);
      const acc = await r.run(['review', 'accept', String(review.id), '--content-file', contentFile]);
      assert.equal(acc.code, 0, `review accept: ${acc.stdout} ${acc.stderr}`);

      // qwen executes write_file with the reviewer's text and reports back to the model. Had
      // Redline written the file itself, qwen's prior-read check would refuse to overwrite a file
      // changed since it was read, and this result would be an error.
      const done = await model.waitFor((x) => x.decision.kind === 'final' && x.decision.toolResult.includes(file), STEP_MS, 'qwen to send the write_file result to the model');
      assert.match(done.decision.toolResult, new RegExp(`Successfully overwrote file: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.ok(done.decision.toolResult.includes('User modified the `content`'), `qwen knows the user edited the proposal: ${done.decision.toolResult}`);
      assert.equal(fs.readFileSync(file, 'utf8'), edited, 'the file holds exactly the --content-file text');

      await q.waitForScreen(/Accept flow finished\./, STEP_MS, 'the final answer on screen');
      const pending = await runJson(r, ['review', 'list', '--json']);
      assert.deepEqual(pending, [], 'no pending review after accept');
    });
  });

  test('(d) reject leaves the file unchanged', { timeout: 120_000 }, async () => {
    assert.ok(q, 'needs (b)');
    const file = path.join(ws, 'reject.txt');
    const original = fs.readFileSync(file, 'utf8');
    model.setPlan({ trigger: 'REDLINE-REJECT', filePath: file, content: 'rejected proposal\n', final: 'Reject flow finished.' });
    const before = model.requests.length;

    await explain(async () => {
      await q.submit('Please do REDLINE-REJECT');
      const review = await runJson(r, ['review', 'wait', '--file', file, '--timeout', '40']);
      assert.equal(review.filePath, file);
      assert.equal(review.client.name, QWEN_MCP_CLIENT.name);
      assert.equal(review.client.process?.program, 'Qwen Code');
      await q.waitForScreen((s) => /Apply this change\?/.test(screenAfter(s, 'REDLINE-REJECT')), STEP_MS, 'qwen to ask for confirmation');

      const rej = await r.run(['review', 'reject', String(review.id)]);
      assert.equal(rej.code, 0, `review reject: ${rej.stdout} ${rej.stderr}`);

      // qwen cancels the tool call: the status glyph of the WriteFile line turns to "-".
      await q.waitForScreen(
        (s) => /^\s*-\s+WriteFile\s+Writing to reject\.txt/m.test(screenAfter(s, 'REDLINE-REJECT')),
        STEP_MS,
        'qwen to cancel the write',
      );
      assert.equal(fs.readFileSync(file, 'utf8'), original, 'file unchanged after reject');
      assert.ok(
        !model.requests.slice(before).some((x) => x.decision.kind === 'final'),
        'qwen did not report a write to the model',
      );
      const pending = await runJson(r, ['review', 'list', '--json']);
      assert.deepEqual(pending, [], 'no pending review after reject');
    });
  });

  // When the user answers in qwen's own terminal instead, qwen sends
  // closeDiff {filePath, suppressNotification: true}: Redline must drop the review.
  test('(e) answered "Yes" in the qwen terminal: the review closes, qwen writes its proposal', { timeout: 120_000 }, async () => {
    assert.ok(q, 'needs (b)');
    const file = path.join(ws, 'terminal-yes.txt');
    fs.writeFileSync(file, 'original terminal-yes line\n');
    const proposed = 'proposal allowed in the terminal\n';
    model.setPlan({ trigger: 'REDLINE-TERMINAL-YES', filePath: file, content: proposed, final: 'Terminal yes finished.' });

    await explain(async () => {
      await q.submit('Please do REDLINE-TERMINAL-YES');
      const review = await runJson(r, ['review', 'wait', '--file', file, '--timeout', '40']);
      assert.equal(review.filePath, file);
      await q.waitForScreen((s) => /› 1\. Yes, allow once/.test(screenAfter(s, 'REDLINE-TERMINAL-YES')), STEP_MS, 'the confirmation menu');
      await q.keys('Enter');

      const done = await model.waitFor((x) => x.decision.kind === 'final' && x.decision.toolResult.includes(file), STEP_MS, 'the write_file result');
      assert.match(done.decision.toolResult, /Successfully overwrote file/);
      assert.equal(fs.readFileSync(file, 'utf8'), proposed);
      await reviewDropped(r);
    });
  });

  test('(f) answered "No" (esc) in the qwen terminal: the review closes, the file is unchanged', { timeout: 120_000 }, async () => {
    assert.ok(q, 'needs (b)');
    const file = path.join(ws, 'terminal-no.txt');
    fs.writeFileSync(file, 'original terminal-no line\n');
    model.setPlan({ trigger: 'REDLINE-TERMINAL-NO', filePath: file, content: 'proposal refused in the terminal\n', final: 'Terminal no finished.' });

    await explain(async () => {
      await q.submit('Please do REDLINE-TERMINAL-NO');
      const review = await runJson(r, ['review', 'wait', '--file', file, '--timeout', '40']);
      assert.equal(review.filePath, file);
      await q.waitForScreen((s) => /› 1\. Yes, allow once/.test(screenAfter(s, 'REDLINE-TERMINAL-NO')), STEP_MS, 'the confirmation menu');
      await q.keys('Escape');

      await q.waitForScreen(
        (s) => /^\s*-\s+WriteFile\s+Writing to terminal-no\.txt/m.test(screenAfter(s, 'REDLINE-TERMINAL-NO')),
        STEP_MS,
        'qwen to cancel the write',
      );
      await reviewDropped(r);
      assert.equal(fs.readFileSync(file, 'utf8'), 'original terminal-no line\n');
    });
  });
});
