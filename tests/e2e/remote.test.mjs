// Another machine's review in the real window: a far Redline (headless, its own home and runtime
// dirs, as a host over ssh would be) reached by `redline remote add devbox -- env … redline
// bridge`; `redline propose --wait` there pops a tab up here labelled `devbox`, and Accept with
// the user's edit gives the far command exactly those bytes (screenshot remote.png).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, waitTabs, withAppLog,
} from './lib/fixtures.mjs';
import { redlineBin } from './lib/desktop.mjs';
import { Key } from './lib/webdriver.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const ORIGINAL = 'fn retries() -> u32 {\n    3\n}\n';
const PROPOSED = 'fn retries() -> u32 {\n    5\n}\n';

/** The far machine: its own dirs, one workspace, `redline serve --headless` once ready. */
async function farSide(later, ws) {
  const root = await fsp.mkdtemp(path.join(path.dirname(ws), 'far-'));
  const env = { PATH: process.env.PATH, RUST_LOG: 'warn' };
  for (const [k, d] of [['HOME', 'home'], ['TMPDIR', 'tmp'], ['XDG_CONFIG_HOME', 'config'], ['XDG_RUNTIME_DIR', 'run']]) {
    env[k] = path.join(root, d);
    await fsp.mkdir(env[k], { recursive: true, mode: 0o700 });
  }
  const bin = redlineBin();
  const run = (args) => new Promise((resolve) => {
    const c = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (b) => (out += b));
    c.stderr.on('data', (b) => (err += b));
    c.on('close', (code) => resolve({ code, out, err }));
  });
  const added = await run(['workspace', 'add', ws]);
  assert.equal(added.code, 0, added.err);
  const server = spawn(bin, ['serve', '--headless'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  later(async () => {
    await run(['quit']);
    if (server.exitCode === null) server.kill('SIGTERM');
  });
  const [first] = await readline.createInterface({ input: server.stdout })[Symbol.asyncIterator]().next()
    .then((r) => [r.value]);
  assert.equal(first, 'ready');
  // The command a desktop runs to reach it, as ssh would run `redline bridge` there.
  const bridge = ['env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), bin, 'bridge'];
  return { env, bin, bridge };
}

test('a far review pops up labelled with its machine and its accept reaches the far command byte for byte', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'service', { 'src/retry.rs': ORIGINAL });
  const far = await farSide(later, ws);
  const d = await desktop(t, later, {});
  await withAppLog(d, async () => {
    const { wd } = d;
    const added = await d.run(['remote', 'add', 'devbox', '--', ...far.bridge]);
    assert.equal(added.code, 0, added.stderr);
    await poll(async () => (await d.json(['remote', 'list', '--json']))[0]?.state === 'connected',
      { timeoutMs: UI_TIMEOUT_MS, what: 'the remote connected' });

    const file = path.join(ws, 'src', 'retry.rs');
    const proposal = path.join(path.dirname(ws), 'proposal.rs');
    await fsp.writeFile(proposal, PROPOSED);
    const asker = spawn(far.bin, ['propose', file, '--content-file', proposal, '--wait'],
      { env: far.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    asker.stdout.on('data', (b) => (stdout += b));
    asker.stderr.on('data', (b) => (stderr += b));
    const done = new Promise((resolve) => asker.on('close', (code) => resolve({ code })));
    later(() => { if (asker.exitCode === null) asker.kill('SIGTERM'); });

    await waitTabs(wd, ['retry.rs']).catch((err) => {
      err.message += `\nfar redline propose: ${stderr}`;
      throw err;
    });
    assert.equal(await wd.execute("return document.querySelector('.summary .badge.remote')?.textContent"), 'devbox');

    // The user's own edit, at the end of the proposal.
    const content = await wd.waitFor('.cm-merge-b .cm-content');
    await wd.click(content);
    await wd.sendKeys(content, `${Key.Control}${Key.End}${Key.Control}// five: the API is slow${Key.Enter}`);
    await wd.until(() => wd.execute(`return document.fonts.status === 'loaded'
        && document.querySelectorAll('.toasts > *').length === 0`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the pane fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'remote.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    await wd.clickOn('.review .actions .accept');
    const { code } = await poll(async () => (asker.exitCode === null ? null : done),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the far redline propose to end' });
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `${PROPOSED}// five: the API is slow\n`);
    await waitTabs(wd, []);
    assert.equal(await fsp.readFile(file, 'utf8'), ORIGINAL, 'Redline never writes the file');
  });
});
