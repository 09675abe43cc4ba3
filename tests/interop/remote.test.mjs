// Interop: the real Gemini CLI IdeClient (@google/gemini-cli-core 0.61.0) on a far machine (a
// headless Redline with its own home, config and runtime dirs), reviewed on a desktop Redline
// that reaches it through `redline remote add far -- env … redline bridge`, as it would over ssh
// (tests/cli/remote_ssh.rs runs the real OpenSSH). The desktop decides; the far client gets
// exactly the accepted bytes, or the rejection; the far file is never written by Redline. Then
// the real codex TUI (offline, codex-fake-api.mjs) with Redline's hook on the far machine: its
// apply_patch waits for the desktop's accept and lands as accepted.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { clientEnv, startGeminiClient } from './lib/gemini.mjs';
import { startRedline } from './lib/redline.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './codex-fake-api.mjs';
import { codexHome, codexInstalled, codexTempDir, startCodex, trustHooks, CODEX_VERSION } from './codex-driver.mjs';

const TEST_TIMEOUT_MS = 120_000;

async function ok(r, args) {
  const res = await r.run(args);
  assert.equal(res.code, 0, `redline ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res;
}

/** The command that reaches `far`'s instance, its own dirs given (as ssh's login would). */
function bridgeTo(far) {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'XDG_CONFIG_HOME', 'XDG_RUNTIME_DIR'];
  return ['env', '-i', ...keep.map((k) => `${k}=${far.env[k]}`), far.bin, 'bridge'];
}

/** The desktop's next pending review, which must be `far`'s. */
async function farReview(desk, filePath) {
  const res = await ok(desk, ['review', 'wait', '--timeout', '20']);
  const review = JSON.parse(res.stdout);
  assert.equal(review.remote, 'far', res.stdout);
  assert.equal(review.filePath, filePath, res.stdout);
  return review;
}

test('a far Gemini CLI\'s openDiff is accepted with edits and rejected on the desktop', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-far-')));
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const target = path.join(ws, 'greeting.txt');
  const original = 'hello\nworld\n';
  await fsp.writeFile(target, original);
  const far = await startRedline({ workspaces: [ws] });
  t.after(() => far.stop());
  const desk = await startRedline({});
  t.after(() => desk.stop());
  await ok(desk, ['remote', 'add', 'far', '--', ...bridgeTo(far)]);
  await pollUntil(async () => {
    const [far0] = await desk.json(['remote', 'list', '--json']);
    return { ok: far0?.state === 'connected', value: far0 };
  }, 15_000, 'the remote connected');

  const g = await startGeminiClient({ cwd: ws, env: clientEnv(far) });
  t.after(() => g.close());
  const c = await g.connect();
  assert.equal(c.state.status, 'connected', `client did not connect: ${c.state.details}\n${g.output()}`);

  const diff = g.openDiff(target, 'hello\nplanet\n');
  await diff.started;
  const review = await farReview(desk, target);
  assert.deepEqual([review.added, review.removed], [1, 1]);
  // Unicode (2-, 3- and 4-byte UTF-8), a CRLF, a tab, no trailing newline.
  const edited = 'héllo wörld — ✓ 🚀 𝄞\nzweite Zeile\r\ndritte\tZeile ohne Zeilenende';
  const contentFile = path.join(desk.dirs.root, 'edited.txt');
  await fsp.writeFile(contentFile, edited);
  await ok(desk, ['review', 'accept', String(review.id), '--content-file', contentFile]);
  assert.deepEqual(await diff.result, { status: 'accepted', content: edited });
  assert.equal(await fsp.readFile(target, 'utf8'), original, 'Redline never writes the file (the CLI does)');
  assert.deepEqual(await far.json(['review', 'list', '--json']), [], 'decided on the far side too');

  const again = g.openDiff(target, 'bye\n');
  await again.started;
  const second = await farReview(desk, target);
  await ok(desk, ['review', 'reject', String(second.id)]);
  assert.equal((await again.result).status, 'rejected');
  assert.deepEqual(await desk.json(['review', 'list', '--json']), []);
});

const codexSkip = !codexInstalled() ? `codex ${CODEX_VERSION} not installed: npm ci in tests/interop` : false;

test(`the real codex ${CODEX_VERSION} on the far machine: its apply_patch, accepted on the desktop, lands exactly`, { timeout: TEST_TIMEOUT_MS, skip: codexSkip }, async (t) => {
  const api = await startFakeApi({});
  t.after(() => api.close());
  const ws = await codexTempDir('rl-remote-codex-');
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  fs.writeFileSync(file, 'one\r\ntwo\r\nthree\r\n');
  const far = await startRedline({ workspaces: [ws] });
  t.after(() => far.stop());
  const home = await codexHome({ api, workspaces: [ws] });
  t.after(() => home.stop());
  await ok({ run: (args) => far.run(args, { env: { ...far.env, HOME: home.home, CODEX_HOME: home.codexHome } }) },
    ['hooks', 'install', 'codex']);
  trustHooks(home.codexHome);
  const desk = await startRedline({});
  t.after(() => desk.stop());
  await ok(desk, ['remote', 'add', 'far', '--', ...bridgeTo(far)]);

  const env = { PATH: `${path.dirname(far.bin)}:${process.env.PATH}`, XDG_RUNTIME_DIR: far.env.XDG_RUNTIME_DIR, XDG_CONFIG_HOME: far.env.XDG_CONFIG_HOME };
  const codex = await startCodex({ cwd: ws, home, api, env });
  t.after(() => codex.stop());
  await codex.waitReady();
  const trigger = `PATCH-${Date.now()}`;
  const final = `done ${trigger}`;
  const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n';
  api.addPlan({ trigger, patch, final });
  await codex.submit(`${trigger} please`);

  const review = await pollUntil(async () => {
    const list = await desk.json(['review', 'list', '--json']);
    const found = list.find((x) => x.remote === 'far' && x.filePath.endsWith('a.txt'));
    return { ok: Boolean(found), value: found ?? list };
  }, 30_000, 'the far codex\'s review on the desktop');
  assert.equal(fs.readFileSync(file, 'utf8'), 'one\r\ntwo\r\nthree\r\n', 'codex waits on the hook');
  await ok(desk, ['review', 'accept', String(review.id)]);
  await codex.waitForScreen((s) => s.includes(final), 30_000, 'codex to end the turn');
  assert.equal(fs.readFileSync(file, 'utf8'), 'one\r\nTWO\r\nthree\r\n', 'the patch as accepted, its CRLF kept');
});
